#!/usr/bin/env python3
"""`wavebench inspect` on hostile input: copies of real hipcc-built files with one thing changed
(a bundle entry's name, its count, a code object's e_flags, a metadata value, a kernel name) must
give an error naming the bundle entry and the field, still report the other entries, run nothing
and exit 2; devices, FIFOs, bad baselines and outputs over inputs are refused. Then a few hundred
random mutations of a real .hip_fatbin: each must be an error, or give the original's figures.
Usage: amd_hostile_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

import wbtest
from wbtest import BUILD, WB

SAXPY = os.path.join(BUILD, "tests", "plugins", "foreign", "saxpy_kernels.so")  # gfx1030, gfx908, gfx90a and gfx94x
# The entry whose code goes to llvm-objdump for --isa (Debian's comgr does not know it): gfx940 of the
# hipcc 5.2 build, gfx942 or gfx950 of newer compilers'.
OBJDUMPED = ("gfx940", "gfx942", "gfx950")
MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"


# ---- reading what the reader reads, to change it ---------------------------------------------------

def sections(elf, base=0):
    """{name: (file offset, size, address)} of the ELF file at elf[base:]."""
    shoff, = struct.unpack_from("<Q", elf, base + 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, base + 0x3a)
    headers = [struct.unpack_from("<IIQQQQIIQQ", elf, base + shoff + i * shentsize) for i in range(shnum)]
    names = base + headers[shstrndx][4]
    out = {}
    for h in headers:
        name = elf[names + h[0]:elf.index(b"\0", names + h[0])].decode()
        out[name] = (base + h[4], h[5], h[3])
    return out


class Entry:
    """A bundle entry: where its record is in the index, its code object and its ID."""

    def __init__(self, record, offset, size, id):
        self.record, self.offset, self.size, self.id = record, offset, size, id


def bundle(data):
    """(file offset of the .hip_fatbin's first bundle, its entries)."""
    base = sections(data)[".hip_fatbin"][0]
    assert data[base:base + len(MAGIC)] == MAGIC
    count, = struct.unpack_from("<Q", data, base + 24)
    at, entries = base + 32, []
    for _ in range(count):
        offset, size, id_size = struct.unpack_from("<QQQ", data, at)
        entries.append(Entry(at, base + offset, size, data[at + 24:at + 24 + id_size].decode()))
        at += 24 + id_size
    return base, entries


def device(entries, target):
    return next(e for e in entries if e.id.endswith("--" + target))


def with_index(data, base, ids):
    """`data` with the bundle index at `base` rewritten with new IDs (offsets and sizes kept)."""
    data = bytearray(data)
    count, = struct.unpack_from("<Q", data, base + 24)
    at, old = base + 32, []
    for _ in range(count):
        offset, size, id_size = struct.unpack_from("<QQQ", data, at)
        old.append((offset, size))
        at += 24 + id_size
    index = MAGIC + struct.pack("<Q", len(ids))
    for (offset, size), id in zip(old, ids):
        index += struct.pack("<QQQ", offset, size, len(id)) + id
    end = max(at, base + len(index))
    assert base + len(index) <= base + min(o for o, s in old if s), "the new index would overlap a code object"
    data[base:end] = index.ljust(end - base, b"\0")
    return bytes(data)


def unpack(b, i):
    """One msgpack value at b[i:]: (value, end). A map's values are (value, start, end) triples, so
    that a test can change one in place."""
    t = b[i]
    if t <= 0x7f or t >= 0xe0:
        return (t if t <= 0x7f else t - 256), i + 1
    if t in (0xc0, 0xc2, 0xc3):
        return {0xc0: None, 0xc2: False, 0xc3: True}[t], i + 1
    sized = {0xcc: ">B", 0xcd: ">H", 0xce: ">I", 0xcf: ">Q", 0xd0: ">b", 0xd1: ">h", 0xd2: ">i", 0xd3: ">q",
             0xca: ">f", 0xcb: ">d"}
    if t in sized:
        return struct.unpack_from(sized[t], b, i + 1)[0], i + 1 + struct.calcsize(sized[t])
    if 0xa0 <= t <= 0xbf or t in (0xd9, 0xda, 0xdb):
        width = 0 if t <= 0xbf else {0xd9: 1, 0xda: 2, 0xdb: 4}[t]
        n = t & 0x1f if t <= 0xbf else int.from_bytes(b[i + 1:i + 1 + width], "big")
        start = i + 1 + width
        return bytes(b[start:start + n]), start + n
    if 0x90 <= t <= 0x9f or t in (0xdc, 0xdd) or 0x80 <= t <= 0x8f or t in (0xde, 0xdf):
        is_map = 0x80 <= t <= 0x8f or t in (0xde, 0xdf)
        width = 0 if t <= 0x9f else (2 if t in (0xdc, 0xde) else 4)
        n = t & 0x0f if t <= 0x9f else int.from_bytes(b[i + 1:i + 1 + width], "big")
        i += 1 + width
        items = {} if is_map else []
        for _ in range(n):
            if is_map:
                k, i = unpack(b, i)
                start = i
                v, i = unpack(b, i)
                items[k.decode()] = (v, start, i)
            else:
                v, i = unpack(b, i)
                items.append(v)
        return items, i
    raise ValueError(f"msgpack type {t:#x}")


def kernels(data, entry):
    """The metadata map of each kernel in a bundle entry's code object, with file offsets."""
    co = entry.offset
    phoff, = struct.unpack_from("<Q", data, co + 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, co + 0x36)
    for i in range(phnum):
        ptype, _, offset, _, _, filesz, _, _ = struct.unpack_from("<IIQQQQQQ", data, co + phoff + i * phentsize)
        at = co + offset
        while ptype == 4 and at + 12 <= co + offset + filesz:
            name_size, desc_size, note = struct.unpack_from("<III", data, at)
            desc = at + 12 + (name_size + 3) // 4 * 4
            if data[at + 12:at + 12 + name_size].rstrip(b"\0") == b"AMDGPU" and note == 32:
                root, _ = unpack(data, desc)
                return root["amdhsa.kernels"][0]
            at = desc + (desc_size + 3) // 4 * 4
    raise AssertionError("no metadata note")


def set_number(data, where, value):
    """`data` with the msgpack number at where=(old, start, end) set to `value`, in the same width."""
    _, start, end = where
    data = bytearray(data)
    if end - start == 1:
        assert 0 <= value <= 0x7f
        data[start] = value
    else:
        data[start + 1:end] = value.to_bytes(end - start - 1, "big")
    return bytes(data)


def patch(data, at, new):
    return data[:at] + new + data[at + len(new):]


# ---- running inspect --------------------------------------------------------------------------------

def inspect(*args, timeout=120):
    p = subprocess.run([WB, "inspect", *args], capture_output=True, timeout=timeout)
    p.out, p.err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    return p


def figures(report):
    """The figures of every kernel in an `inspect --json` report, without the file's name."""
    return [k for f in report["files"] for k in f["kernels"]]


class Hostile(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(SAXPY, "rb") as f:
            cls.original = f.read()
        cls.base, cls.entries = bundle(cls.original)
        cls.dir = tempfile.mkdtemp(prefix="wavebench-hostile-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def write(self, data, name="mutated.so"):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def inspect_json(self, data, *args):
        p = inspect(self.write(data), "--json", *args)
        self.assertNotIn("json.exception", p.out + p.err)
        return p, json.loads(p.out) if p.out.strip() else None

    def assert_entry_error(self, data, lost, entry, field, *args):
        """inspect exits 2 naming `entry` and `field`, and still reports every target but `lost`."""
        p, report = self.inspect_json(data, *args)
        self.assertEqual(p.returncode, 2, p.err)
        self.assertTrue(any(e["entry"] == entry and e["field"] == field for e in report["errors"]),
                        f"no error for entry {entry!r}, field {field!r}: {report['errors']}")
        self.assertIn(field, p.err)
        reported = {k["target"] for k in figures(report)}
        self.assertEqual(reported, {e.id.split("--")[1] for e in self.entries if "--" in e.id} - {lost},
                         "the other entries are still read")
        return p, report

    def test_the_original_passes_every_check(self):
        p, report = self.inspect_json(self.original)
        self.assertEqual(p.returncode, 0, p.err)
        self.assertEqual(report["errors"], [])
        targets = {k["target"] for k in figures(report)}
        self.assertTrue({"gfx1030", "gfx908", "gfx90a"} <= targets and targets & set(OBJDUMPED), targets)

    def test_a_hostile_target_name_runs_nothing(self):
        marker = os.path.join(self.dir, "marker-" + str(os.getpid()))
        target = next(t for t in OBJDUMPED if any(e.id.endswith("--" + t) for e in self.entries))
        i = self.entries.index(device(self.entries, target))  # --isa: its code goes to llvm-objdump
        for hostile in ("{t};touch {m}", "{t}$(touch {m})", "{t}`touch {m}`", "{t} --x;touch {m}"):
            ids = [e.id.encode() for e in self.entries]
            ids[i] = ("hipv4-amdgcn-amd-amdhsa--" + hostile.format(t=target, m=marker)).encode()
            with self.subTest(hostile):
                data = with_index(self.original, self.base, ids)
                self.assert_entry_error(data, target, ids[i].decode(), "entry ID", "--isa")
                self.assertFalse(os.path.exists(marker), "a hostile entry name ran a command")

    def test_a_code_object_for_another_target_than_its_entry_names(self):
        # The gfx1030 entry's code object claims to be gfx90a (e_flags as gfx90a's, xnack and sramecc "any").
        entry = device(self.entries, "gfx1030")
        gfx90a_flags = self.original[device(self.entries, "gfx90a").offset + 0x30:][:4]
        data = patch(self.original, entry.offset + 0x30, gfx90a_flags)
        p, report = self.assert_entry_error(data, "gfx1030", entry.id, "e_flags")
        self.assertIn("gfx90a", next(e["reason"] for e in report["errors"] if e["entry"] == entry.id))
        # A label that names the features otherwise than the code object records.
        ids = [e.id.encode() for e in self.entries]
        i = self.entries.index(device(self.entries, "gfx90a"))
        ids[i] += b":xnack+"
        self.assert_entry_error(with_index(self.original, self.base, ids), "gfx90a", ids[i].decode(), "e_flags")

    def test_an_entry_count_that_is_not_the_index_is_an_error(self):
        at = self.base + 24
        for count in (0, 1, len(self.entries) - 1, len(self.entries) + 1, 2 ** 40):
            with self.subTest(count=count):
                p, report = self.inspect_json(patch(self.original, at, struct.pack("<Q", count)))
                self.assertEqual(p.returncode, 2, p.err)
                self.assertTrue(report["errors"])
                self.assertNotIn("no AMD code objects", p.out + p.err)
        # Only the host entry left, in the table too.
        p = inspect(self.write(patch(self.original, at, struct.pack("<Q", 1))))
        self.assertEqual(p.returncode, 2, p.err)
        self.assertNotIn("no AMD code objects", p.out)

    def test_entries_that_overlap_are_errors(self):
        gfx908, gfx1030 = device(self.entries, "gfx908"), device(self.entries, "gfx1030")
        data = patch(self.original, gfx908.record, struct.pack("<Q", gfx1030.offset - self.base))  # on gfx1030's
        p, report = self.inspect_json(data)
        self.assertEqual(p.returncode, 2, p.err)
        self.assertEqual({e["entry"] for e in report["errors"] if e["field"] == "offset"}, {gfx908.id, gfx1030.id})
        data = patch(self.original, gfx908.record, struct.pack("<Q", 0x20))  # on the index
        self.assert_entry_error(data, "gfx908", gfx908.id, "offset")
        # One entry over all the others, which do not overlap one another: each overlaps it.
        last = max(e.offset + e.size for e in self.entries)
        data = patch(self.original, gfx1030.record + 8, struct.pack("<Q", last - gfx1030.offset))
        p, report = self.inspect_json(data)
        self.assertEqual(p.returncode, 2, p.err)
        self.assertEqual({e["entry"] for e in report["errors"] if e["field"] == "offset"},
                         {e.id for e in self.entries if e.size})

    def test_a_bundle_magic_outside_hip_fatbin_is_an_error(self):
        names = sections(self.original)
        # The section name damaged: ".hip_fatbin" -> ".hip_fatbix" in .shstrtab.
        shstrtab = names[".shstrtab"][0]
        at = self.original.index(b".hip_fatbin\0", shstrtab)
        p = inspect(self.write(patch(self.original, at, b".hip_fatbix")))
        self.assertEqual(p.returncode, 2, p.err)
        self.assertIn(".hip_fatbin", p.err)
        self.assertNotIn("no AMD code objects", p.out)
        # A host .so with no device code still has nothing to report, and that is no error.
        p = inspect(os.path.join(BUILD, "bin", "wavebench"))
        self.assertEqual(p.returncode, 0, p.err)
        self.assertIn("no AMD code objects", p.out)

    def test_metadata_that_its_kernel_descriptor_contradicts_is_an_error(self):
        entry = device(self.entries, "gfx90a")
        transpose = next(k for k in kernels(self.original, entry) if b"transpose" in k[".name"][0])
        for field, value in ((".group_segment_fixed_size", transpose[".group_segment_fixed_size"][0] - 4),
                             (".private_segment_fixed_size", 16),
                             (".kernarg_segment_size", transpose[".kernarg_segment_size"][0] + 8),
                             (".vgpr_count", transpose[".vgpr_count"][0] + 8),
                             (".sgpr_count", transpose[".sgpr_count"][0] + 8),
                             (".wavefront_size", 32)):
            with self.subTest(field):
                self.assert_entry_error(set_number(self.original, transpose[field], value), "gfx90a", entry.id, field)

    def test_a_missing_field_is_an_error_naming_it(self):
        entry = device(self.entries, "gfx908")
        k = kernels(self.original, entry)[0]
        for field in (".sgpr_count", ".group_segment_fixed_size", ".max_flat_workgroup_size", ".wavefront_size"):
            with self.subTest(field):
                key = k[field][1] - len(field)  # the key's bytes end where its value starts
                self.assertEqual(self.original[key:key + len(field)], field.encode())
                data = patch(self.original, key + len(field) - 1, b"X")  # ".sgpr_counX": no .sgpr_count
                p, _ = self.assert_entry_error(data, "gfx908", entry.id, field)
                self.assertIn("has no " + field, p.err)

    def test_a_kernel_name_that_is_not_printable_is_an_error(self):
        entry = device(self.entries, "gfx1030")
        k = kernels(self.original, entry)[0]
        name, start, end = k[".name"]
        for bad in (b"\xff", b"\x1b", b"\x00", b"\xc3"):
            with self.subTest(bad=bad):
                data = patch(self.original, end - 2, bad)
                p, _ = self.assert_entry_error(data, "gfx1030", entry.id, ".name")
                self.assertNotIn("\x1b", p.out + p.err)
                for args in ((), ("--isa",)):  # the table too
                    p = inspect(self.write(data), *args)
                    self.assertEqual(p.returncode, 2, p.err)
                    self.assertNotIn("json.exception", p.out + p.err)

    def test_devices_and_fifos_are_refused_at_once(self):
        p = inspect("/dev/zero", timeout=20)
        self.assertEqual(p.returncode, 2, p.err)
        self.assertIn("character device", p.err)
        fifo = os.path.join(self.dir, "fifo.so")
        os.mkfifo(fifo)
        p = inspect(fifo, timeout=20)
        self.assertEqual(p.returncode, 2, p.err)
        self.assertIn("FIFO", p.err)

    def test_a_malformed_baseline_is_named(self):
        so = self.write(self.original, "saxpy.so")
        for text, says in (('{"kernels": [', "is not valid JSON: at line 1, column 14"),
                           ('{"kernels": [{"file": 1}]}', 'is not a resource baseline: kernel 0 has no string "file"'),
                           ('[]', "is not a resource baseline")):
            baseline = self.write(text.encode(), "baseline.json")
            with self.subTest(text):
                p = inspect(so, "--compare", baseline)
                self.assertEqual(p.returncode, 2, p.err)
                self.assertIn(f"the baseline '{baseline}' {says}", p.err)
                self.assertNotIn("json.exception", p.err)

    def test_write_baseline_never_overwrites_an_input(self):
        so = self.write(self.original, "input.so")
        baseline = os.path.join(self.dir, "b.json")
        p = inspect(so, "--write-baseline", baseline)
        self.assertEqual(p.returncode, 0, p.err)
        with open(baseline, "rb") as f:
            written = f.read()
        for args in ((so, "--write-baseline", so), (so, "--compare", baseline, "--write-baseline", baseline)):
            with self.subTest(args[1:]):
                p = inspect(*args)
                self.assertEqual(p.returncode, 2, p.err)
                self.assertIn("--write-baseline", p.err)
                self.assertIn("input", p.err)
                with open(so, "rb") as f:
                    self.assertEqual(f.read(), self.original)
                with open(baseline, "rb") as f:
                    self.assertEqual(f.read(), written)

    def test_compressed_bundles_are_read_or_refused_saying_why(self):
        """clang --offload-compress's format (CCOB, versions 2 and 3 here, zlib): the same figures as
        the bundle; a header that lies, another version or method, or a damaged stream: an error on
        "bundle" saying what, exit 2. (zstd, clang's own choice: tests/amd_occupancy_test.py.)"""
        start, size, _ = sections(self.original)[".hip_fatbin"]
        plain = self.original[start:start + size]
        _, want = self.inspect_json(plain)

        def ccob(version=3, method=0, total=None, size=len(plain), payload=zlib.compress(plain)):
            header = 32 if version == 3 else 24
            total = header + len(payload) if total is None else total
            sizes = struct.pack("<QQ" if version == 3 else "<II", total, size)
            return b"CCOB" + struct.pack("<HH", version, method) + sizes + b"\x01" * 8 + payload

        for version in (2, 3):
            with self.subTest(version=version):
                p, report = self.inspect_json(ccob(version))
                self.assertEqual(p.returncode, 0, p.err)
                self.assertEqual(figures(report), figures(want))
        for data, says in ((ccob(version=9), "format version 9"), (ccob(method=7), "method 7"),
                           (ccob(size=1 << 40), "claims to hold"), (ccob(total=1 << 20), "claims 1048576 bytes"),
                           (ccob(size=len(plain) + 1), "does not decompress (zlib)"),
                           (ccob(payload=zlib.compress(plain)[:-9] + b"\xff" * 9), "does not decompress"),
                           (ccob()[:20], "cut short")):
            with self.subTest(says):
                p, report = self.inspect_json(data)
                self.assertEqual(p.returncode, 2, p.err)
                self.assertEqual([e["field"] for e in report["errors"]], ["bundle"])
                self.assertIn(says, report["errors"][0]["reason"])

    def test_random_mutations_are_errors_or_change_nothing(self):
        """Each of 300 mutations of the .hip_fatbin (fixed seed) exits non-zero or reports the
        original's figures. Left out: the bytes of the metadata values no second source records
        (the spill counts, .max_flat_workgroup_size, and gfx908's .agpr_count: its kernel
        descriptor has no field for it) or records only to a granule (.vgpr_count and .sgpr_count
        in compute_pgm_rsrc1): a change there is undetectable in principle."""
        _, report = self.inspect_json(self.original)
        want = figures(report)
        start, size, _ = sections(self.original)[".hip_fatbin"]
        unverifiable = [".vgpr_count", ".sgpr_count", ".vgpr_spill_count", ".sgpr_spill_count",
                        ".max_flat_workgroup_size"]
        excluded = set()
        for entry in self.entries:
            if entry.size:
                for k in kernels(self.original, entry):
                    for field in unverifiable + ([".agpr_count"] if entry.id.endswith("--gfx908") else []):
                        excluded.update(range(k[field][1], k[field][2]))
        rng = random.Random(13)
        silent, crashed, detected, same = [], [], 0, 0
        for n in range(300):
            while True:
                kind = rng.choice(["bit", "byte", "run", "add"])
                at = rng.randrange(start, start + size - 8)
                data = bytearray(self.original)
                if kind == "bit":
                    data[at] ^= 1 << rng.randrange(8)
                elif kind == "byte":
                    data[at] = rng.randrange(256)
                elif kind == "run":
                    for i in range(rng.randrange(2, 9)):
                        data[at + i] = rng.randrange(256)
                else:  # a little-endian u32 plus or minus a little: an offset, a size or a count
                    v, = struct.unpack_from("<I", data, at)
                    struct.pack_into("<I", data, at, (v + rng.choice([-64, -8, -4, -1, 1, 4, 8, 64])) % 2 ** 32)
                changed = {i for i in range(at, at + 8) if data[i] != self.original[i]}
                if changed and not changed & excluded:
                    break
            what = f"mutation {n}: {kind} at {at - start:#x} of .hip_fatbin"
            p = inspect(self.write(bytes(data)), "--json", timeout=60)
            if p.returncode < 0:
                crashed.append(f"{what}: signal {-p.returncode}")
            elif "json.exception" in p.out + p.err:
                silent.append(f"{what}: a json library message")
            elif p.returncode != 0:
                detected += 1
            elif figures(json.loads(p.out)) != want:
                silent.append(what)
            else:
                same += 1
        print(f"\n{detected} mutations detected, {same} changed no figure, {len(silent)} silently wrong, "
              f"{len(crashed)} crashed", file=sys.stderr)
        self.assertEqual(crashed, [])
        self.assertEqual(silent, [])


if __name__ == "__main__":
    wbtest.main()
