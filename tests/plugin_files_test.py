#!/usr/bin/env python3
"""Plugin files are untrusted input, end to end on the cpu platform: some 300 corrupted copies
of real plugins (bytes flipped, with a fixed seed, in the ELF header, the program and section
headers, .dynsym and .dynstr, the descriptor's strings, anywhere; other machines; truncations)
each either load under the original's variant name or are refused with a message that says
what is wrong, while `list` and `run` finish with their usual exit status.
Usage: plugin_files_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import platform
import random
import re
import shutil
import struct
import sys
import tempfile
import unittest

import wbtest
from wbtest import BUILD

# Plugins of different shapes: tunables and none, kernel templates (conv/tiled), each family.
ORIGINALS = ["reduce_atomic", "reduce_tree", "reduce_library", "conv_tiled", "converge_advance",
             "branch_slot_multiif", "vgpr_density_serial"]
SEED = 13
LIMIT_S = 240  # a command that takes longer has hung
MACHINES = {"x86_64": "x86-64", "aarch64": "AArch64", "ppc64le": "PowerPC64", "riscv64": "RISC-V"}


wb = wbtest.runner(unset=("WAVEBENCH_PLUGIN_PATH",), timeout=LIMIT_S)

# Under AddressSanitizer (preset asan) the copies are instrumented too, and a flipped byte in their
# table of globals has ASan poison the shadow of gigabytes (a worker reached 22 GB and a `list` took
# 96 s, 93 of them in the kernel): the commands that load copies run without ASan's checks of
# globals (report_globals=0; heap, stack and UBSan as before). They took 1.3 s then.
MUTANT_ENV = {"ASAN_OPTIONS": os.environ["ASAN_OPTIONS"] + ":report_globals=0"} if "ASAN_OPTIONS" in os.environ else {}


class Elf:
    """Where the interesting parts of a (well-formed, 64-bit little-endian) plugin are."""

    def __init__(self, data):
        self.data = data
        phoff, shoff = struct.unpack_from("<QQ", data, 0x20)
        phentsize, phnum, shentsize, shnum, shstrndx = struct.unpack_from("<HHHHH", data, 0x36)
        self.phdrs = (phoff, phoff + phnum * phentsize)
        self.shdrs = (shoff, shoff + shnum * shentsize)
        sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
        names_at = sections[shstrndx][4]
        self.sections = {}
        for s in sections:
            name = data[names_at + s[0]:data.index(b"\0", names_at + s[0])].decode()
            self.sections[name] = (s[4], s[4] + s[5])


def occurrences(data, text, within):
    """Where `text` (with its NUL) is in data[within]; a string may be the tail of a longer one."""
    start, end = within
    needle, found, at = text.encode() + b"\0", [], start
    while (at := data.find(needle, at, end)) >= 0:
        found.append((at, at + len(needle)))
        at += 1
    return found


def c_string(data, at):
    end = data.find(b"\0", at)
    return data[at:end if end >= 0 else len(data)]


class Mutant:
    def __init__(self, name, original, data, touched=()):
        self.name, self.original, self.data = name, original, data
        self.touched = touched  # byte offsets changed


def make_mutants(originals, elfs, declared):
    """About 300 corrupted copies, the same ones every run."""
    rng = random.Random(SEED)
    mutants = []

    def flip(kind, orig, region, count=1):
        data = bytearray(originals[orig])
        touched = []
        for _ in range(count):
            at = rng.randrange(*region)
            data[at] ^= rng.randrange(1, 256)
            touched.append(at)
        mutants.append(Mutant(f"{len(mutants):03d}_{kind}_{orig}.so", orig, bytes(data), touched))

    kinds = ["header", "phdrs", "shdrs", "dynsym", "dynstr", "strings", "anywhere"]
    for i in range(260):
        orig = ORIGINALS[i % len(ORIGINALS)]
        data, elf, d = originals[orig], elfs[orig], declared[orig]
        kind = kinds[i // len(ORIGINALS) % len(kinds)]
        if kind == "header":
            flip(kind, orig, (0, 64))
        elif kind == "phdrs":
            flip(kind, orig, elf.phdrs)
        elif kind == "shdrs":
            flip(kind, orig, elf.shdrs, rng.choice([1, 2]))
        elif kind in ("dynsym", "dynstr"):
            flip(kind, orig, elf.sections["." + kind], rng.choice([1, 3]))
        elif kind == "strings":  # the descriptor's strings, their NUL included
            texts = [d["variant"], d["family"], "cpu", d["summary"], d["seed"]] + d["kernels"]
            texts += [t["name"] for t in d["tunables"]] + [t["help"] for t in d["tunables"]]
            spots = [o for t in texts if t for o in occurrences(data, t, elf.sections[".rodata"])]
            flip(kind, orig, rng.choice(spots))
        else:
            flip(kind, orig, (0, len(data)), rng.choice([1, 4, 16]))
    # Other machines, classes, types, and files cut short at the places that matter.
    for orig in ORIGINALS[:3]:
        data, elf = originals[orig], elfs[orig]
        for kind, patch in [("aarch64", (18, struct.pack("<H", 183))), ("arm", (18, struct.pack("<H", 40))),
                            ("amdgpu", (18, struct.pack("<H", 224))), ("class32", (4, b"\1")),
                            ("bigendian", (5, b"\2\1\0" + data[8:18] + struct.pack(">H", 62))),
                            ("exec", (16, struct.pack("<H", 2)))]:
            at, b = patch
            mutants.append(Mutant(f"{len(mutants):03d}_{kind}_{orig}.so", orig, data[:at] + b + data[at + len(b):],
                                  range(at, at + len(b))))
        dynsym = elf.sections[".dynsym"]
        for cut in [0, 3, 17, 63, elf.phdrs[1] - 1, dynsym[0] + 10, elf.shdrs[0] + 100, len(data) - 1]:
            mutants.append(Mutant(f"{len(mutants):03d}_cut{cut}_{orig}.so", orig, data[:cut], range(cut, len(data))))
    return mutants


def outcome(doc, path):
    """("loaded", variant) or ("refused", reason) of the file at `path`, from `list --json`."""
    for p in doc["plugins"]:
        if p["path"] == path:
            return "loaded", p["variant"]
    for r in doc["rejected"]:
        if r["path"] == path:
            # Loaded, and refused only for being a second one of that name.
            second = re.match(r"is a second \w+/(\S+) \(already loaded from ", r["reason"])
            return ("loaded", second.group(1)) if second else ("refused", r["reason"])
    return None, None


def names_it_may_load_under(mutant, original, variant):
    """The original's variant name, or what a flip made of it where the flip is in its bytes."""
    names = {variant}
    for start, end in occurrences(original, variant, (0, len(original))):
        if any(start <= t < end for t in mutant.touched):
            names.add(c_string(mutant.data, start)[:200].decode("latin-1"))
    return names


