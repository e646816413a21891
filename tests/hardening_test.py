#!/usr/bin/env python3
"""The command line, suites and output paths as an attacker or a careless user gives them: nothing
read forever, nothing overwritten, no limit missing, every message bounded and naming what was
expected; and no shell anywhere in the sources. Usage: hardening_test.py BUILD_DIR SOURCE_DIR"""
import glob
import json
import os
import re
import stat
import subprocess
import tempfile
import unittest

import wbtest
from wbtest import BUILD, CACHE, SOURCE, WB, load, write
QUICK = os.path.join(SOURCE, "suites", "quick.toml")
ONE_AMD_PLUGIN = os.path.join(BUILD, "plugins", "amd", "reduce_atomic.so")
TINY = """[suite]
name = "tiny"
repetitions = 2
warmup = 1
[[benchmark]]
family = "reduce"
variants = ["atomic"]
n = 4096
"""


wb = wbtest.runner(errors="replace", timeout=120, stdin=subprocess.DEVNULL)


class CommandLine(unittest.TestCase):
    def test_an_unknown_command_is_named(self):
        p = wb("frobnicate")
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown command 'frobnicate'", p.stderr)
        self.assertIn("run", p.stderr)

    def test_numbers_are_parsed_strictly_and_say_what_was_expected(self):
        cases = [("--min-time", "nan", "finite"), ("--min-time", "inf", "finite"), ("--min-time", "1s", "finite"),
                 ("--min-time", "-1", "out of range"), ("--repetitions", "12abc", "not an integer"),
                 ("--repetitions", "1e3", "not an integer"), ("--repetitions", " 5", "not an integer"),
                 ("--repetitions", "0", "out of range"), ("--warmup", "99999999999999999999", "out of range"),
                 ("--timeout", "nan", "finite"), ("--verify-every", "", "not an integer"),
                 ("--device", "-1", "out of range"), ("--warp-size", "abc", "expected 32 or 64"),
                 ("--warp-size", "48", "expected 32 or 64"), ("--max-configs", "0", "out of range")]
        for opt, value, says in cases:
            with self.subTest(opt=opt, value=value):
                p = wb("run", QUICK, "--platform", "cpu", "--dry-run", opt, value)
                self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
                self.assertIn(opt, p.stderr)
                self.assertIn(says, p.stderr)
                self.assertIn("expected", p.stderr)
        p = wb("probe", "--platform", "cpu", "--mib", "16x")
        self.assertEqual(p.returncode, 2)
        self.assertIn("not an integer", p.stderr)

    def test_a_good_number_still_passes(self):
        p = wb("run", QUICK, "--platform", "cpu", "--dry-run", "--min-time", "0.5", "--repetitions", "3",
               "--warp-size", "32", "--timeout", "30")
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_huge_arguments_are_shortened_in_messages(self):
        huge = "p" * 100000
        for args in (["list", "--platform", huge], ["run", QUICK, "--platform", "cpu", "--filter", huge, "--dry-run"],
                     ["inspect", "--target", huge], ["inspect", "--pair", huge, "x"], ["run", huge],
                     ["list", "--platform", "cpu", "--plugins", "/tmp/" + huge], [huge],
                     ["run", QUICK, "--platform", "cpu", "--no-ceilings", "--out", "/tmp/" + huge]):
            with self.subTest(args=[a[:20] for a in args]):
                p = wb(*args)
                self.assertLess(len(p.stderr), 2000, p.stderr[:200])
                self.assertLess(len(p.stdout), 20000)

    def test_arguments_the_parser_rejects_are_shown_escaped(self):
        for args in (["list", "\x1b[2Jzz"], ["run", QUICK, "--bogus", "\x1b]0;t\x07"], ["list", "--warp-size"]):
            with self.subTest(args=args):
                p = wb(*args)
                self.assertEqual(p.returncode, 2)
                self.assertNotIn("\x1b", p.stderr)
                self.assertIn("--help", p.stderr)
        self.assertIn("\\x1b[2Jzz", wb("list", "\x1b[2Jzz").stderr)

    def test_empty_paths_are_refused(self):
        for args in (["run", QUICK, "--out", ""], ["run", ""], ["probe", "--out", ""],
                     ["inspect", "--write-baseline", ""], ["inspect", "--compare", ""]):
            with self.subTest(args=args):
                p = wb(*args)
                self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
                self.assertIn("empty path", p.stderr)


