#!/usr/bin/env python3
"""The oracle of `wavebench inspect`: every plugin kernel on every target of build/plugins/amd read a
second time, independently, by LLVM's own tools of the compiler's LLVM version (llvm-objcopy takes
the .hip_fatbin section out, clang-offload-bundler lists and unbundles its code objects, llvm-readobj
--notes prints their AMDGPU metadata), and compared figure by figure with `inspect --json`: VGPRs,
AGPRs, SGPRs, static LDS, scratch, spills, wave size (and WGP mode where the metadata records it).
Every target the build was asked for must be there, unless <plugin>.so.omitted names it.
tests/amd_occupancy_test.py checks the compiler's own remarks and occupancy on foreign kernels.
Usage: amd_crosscheck_test.py BUILD_DIR SOURCE_DIR LLVM_TOOL_FOLDER TARGET...
Skipped (77) when the folder lacks the tools."""
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import unittest

import wbtest
from wbtest import BUILD

TOOLS, TARGETS = (wbtest.ARGS[0] if wbtest.ARGS else ""), wbtest.ARGS[1:]
OBJCOPY, BUNDLER, READOBJ = (os.path.join(TOOLS, t) for t in ("llvm-objcopy", "clang-offload-bundler", "llvm-readobj"))
PLUGINS = os.path.join(BUILD, "plugins", "amd")
DEVICE = "hipv4-amdgcn-amd-amdhsa--"
# The metadata's key -> inspect's figure.
FIGURES = {".vgpr_count": "vgprs", ".agpr_count": "agprs", ".sgpr_count": "sgprs",
           ".group_segment_fixed_size": "static_lds_bytes", ".private_segment_fixed_size": "scratch_bytes",
           ".vgpr_spill_count": "vgpr_spills", ".sgpr_spill_count": "sgpr_spills", ".wavefront_size": "wavefront_size"}


def run(*cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{p.stderr[-2000:]}")
    return p.stdout


def notes(text):
    """{code object file: [{key: value}]}: each kernel of amdhsa.kernels in llvm-readobj --notes."""
    out, current, kernels = {}, None, None
    for line in text.splitlines():
        if line.startswith("File: "):
            kernels = out.setdefault(line[6:].strip(), [])
        elif line.startswith("amdhsa.") and not line.startswith("amdhsa.kernels"):
            current = None  # the kernel list ended
        elif m := re.match(r"^  - (\.[a-z_]+):\s*(.*)$", line):  # a kernel starts, with its first key
            current = {}
            kernels.append(current)
            current[m.group(1)] = m.group(2).strip()
        elif current is not None and (m := re.match(r"^    (\.[a-z_]+):\s*(.*)$", line)):
            current[m.group(1)] = m.group(2).strip()
    return out


def read_with_llvm(so, tmp):
    """{(target, kernel name): metadata} of one .so, by LLVM's tools alone."""
    base = os.path.join(tmp, os.path.basename(so))
    run(OBJCOPY, f"--dump-section=.hip_fatbin={base}.fatbin", so, f"{base}.copy")
    ids = [i for i in run(BUNDLER, "--list", "--type=o", f"--input={base}.fatbin").split() if i.startswith(DEVICE)]
    if not ids:
        return {}
    outputs = [f"{base}.{i[len(DEVICE):].replace(':', '_')}.co" for i in ids]
    run(BUNDLER, "--unbundle", "--type=o", f"--input={base}.fatbin", "--targets=" + ",".join(ids),
        *[f"--output={o}" for o in outputs])
    by_file = notes(run(READOBJ, "--notes", *outputs))
    found = {}
    for i, o in zip(ids, outputs):
        for k in by_file[o]:
            found[(i[len(DEVICE):], k[".name"])] = k
    return found


def omitted(so):
    """The targets <so>.omitted says the build left out."""
    try:
        with open(so + ".omitted") as f:
            return {line.split("\t")[0] for line in f if line.strip()}
    except FileNotFoundError:
        return set()


class Oracle(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.files = sorted(glob.glob(os.path.join(PLUGINS, "*.so")))
        assert cls.files, f"no amd plugins in {PLUGINS}"
        tmp = wbtest.tempdir()
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            llvm = pool.map(lambda so: read_with_llvm(so, tmp), cls.files)
            p = wbtest.wb("inspect", *cls.files, "--json", unset=("WAVEBENCH_PLUGIN_PATH",))
            cls.llvm = dict(zip(cls.files, llvm))
        assert p.returncode == 0, p.stderr
        cls.inspected = {}
        for f in json.loads(p.stdout)["files"]:
            cls.inspected[f["file"]] = {(k["target"], k["symbol"]): k for k in f["kernels"]}

    def test_every_target_asked_for_is_built_or_omitted_with_a_reason(self):
        wrong = []
        for so in self.files:
            built = {t for t, _ in self.llvm[so]}
            want = set(TARGETS) - omitted(so)
            if built != want:
                wrong.append(f"{os.path.basename(so)}: LLVM finds {sorted(built)}, the build asked for {sorted(want)}")
        self.assertEqual(wrong, [])

    def test_inspect_reads_every_kernel_as_llvm_does(self):
        wrong, checked = [], 0
        for so in self.files:
            name, llvm, mine = os.path.basename(so), self.llvm[so], self.inspected.get(so, {})
            if set(llvm) != set(mine):
                wrong.append(f"{name}: kernels differ: LLVM {sorted(set(llvm) - set(mine))}, "
                             f"inspect {sorted(set(mine) - set(llvm))}")
                continue
            for key, meta in llvm.items():
                k = mine[key]
                checked += 1
                for field, figure in FIGURES.items():
                    want = int(meta.get(field, "0"))  # no .agpr_count on targets without AGPRs
                    if k[figure] != want:
                        wrong.append(f"{name} {key[0]} {key[1]}: {figure} is {k[figure]} in inspect, {field} {want}")
                if ".workgroup_processor_mode" in meta and k["wgp_mode"] != (meta[".workgroup_processor_mode"] == "1"):
                    wrong.append(f"{name} {key[0]} {key[1]}: wgp_mode is {k['wgp_mode']} in inspect, "
                                 f".workgroup_processor_mode {meta['.workgroup_processor_mode']}")
        print(f"{checked} (kernel, target) pairs of {len(self.files)} plugins read by {TOOLS} and by inspect")
        self.assertEqual(wrong, [])
        self.assertGreater(checked, len(self.files))


if __name__ == "__main__":
    missing = [t for t in (OBJCOPY, BUNDLER, READOBJ) if not os.access(t, os.X_OK)]
    if not TOOLS or missing:
        print(f"skipped: the compiler's LLVM tools are not there ({', '.join(missing) or 'no folder given'}): "
              "Debian: apt-get install llvm-<N> clang-tools-<N> for the compiler's clang <N>")
        sys.exit(77)
    wbtest.main()
