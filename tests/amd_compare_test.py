#!/usr/bin/env python3
"""`inspect --compare` (the AMD resource gate) fails on a VGPR increase that one target alone shows:
a baseline of the foreign fixture whose one (target, kernel) row is doctored down, and, with clang 22,
a library built twice for gfx942 and gfx1201 where the second build uses more VGPRs on gfx1201 only.
The regression is named (file, target, kernel, figure), the other target is not, exit status 1; a
baseline of the same build passes. Usage: amd_compare_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import shutil
import subprocess
import unittest

import wbtest
from wbtest import BUILD

FOREIGN = os.path.join(BUILD, "tests", "plugins", "foreign", "saxpy_kernels.so")
CLANG = shutil.which("clang++-22")
SOURCE = """struct dim3 { unsigned x = 1, y = 1, z = 1; };
typedef struct ihipStream_t* hipStream_t;
extern "C" int hipLaunchKernel(const void*, dim3, dim3, void**, __SIZE_TYPE__, hipStream_t);
extern "C" int __hipPopCallConfiguration(dim3*, dim3*, __SIZE_TYPE__*, hipStream_t*);
extern "C" __attribute__((global)) void scale(float* p) {
#if defined(__gfx1201__) && PLANTED
  asm volatile("" ::: "v63");  // the regression, on one target
#endif
  p[__builtin_amdgcn_workitem_id_x()] *= 2.0f;
}
"""


class CompareGate(unittest.TestCase):
    def setUp(self):
        self.dir = wbtest.tempdir()

    def baseline(self, so):
        path = os.path.join(self.dir, "baseline.json")
        p = wbtest.wb("inspect", so, "--write-baseline", path)
        self.assertEqual(p.returncode, 0, p.stderr)
        return path

    def assert_only_regression(self, so, baseline, target, kernel):
        p = wbtest.wb("inspect", so, "--compare", baseline)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        rows = [line.split() for line in p.stderr.split("resource regressions", 1)[1].split("improvements")[0]
                .splitlines() if line.startswith("  ") and not line.startswith("  file")]
        self.assertTrue(rows, p.stderr)
        self.assertEqual({(r[1], r[2], r[3]) for r in rows}, {(target, kernel, "vgprs")}, p.stderr)
        self.assertIn("1 regression(s)", p.stderr)

    def test_a_doctored_row_of_one_target_fails_the_gate(self):
        if not os.path.exists(FOREIGN):
            self.skipTest("the foreign fixture is not built here")
        path = self.baseline(FOREIGN)
        self.assertEqual(wbtest.wb("inspect", FOREIGN, "--compare", path).returncode, 0)
        b = wbtest.load(path)
        targets = sorted({k["target"] for k in b["kernels"]})
        row = max((k for k in b["kernels"] if k["target"] == targets[-1]), key=lambda k: k["vgprs"])
        row["vgprs"] -= 1  # the build now shows one more than the baseline, on this target alone
        wbtest.write(path, json.dumps(b))
        self.assert_only_regression(FOREIGN, path, row["target"], row["kernel"])

    @unittest.skipUnless(CLANG, "no clang++-22 on PATH")
    def test_a_planted_increase_on_one_new_target_fails_the_gate(self):
        src = wbtest.write(os.path.join(self.dir, "scale.hip"), SOURCE)
        built = []
        for planted in (0, 1):
            so = os.path.join(self.dir, f"scale{planted}.so")
            subprocess.run([CLANG, "-x", "hip", "--offload-arch=gfx942", "--offload-arch=gfx1201", "-nogpulib",
                            "-nogpuinc", "-O3", "-fPIC", "-shared", f"-DPLANTED={planted}", src, "-o", so],
                           check=True, timeout=300)
            built.append(so)
        baseline = self.baseline(built[0])
        os.replace(built[1], built[0])  # the same file name, rebuilt
        self.assert_only_regression(built[0], baseline, "gfx1201", "scale")


if __name__ == "__main__":
    wbtest.main()