class PluginFiles(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="wavebench-plugin-files-")
        # Plugins find libwavebench_hip_cpu.so at $ORIGIN/../../lib: DIR/plugins/cpu and DIR/lib.
        cls.plugins = os.path.join(cls.tmp, "plugins")
        cls.dir = os.path.join(cls.plugins, "cpu")
        os.makedirs(cls.dir)
        os.symlink(os.path.join(BUILD, "lib"), os.path.join(cls.tmp, "lib"))
        p = wb("list", "--platform", "cpu", "--json")
        assert p.returncode == 0, p.stderr
        declared = {os.path.basename(x["path"])[:-3]: x for x in json.loads(p.stdout)["plugins"]}
        originals = {}
        for name in ORIGINALS:
            with open(os.path.join(BUILD, "plugins", "cpu", name + ".so"), "rb") as f:
                originals[name] = f.read()
        elfs = {name: Elf(data) for name, data in originals.items()}
        cls.originals, cls.declared = originals, declared
        cls.mutants = make_mutants(originals, elfs, declared)
        for m in cls.mutants:
            with open(os.path.join(cls.dir, m.name), "wb") as f:
                f.write(m.data)
        # First of all (its folder comes first), a plugin that logs each time it is loaded (tests/load-log/).
        cls.load_log = os.path.join(cls.tmp, "loads.log")
        # One `list` over them all: the build's own plugins load first, so a copy that loads is
        # refused as a second one of its name, which names it. stderr is read leniently: it is
        # only shown on a failure, and ld.so's own messages from the children that probe a mutant
        # ("Inconsistency detected by ld.so") share it, so a write of theirs can land inside one
        # of wavebench's multi-byte characters (seen once under ASan: a lone 0x80).
        p = wb("list", "--platform", "cpu", "--plugins", os.path.join(BUILD, "tests", "load-log-plugins"),
               "--plugins", cls.plugins, "--json", errors="backslashreplace",
               env={"WAVEBENCH_TEST_LOAD_LOG": cls.load_log, **MUTANT_ENV})
        cls.list_status, cls.list_stderr = p.returncode, p.stderr
        cls.doc = json.loads(p.stdout) if p.returncode == 0 else None

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_list_finishes_and_accounts_for_every_file(self):
        self.assertEqual(self.list_status, 0, self.list_stderr[-4000:])
        counts = {}
        for m in self.mutants:
            path = os.path.join(self.dir, m.name)
            how, what = outcome(self.doc, path)
            kind = m.name.split("_")[1]
            counts[(kind, how)] = counts.get((kind, how), 0) + 1
            with self.subTest(file=m.name):
                self.assertIsNotNone(how, "neither loaded nor refused")
                if how == "loaded":
                    variant = self.declared[m.original]["variant"]
                    self.assertIn(what, names_it_may_load_under(m, self.originals[m.original], variant))
                else:
                    self.assertTrue(what.strip(), "an empty reason")
        print("\noutcomes:", " ".join(f"{k}:{h}={n}" for (k, h), n in sorted(counts.items())), file=sys.stderr)
        # Every variant of the originals is still loaded; the build's own files are each loaded, or
        # set aside only as a second of a name a copy took first (--plugins comes before the build).
        loaded = {p["variant"] for p in self.doc["plugins"]}
        self.assertTrue({self.declared[o]["variant"] for o in ORIGINALS} <= loaded)
        shipped = os.path.join(os.path.abspath(BUILD), "plugins")
        for r in self.doc["rejected"]:
            if r["path"].startswith(shipped):
                self.assertRegex(r["reason"], r"^is a second \w+/\S+ \(already loaded from ")

    def test_a_file_is_loaded_twice_or_so_whatever_crashes_after_it(self):
        # After a file crashes the loading worker, a fresh one goes on after it, and one more loads
        # what is left: the first file is loaded twice, and again for each file that loads alone but
        # crashes beside the others (a corrupt relocation: one here), not once per crash after it.
        self.assertEqual(self.list_status, 0, self.list_stderr[-4000:])
        crashed = [r for r in self.doc["rejected"] if "crashed while being loaded" in r["reason"]]
        self.assertGreaterEqual(len(crashed), 8, "too few crashes to tell")
        self.assertIn("test_load_log", {p["variant"] for p in self.doc["plugins"]})
        with open(self.load_log) as f:
            loads = f.read().splitlines()
        self.assertTrue(1 <= len(loads) <= 4, f"{len(loads)} loads; {len(crashed)} files crashed the loader after it")

    def test_every_reason_is_printable_bounded_and_true(self):
        self.assertEqual(self.list_status, 0, self.list_stderr[-4000:])
        for r in self.doc["rejected"]:
            reason, path = r["reason"], r["path"]
            with self.subTest(file=os.path.basename(path)):
                self.assertTrue(all(" " <= c <= "~" for c in reason), repr(reason))
                self.assertLess(len(reason), 3000)
                # The file is there: dlopen's "No such file or directory" must not be said of it.
                self.assertNotIn(path + ": cannot open shared object file", reason)
                if "No such file or directory" in reason:
                    self.assertIn("a library it needs fails: ", reason)

    def test_another_machine_is_named(self):
        self.assertEqual(self.list_status, 0, self.list_stderr[-4000:])
        here = MACHINES.get(platform.machine(), "")
        expect = {"aarch64": "is an ELF file for AArch64 (e_machine 183), not for this machine (" + here + ")",
                  "arm": "is an ELF file for ARM (32-bit) (e_machine 40)",
                  "amdgpu": "a GPU code object is no plugin", "class32": "is a 32-bit ELF file",
                  "bigendian": "is a big-endian ELF file", "exec": "is an executable (ELF type ET_EXEC)",
                  "cut0": "is empty", "cut3": "is not an ELF file", "cut17": "is truncated", "cut63": "is truncated"}
        seen = set()
        for m in self.mutants:
            kind = m.name.split("_")[1]
            if kind in expect:
                seen.add(kind)
                how, what = outcome(self.doc, os.path.join(self.dir, m.name))
                self.assertEqual(how, "refused", m.name)
                self.assertIn(expect[kind], what, m.name)
        self.assertEqual(seen, set(expect))

    def test_run_finishes_beside_them(self):
        # A corrupted copy that loads takes its original's name (--plugins comes first), and may
        # still crash when run (a flipped byte in a segment it maps): that is a result like any
        # other, reported with its reason. reduce/chunked is not among the originals, so the
        # build's own file runs it and it must verify.
        self.assertEqual(self.list_status, 0, self.list_stderr[-4000:])
        out = os.path.join(self.tmp, "r.json")
        suite = os.path.join(self.tmp, "s.toml")
        with open(suite, "w") as f:
            f.write('[suite]\nname = "plugin-files"\nrepetitions = 2\nwarmup = 0\n\n'
                    '[[benchmark]]\nfamily = "reduce"\nvariants = ["atomic", "tree", "chunked"]\nn = [1000]\n')
        p = wb("run", suite, "--platform", "cpu", "--plugins", self.plugins, "--out", out, env=MUTANT_ENV)
        self.assertIn(p.returncode, (0, 1), p.stdout + p.stderr[-4000:])
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual(sorted(r["variant"] for r in doc["results"]), ["atomic", "chunked", "tree"])
        source = {(x["family"], x["variant"]): x["path"] for x in self.doc["plugins"]}
        for r in doc["results"]:
            with self.subTest(variant=r["variant"]):
                if source[("reduce", r["variant"])].startswith(self.dir) and r["status"] != "verified":
                    self.assertIn(r["status"], ("crashed", "failed", "error", "timeout"))
                    self.assertTrue((r["error"] or "").strip(), "a result that is not verified says why")
                else:
                    self.assertEqual(r["status"], "verified", r["error"])
        all_verified = all(r["status"] == "verified" for r in doc["results"])
        self.assertEqual(p.returncode, 0 if all_verified else 1, p.stdout)
        self.assertGreater(len(doc["plugins_rejected"]), 100)


if __name__ == "__main__":
    wbtest.main()
