#!/usr/bin/env python3
"""The console of `wavebench run`: with --format markdown, csv and json stdout carries only the table,
parsed here as such, and everything else goes to stderr with the exit status unchanged; the progress
line shows on a terminal only and never stays in the table. Usage: console_format_test.py BUILD_DIR SOURCE_DIR"""
import csv
import io
import json
import os
import pty
import re
import subprocess
import tempfile
import unittest

import wbtest
from wbtest import BUILD, WB

TMP = wbtest.tempdir()
DB = os.path.join(TMP, "h.db")


def suite(name, reduce_variants, branch):
    """A suite file in TMP: reduce at two sizes, and with `branch` the call pair of branch."""
    path = os.path.join(TMP, name + ".toml")
    with open(path, "w") as f:
        f.write('[suite]\nname = "%s"\nrepetitions = 3\nwarmup = 1\nseed = 7\n\n' % name)
        f.write('[[benchmark]]\nfamily = "reduce"\nvariants = %s\nn = [1000, 5000]\n' % json.dumps(reduce_variants))
        if branch:
            f.write('\n[[benchmark]]\nfamily = "branch"\nvariants = ["call_*"]\nkernel = "call"\nn = 1000\n')
    return path


# Two families (their parameters differ); test_off_by_one (a test plugin) fails verification.
FORMATS_SUITE = suite("tiny", ["atomic", "chunked", "tree", "test_off_by_one"], True)
PROGRESS_SUITE = suite("progress", ["atomic", "chunked", "tree", "wavefront"], False)
ROWS = 2 * 4 + 2


def run(suite_file, *args):
    out = os.path.join(TMP, "r.json")
    return wbtest.wb("run", suite_file, "--platform", "cpu", "--no-ceilings", "--out", out, *args, db=DB, timeout=300)


def cells(line):
    """The cells of a markdown table line (\\| is no separator)."""
    return [c.strip() for c in line.replace("\\|", "\x00").strip().strip("|").split("|")]