class Inputs(unittest.TestCase):
    def test_devices_fifos_and_directories_are_refused_at_once(self):
        with tempfile.TemporaryDirectory() as d:
            fifo = os.path.join(d, "fifo")
            os.mkfifo(fifo)
            for path, kind in (("/dev/zero", "character device"), (fifo, "FIFO"), (d, "directory")):
                with self.subTest(path=path):
                    p = wb("run", path, "--platform", "cpu", timeout=30)
                    self.assertEqual(p.returncode, 2)
                    self.assertIn(kind, p.stderr)
                    self.assertIn("regular file", p.stderr)

    def test_standard_input_is_read_up_to_the_limit(self):
        with open("/dev/zero") as zero:
            p = wb("run", "-", "--platform", "cpu", stdin=zero, timeout=60)
        self.assertEqual(p.returncode, 2)
        self.assertIn("more than the 16.0 MiB", p.stderr)
        p = subprocess.run([WB, "run", "-", "--platform", "cpu", "--dry-run"], input=TINY, capture_output=True,
                           text=True, timeout=120, env=wbtest.environment())
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("1 configurations", p.stdout)

    def test_an_oversized_suite_is_refused_with_its_size(self):
        with tempfile.TemporaryDirectory() as d:
            big = os.path.join(d, "big.toml")
            with open(big, "w") as f:
                f.write("# " + "x" * (17 << 20) + "\n")
            p = wb("run", big, "--platform", "cpu")
            self.assertEqual(p.returncode, 2)
            self.assertIn("17.0 MiB, more than the 16.0 MiB", p.stderr)

    def test_a_suite_that_expands_past_the_limit_is_counted_and_refused_before_anything_runs(self):
        with tempfile.TemporaryDirectory() as d:
            s = os.path.join(d, "wide.toml")
            sizes = ", ".join(str(4096 + i) for i in range(400))
            blocks = ", ".join(["64", "128", "256", "512", "1024"] * 60)
            write(s, f'[[benchmark]]\nfamily = "reduce"\nvariants = ["*"]\nn = [{sizes}]\nblock_size = [{blocks}]\n')
            out = os.path.join(d, "r.json")
            p = wb("run", s, "--platform", "cpu", "--out", out)
            self.assertEqual(p.returncode, 2, p.stdout)
            count = re.search(r"expands to (\d+) configurations, more than the limit of 100000", p.stderr)
            self.assertIsNotNone(count, p.stderr)
            self.assertGreater(int(count.group(1)), 100000)
            self.assertIn("--max-configs", p.stderr)
            self.assertFalse(os.path.exists(out), "nothing is written before the suite is accepted")
            p = wb("run", s, "--platform", "cpu", "--filter", "reduce/atomic", "--max-configs", "1000", "--dry-run")
            self.assertEqual(p.returncode, 2)
            self.assertIn("(with --filter)", p.stderr)

    def test_a_huge_string_is_shortened_in_the_message(self):
        with tempfile.TemporaryDirectory() as d:
            s = os.path.join(d, "long.toml")
            huge = "y" * (10 << 20)
            for body in (f'[[benchmark]]\nfamily = "{huge}"\n', f'[suite]\n{huge} = 1\n',
                         f'[[benchmark]]\nfamily = "reduce"\n{huge} = 1\n',
                         f'[[benchmark]]\nfamily = "reduce"\nvariants = ["{huge}"]\n',
                         f'[suite]\nname = "{huge}"\n[[benchmark]]\nfamily = "reduce"\n'):
                with self.subTest(body=body[:40]):
                    write(s, body)
                    p = wb("run", s, "--platform", "cpu", "--dry-run")
                    self.assertEqual(p.returncode, 2)
                    self.assertLess(len(p.stderr), 2000, p.stderr[:300])
                    self.assertIn(str(len(huge)) + " bytes", p.stderr)

    def test_control_characters_in_a_suite_are_escaped_in_messages(self):
        with tempfile.TemporaryDirectory() as d:
            s = os.path.join(d, "esc.toml")
            write(s, '[[benchmark]]\nfamily = "re\\u001b[31mduce"\n')
            p = wb("run", s, "--platform", "cpu", "--dry-run")
            self.assertEqual(p.returncode, 2)
            self.assertNotIn("\x1b", p.stderr)
            self.assertIn("\\x1b", p.stderr)

    def test_a_suite_name_is_a_name_not_a_path(self):
        with tempfile.TemporaryDirectory() as d:
            s = os.path.join(d, "s.toml")
            for name in ("../../escape", "a/b", "", ".hidden", "x" * 65):
                with self.subTest(name=name):
                    write(s, f'[suite]\nname = "{name}"\n' + TINY.split("\n", 2)[2])
                    p = wb("run", s, "--platform", "cpu", "--dry-run")
                    self.assertEqual(p.returncode, 2)
                    self.assertIn("is not a name", p.stderr)