class Formats(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        plugins = ["--plugins", os.path.join(BUILD, "tests", "plugins")]
        cls.runs = {f: run(FORMATS_SUITE, "--format", f, *plugins)
                    for f in ("table", "markdown", "csv", "json")}

    def test_the_exit_status_is_the_same_in_every_format(self):
        for f, p in self.runs.items():
            self.assertEqual(p.returncode, 1, f + ": " + p.stderr)  # test_off_by_one failed

    def test_only_the_table_is_on_stdout(self):
        for f in ("markdown", "csv", "json"):
            p = self.runs[f]
            for words in ("suite tiny", "platform cpu", "verified, ", "not verified:", "results: "):
                self.assertNotIn(words, p.stdout, f)
                self.assertIn(words, p.stderr, f)
        self.assertIn("verified, ", self.runs["table"].stdout)

    def test_csv_has_one_header_and_a_row_per_result_with_plain_numbers(self):
        rows = list(csv.DictReader(io.StringIO(self.runs["csv"].stdout)))
        self.assertEqual(len(rows), ROWS)
        header = self.runs["csv"].stdout.split("\n")[0].split(",")
        for column in ("family", "variant", "n", "block_size", "kernel", "distribution", "status", "time_ms",
                       "rel_stddev", "metric", "metric_unit", "speedup_vs_baseline", "message"):
            self.assertIn(column, header)
        by = {(r["family"], r["variant"], r["n"]): r for r in rows}
        atomic = by[("reduce", "atomic", "5000")]
        self.assertEqual(atomic["status"], "verified")
        self.assertGreater(float(atomic["time_ms"]), 0)  # ms, no unit
        self.assertLess(float(atomic["rel_stddev"]), 100)  # a fraction, no %
        self.assertEqual(float(atomic["speedup_vs_baseline"]), 1.0)
        self.assertEqual(atomic["kernel"], "")  # a branch parameter
        self.assertEqual(by[("branch", "call_ifelse", "1000")]["kernel"], "call")
        failed = by[("reduce", "test_off_by_one", "1000")]
        self.assertEqual(failed["status"], "failed")
        self.assertEqual(failed["time_ms"], "")
        self.assertIn("0xa5 poison", failed["message"])

    def test_json_is_an_object_a_line(self):
        rows = [json.loads(l) for l in self.runs["json"].stdout.splitlines()]
        self.assertEqual(len(rows), ROWS)
        first = rows[0]
        self.assertEqual((first["family"], first["variant"], first["params"]), ("reduce", "atomic",
                                                                               {"n": 1000, "block_size": 256}))
        self.assertIsInstance(first["time_ms"], float)
        self.assertIsNone(first["speedup_vs_library"])
        self.assertEqual([r["status"] for r in rows].count("failed"), 2)
        self.assertEqual([r["variant"] for r in rows if r["family"] == "branch"], ["call_ifelse", "call_swapped"])

    def test_markdown_is_a_pipe_table_per_family(self):
        tables, current = [], None
        for line in self.runs["markdown"].stdout.splitlines():
            if line.startswith("|"):
                if current is None:
                    current = []
                    tables.append(current)
                current.append(cells(line))
            else:
                current = None
        self.assertEqual(len(tables), 2)
        for t in tables:
            self.assertEqual({len(r) for r in t}, {len(t[0])}, t[0])
            self.assertTrue(all(set(c) <= set(":-") for c in t[1]), t[1])
        self.assertEqual(tables[0][0][:2], ["variant", "n"])
        self.assertEqual(len(tables[0]), 2 + 2 * 4)
        self.assertEqual(len(tables[1]), 2 + 2)
        self.assertIn("**reduce**: block_size=256", self.runs["markdown"].stdout)
        failed = [r for r in tables[0] if r[0] == "test_off_by_one"]
        self.assertTrue(failed[0][-1].startswith("failed: "), failed[0])

    def test_the_table_fits_and_says_a_failure_on_the_next_line(self):
        lines = self.runs["table"].stdout.splitlines()
        lines = lines[:next(i for i, l in enumerate(lines) if re.match(r"\d+ verified, ", l))]  # not the summary's
        for l in lines:
            if not l.startswith("    failed: "):
                self.assertLessEqual(len(l), 120, l)
        i = next(i for i, l in enumerate(lines) if l.startswith("test_off_by_one "))
        self.assertTrue(lines[i + 1].startswith("    failed: "), lines[i + 1])


def screen(text):
    """The lines a terminal shows after `text`: \\r returns to the line's start, ESC[K clears to its end."""
    lines, line, col = [], [], 0
    i = 0
    while i < len(text):
        if text.startswith("\x1b[K", i):
            del line[col:]
            i += 3
            continue
        c = text[i]
        if c == "\r":
            col = 0
        elif c == "\n":
            lines.append("".join(line))
            line, col = [], 0
        else:
            line[col:col + 1] = [c]
            col += 1
        i += 1
    return lines + ["".join(line)]


def on_terminal(*args, stdout_too=False):
    """Runs with stderr (and stdout_too) on a pseudo-terminal; returns what it showed there, and stdout."""
    main, sub = pty.openpty()
    with tempfile.TemporaryFile("w+") as out:
        p = subprocess.Popen([WB, "run", PROGRESS_SUITE, "--platform", "cpu", "--no-ceilings",
                              "--out", os.path.join(TMP, "t.json"), *args], env=wbtest.environment(db=DB),
                             stdout=sub if stdout_too else out, stderr=sub)
        os.close(sub)
        shown = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # EIO: the last writer closed it
                break
            if not chunk:
                break
            shown += chunk
        p.wait(timeout=300)
        os.close(main)
        out.seek(0)
        return p.returncode, shown.decode("utf-8", "replace"), out.read()


class Progress(unittest.TestCase):
    def test_a_terminal_shows_the_progress_and_a_pipe_does_not(self):
        status, shown, out = on_terminal()
        self.assertEqual(status, 0, shown)
        self.assertIn("\r[1/8] 0:00 elapsed: reduce/atomic n=1000 block_size=256", shown)
        self.assertRegex(shown, r"\r\[8/8\] \d+:\d\d elapsed, ~\d+:\d\d left: reduce/wavefront n=5000")
        self.assertTrue(shown.endswith("\r\x1b[K"), repr(shown[-80:]))  # cleared at the end
        self.assertEqual([l for l in screen(shown) if l], [])  # nothing left of it
        self.assertIn("atomic ", out)
        p = run(PROGRESS_SUITE)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("elapsed", p.stderr)
        self.assertNotIn("\r", p.stderr + p.stdout)

    def test_on_one_terminal_the_table_stays_whole(self):
        status, shown, _ = on_terminal(stdout_too=True)
        self.assertEqual(status, 0, shown)
        lines = screen(shown)
        self.assertFalse([l for l in lines if "elapsed" in l], "\n".join(lines))
        rows = [l for l in lines if l.split(" ")[0] in ("atomic", "chunked", "tree", "wavefront")]
        self.assertEqual(len(rows), 8, "\n".join(lines))
        for r in rows:
            self.assertRegex(r, r" ok( \(noisy\))?$")


if __name__ == "__main__":
    wbtest.main()