class MutatedSuites(unittest.TestCase):
    def test_mutated_suites_end_with_a_plan_or_a_bounded_message(self):
        """300 mutations of the tree's suites (fixed seed; 100 under ASan): each ends at once, with a plan (0) or a
        bad-input error (2) that names the file; never a crash, a hang or an unbounded message."""
        import random
        rng = random.Random(13)
        seeds = []
        for f in sorted(glob.glob(os.path.join(SOURCE, "suites", "*.toml"))):
            with open(f, "rb") as text:
                seeds.append(text.read())
        pieces = [b"[", b"]", b"[[benchmark]]", b"=", b"\"", b"'", b"\n", b",", b"{", b"}", b"1e999", b"-1",
                  b"9223372036854775808", b"\x00", b"\xff", b"\xe9", b"\\u0000", b"nan", b"inf", b"\x1b[2J"]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "mutant.toml")
            for i in range(300 // wbtest.stride()):
                data = bytearray(rng.choice(seeds))
                for _ in range(rng.randint(1, 4)):
                    at = rng.randrange(len(data))
                    op = rng.randrange(4)
                    if op == 0:
                        data[at] = rng.randrange(256)
                    elif op == 1:
                        data[at:at] = rng.choice(pieces)
                    elif op == 2:
                        del data[at:at + rng.randint(1, 40)]
                    else:  # a line repeated: lists grow, keys repeat
                        start = data.rfind(b"\n", 0, at) + 1
                        end = data.find(b"\n", at) + 1 or len(data)
                        data[end:end] = data[start:end] * rng.randint(1, 3)
                with open(path, "wb") as f:
                    f.write(data)
                p = subprocess.run([WB, "run", path, "--platform", "cpu", "--dry-run"], capture_output=True,
                                   timeout=60, env=wbtest.environment())
                err = p.stderr.decode("utf-8", "replace")
                with self.subTest(mutant=i):
                    self.assertIn(p.returncode, (0, 2), err[-500:])
                    self.assertLess(len(err), 5000)
                    self.assertFalse(re.search(r"[\x00-\x08\x0b-\x1f\x7f]", err), repr(err[:300]))
                    if p.returncode == 2:
                        self.assertIn(path, err)
                    else:
                        self.assertIn(b"configurations", p.stdout)


class MutatedCommandLines(unittest.TestCase):
    def test_random_command_lines_end_with_a_documented_status_and_a_bounded_message(self):
        """200 command lines of the real options with odd values (fixed seed; 66 under ASan): each ends with one
        of the documented exit statuses, never a signal or a hang, and says what it says briefly."""
        import random
        rng = random.Random(1313)
        with tempfile.TemporaryDirectory() as d:
            fifo = os.path.join(d, "fifo")
            os.mkfifo(fifo)
            values = ["", "0", "-1", "1", "32", "64", "nan", "inf", "-inf", "1e309", "0x10", "12abc", " 7", "+3",
                      "9" * 30, "\x1b[2J", "x" * 5000, "/dev/zero", fifo, d, QUICK, "cpu", "amd", "nvidia", "auto",
                      "reduce/*", "[", "gfx90a", "gfx90a;id", "$(id)", "-", "--"]
            options = {
                "list": ["--platform", "--plugins", "--device", "--warp-size", "--json", "--in-process"],
                "run": ["--platform", "--plugins", "--device", "--warp-size", "--filter", "--repetitions", "--warmup",
                        "--min-time", "--verify-every", "--timeout", "--max-configs", "--no-ceilings", "--out"],
                "inspect": ["--platform", "--target", "--json", "--block-size", "--compare", "--isa"],
            }
            flags = {"--json", "--in-process", "--no-ceilings", "--isa"}
            for i in range(200 // wbtest.stride()):
                command = rng.choice(list(options) + ["frob"])
                args = [command]
                if command == "run":
                    args += [rng.choice([QUICK, QUICK, "/dev/zero", fifo, "", d])]
                for _ in range(rng.randint(0, 4)):
                    opt = rng.choice(options.get(command, ["--platform"]))
                    args += [opt] if opt in flags else [opt, rng.choice(values)]
                if command == "run":
                    args += ["--dry-run"]  # planned, never measured: the test stays short
                if command == "inspect" and "--compare" in args:
                    args += ["--target", "gfx90a"]
                if command == "inspect" and os.path.exists(ONE_AMD_PLUGIN):
                    args += [ONE_AMD_PLUGIN]  # one file, not every plugin on every target: the test stays short
                p = subprocess.run([WB, *args], capture_output=True, timeout=120, stdin=subprocess.DEVNULL,
                                   env=wbtest.environment())
                err = p.stderr.decode("utf-8", "replace")
                with self.subTest(i=i, args=[a[:30] for a in args]):
                    self.assertIn(p.returncode, (0, 1, 2, 3, 4), err[-400:])
                    self.assertLess(len(err), 6000, err[:300])
                    self.assertFalse(re.search(r"[\x00-\x08\x0b-\x1f\x7f]", err), repr(err[:300]))


class Outputs(unittest.TestCase):
    def leftovers(self, d):
        return [f for f in os.listdir(d) if ".partial" in f]

    def test_out_never_overwrites_the_suite_or_a_plugin(self):
        with tempfile.TemporaryDirectory() as d:
            s = os.path.join(d, "tiny.toml")
            write(s, TINY)
            link = os.path.join(d, "link.json")
            os.symlink(s, link)
            hard = os.path.join(d, "hard.json")
            os.link(s, hard)
            for out in (s, link, hard, os.path.join(d, ".", "tiny.toml")):
                with self.subTest(out=out):
                    p = wb("run", s, "--platform", "cpu", "--out", out, "--no-ceilings")
                    self.assertEqual(p.returncode, 2, p.stdout)
                    self.assertIn("input of this command", p.stderr)
                    with open(s) as f:
                        self.assertEqual(f.read(), TINY)
            plugin = os.path.join(d, "plugins")
            os.mkdir(plugin)
            so = os.path.join(plugin, "reduce_atomic.so")
            with open(os.path.join(BUILD, "plugins", "cpu", "reduce_atomic.so"), "rb") as f:
                original = f.read()
            with open(so, "wb") as f:
                f.write(original)
            p = wb("run", s, "--platform", "cpu", "--plugins", plugin, "--out", so, "--no-ceilings")
            self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
            self.assertIn("input of this command", p.stderr)
            with open(so, "rb") as f:
                self.assertEqual(f.read(), original)
            self.assertEqual(self.leftovers(d), [])

    def test_out_naming_a_directory_or_an_unwritable_place_says_why_and_leaves_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            s = os.path.join(d, "tiny.toml")
            write(s, TINY)
            target = os.path.join(d, "results")
            os.mkdir(target)
            p = wb("run", s, "--platform", "cpu", "--out", target, "--no-ceilings")
            self.assertEqual(p.returncode, 2)
            self.assertIn("is a directory", p.stderr)
            a_file = os.path.join(d, "plain")
            write(a_file, "")
            p = wb("run", s, "--platform", "cpu", "--out", os.path.join(a_file, "r.json"), "--no-ceilings")
            self.assertEqual(p.returncode, 2)
            self.assertIn("Not a directory", p.stderr)
            p = wb("run", s, "--platform", "cpu", "--out", "/dev/null", "--no-ceilings")
            self.assertEqual(p.returncode, 2)
            self.assertIn("not a regular file", p.stderr)
            p = wb("run", s, "--platform", "cpu", "--out", "/proc/wavebench/r.json", "--no-ceilings")
            self.assertEqual(p.returncode, 2)
            self.assertRegex(p.stderr, r"cannot write '/proc/wavebench/r.json': .*(No such file|Permission|denied)")
            self.assertEqual(self.leftovers(d), [])
            self.assertEqual(os.listdir(target), [])

    def test_a_good_run_leaves_only_its_results(self):
        with tempfile.TemporaryDirectory() as d:
            s = os.path.join(d, "tiny.toml")
            write(s, TINY)
            out = os.path.join(d, "out", "r.json")
            p = wb("run", s, "--platform", "cpu", "--out", out, "--no-ceilings")
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertEqual(sorted(os.listdir(os.path.join(d, "out"))), ["r.json"])
            mode = stat.S_IMODE(os.stat(out).st_mode)
            self.assertTrue(mode & stat.S_IRUSR and mode & stat.S_IWUSR, oct(mode))

    def test_an_unwritable_cache_is_a_warning_that_the_ceilings_were_not_cached(self):
        with tempfile.TemporaryDirectory() as d:
            s = os.path.join(d, "tiny.toml")
            write(s, TINY)
            blocked = os.path.join(d, "cache-is-a-file")
            write(blocked, "")
            p = wb("run", s, "--platform", "cpu", "--out", os.path.join(d, "r.json"), "--reprobe",
                   env={"WAVEBENCH_CACHE_DIR": blocked}, timeout=600)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn("the ceilings were not cached", p.stderr)
            self.assertRegex(p.stderr, "Not a directory|File exists")
            self.assertNotIn("cached in", p.stdout + p.stderr)

    def test_text_from_the_ceiling_cache_is_shown_escaped(self):
        # The cache is a file anyone may edit: its names and texts reach the run's heading.
        with tempfile.TemporaryDirectory() as d:
            s = os.path.join(d, "tiny.toml")
            write(s, TINY)
            warm = wb("run", s, "--platform", "cpu", "--out", os.path.join(d, "warm.json"), "--no-history",
                      timeout=900)  # fills the tests' cache where no test has yet
            self.assertEqual(warm.returncode, 0, warm.stdout + warm.stderr)
            cache = os.path.join(d, "cache")
            os.makedirs(cache)
            for f in glob.glob(os.path.join(CACHE, "ceilings-cpu*.json")):
                doc = load(f)
                for c in doc["ceilings"].values():
                    for key in ("unit", "what", "measured"):
                        c[key] = "\x1b]0;pwned\x07\x1b[31m" + c[key] + "\u202e"
                with open(os.path.join(cache, os.path.basename(f)), "w") as out:
                    json.dump(doc, out)
            p = wb("run", s, "--platform", "cpu", "--out", os.path.join(d, "r.json"), "--no-history", cache=cache)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn("ceiling ", p.stdout)
            for text in (p.stdout, p.stderr):
                self.assertNotIn("\x1b", text)
                self.assertNotIn("\u202e", text)


class NoShell(unittest.TestCase):
    def test_no_source_starts_a_shell(self):
        """External programs run from an argument vector (posix_spawn, subprocess with a list)."""
        files = subprocess.run(["git", "ls-files"], cwd=SOURCE, capture_output=True, text=True).stdout.split()
        if not files:
            self.skipTest("not a git checkout: the sources cannot be listed")
        pattern = re.compile(r"\b(system|popen|execl|execlp|wordexp)\s*\(|shell\s*=\s*True|\bos\.system\b|"
                             r"[\"'](/bin/)?(ba)?sh[\"']\s*,\s*[\"']-c[\"']")
        found = []
        for f in files:
            if not re.search(r"\.(c|cc|cpp|h|hpp|hip|cu|cuh|py)$", f) or f == "tests/hardening_test.py":
                continue
            with open(os.path.join(SOURCE, f), errors="replace") as text:
                for n, line in enumerate(text, 1):
                    if pattern.search(line):
                        found.append(f"{f}:{n}: {line.strip()}")
        self.assertEqual(found, [])


if __name__ == "__main__":
    wbtest.main()
