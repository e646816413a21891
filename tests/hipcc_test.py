#!/usr/bin/env python3
"""wavebench-hipcc (core/platforms/cpu/wavebench-hipcc.in) as a build uses it: an output that is a
source refused (the compiler only sees the rewritten copy and would overwrite the source), a source
that is not a regular file refused before anything is done, dependency files that name the source
(not its deleted copy) so that make's second run works, launches the rewrite once broke (after
`case 1:`, kernels named with universal character names) compiled and run, what GPU compilers take
(launches and `extern __shared__` in headers and macros, a template-id with commas in
hipLaunchKernelGGL, `static __shared__`) under C++14, 17 and 20, errors in a header named there, and
a device assert failing its launch. Usage:
hipcc_test.py BUILD_DIR SOURCE_DIR PATH_TO_wavebench-hipcc

Also what hipcc's own command lines bring: its options for GPU code alone ignored with a note,
`-x hip` on a `.c` file, ROCm's runtime library (-lamdhip64) dropped, hip/hip_runtime.h included in
every source without its own #include, type-punned stores kept (-fno-strict-aliasing), and checked
mode stopping at a shared-memory overrun with the line of the access."""
import os
import shutil
import subprocess
import unittest

import wbtest

HIPCC = os.path.abspath(wbtest.ARGS[0])
# In the asan preset's build the runtime is sanitized: programs linked with it are built so too.
SANITIZE = ["-fsanitize=address,undefined"] if wbtest.sanitized() else []
# The test programs leave their device memory to the exit, as HIP programs do.
RUN_ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=0") if SANITIZE else None
# A checked program runs with the checked mode's own defaults (ASAN_OPTIONS of the asan preset would
# turn leak reports on, which that mode leaves off; its UBSAN_OPTIONS would stop at the first report,
# before the checker's own).
CHECKED_ENV = {k: v for k, v in os.environ.items() if k not in ("ASAN_OPTIONS", "UBSAN_OPTIONS")}
SOURCE = "#include <hip/hip_runtime.h>\n#include \"h.h\"\n__global__ void k(int* p) { p[threadIdx.x] = V; }\n"
MAIN = ("#include <cstdio>\nint main() {\n    int* d;\n    hipMalloc(&d, 64 * sizeof(int));\n    k<<<1, 64>>>(d);\n"
        "    int h[64];\n    hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost);\n"
        "    std::printf(\"%d\\n\", h[63]);\n}\n")


def hipcc(*args, cwd, timeout=300):
    return subprocess.run([HIPCC, *SANITIZE, *args], capture_output=True, text=True, cwd=cwd, timeout=timeout)


class Hipcc(unittest.TestCase):
    def setUp(self):
        self.dir = wbtest.tempdir()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return wbtest.write(path, text)

    def test_an_output_that_is_a_source_is_refused(self):
        source = self.write("x.hip", SOURCE + MAIN)
        self.write("h.h", "#define V 7\n")
        os.link(source, os.path.join(self.dir, "hard.hip"))
        os.symlink("x.hip", os.path.join(self.dir, "link"))
        named = "is an input of this command: it would be overwritten; name another file"
        same = "is the same file as an input of this command ('x.hip'): it would be overwritten; name another file"
        cases = [(["-o", "x.hip"], "-o 'x.hip' " + named), (["-ox.hip"], "-o 'x.hip' " + named),
                 (["--output=x.hip"], "-o 'x.hip' " + named), (["--output", "x.hip"], "-o 'x.hip' " + named),
                 (["-o", "./x.hip"], "-o './x.hip' " + same), (["-o", "hard.hip"], "-o 'hard.hip' " + same),
                 (["-o", "link"], "-o 'link' " + same),
                 (["-c", "-o", "x.o", "-MD", "-MF", "x.hip"], "-MF 'x.hip' " + named),
                 (["-c", "-MFx.hip"], "-MF 'x.hip' " + named), (["-c", "-Wp,-MD,x.hip"], "-Wp,-MD 'x.hip' " + named),
                 (["-E", "-o", "x.hip"], "-o 'x.hip' " + named)]
        for args, message in cases:
            with self.subTest(args):
                p = hipcc("x.hip", *args, cwd=self.dir)
                self.assertEqual((p.returncode, p.stdout, p.stderr), (1, "", "wavebench-hipcc: %s\n" % message))
        # The files the compiler names after the source or -o: an object, a dependency file.
        os.symlink("x.hip", os.path.join(self.dir, "x.o"))
        p = hipcc("-c", "x.hip", cwd=self.dir)
        self.assertEqual((p.returncode, p.stderr), (1, "wavebench-hipcc: the output 'x.o' " + same + "\n"))
        os.remove(os.path.join(self.dir, "x.o"))
        os.symlink("x.hip", os.path.join(self.dir, "out.d"))
        p = hipcc("-c", "x.hip", "-MMD", "-o", "out.o", cwd=self.dir)
        self.assertEqual((p.returncode, p.stderr), (1, "wavebench-hipcc: the output 'out.d' " + same + "\n"))
        with open(source) as f:
            self.assertEqual(f.read(), SOURCE + MAIN)
        self.assertEqual(sorted(os.listdir(self.dir)), ["h.h", "hard.hip", "link", "out.d", "x.hip"])

    def test_a_source_that_is_not_a_regular_file_is_refused(self):
        os.mkdir(os.path.join(self.dir, "dir.hip"))
        os.mkfifo(os.path.join(self.dir, "fifo.cu"))
        self.write("ok.hip", SOURCE)
        for name in ["dir.hip", "fifo.cu"]:
            with self.subTest(name):
                p = hipcc("ok.hip", name, "-o", "prog", cwd=self.dir, timeout=30)
                self.assertEqual((p.returncode, p.stderr), (1, "wavebench-hipcc: '%s' is not a regular file (a "
                                                               "directory, a device or a FIFO); name a source "
                                                               "file\n" % name))
        p = hipcc("missing\x1b.hip", cwd=self.dir)
        self.assertEqual((p.returncode, p.stderr), (1, "wavebench-hipcc: 'missing\\x1b.hip': no such file\n"))
        self.assertEqual(sorted(os.listdir(self.dir)), ["dir.hip", "fifo.cu", "ok.hip"])

    def test_dependency_files_name_the_source(self):
        if not shutil.which("make"):
            self.skipTest("make is not installed")
        source = self.write("src dir/x.hip", SOURCE + MAIN)
        header = self.write("src dir/h.h", "#define V 7\n")
        # x.o's only prerequisites are those x.d names: the second make reads them.
        cc = "'%s' %s" % (HIPCC, " ".join(SANITIZE))
        self.write("Makefile", "prog: x.o\n\t%s x.o -o prog\nx.o:\n\t%s -MMD -MP -c 'src dir/x.hip' -o x.o\n"
                               "-include x.d\n" % (cc, cc))

        def make():
            p = subprocess.run(["make"], capture_output=True, text=True, cwd=self.dir, timeout=300)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            return p.stdout

        def run():
            return subprocess.run([os.path.join(self.dir, "prog")], capture_output=True, text=True,
                                  env=RUN_ENV).stdout

        self.assertIn("-MMD", make())
        with open(os.path.join(self.dir, "x.d")) as f:
            deps = f.read()
        self.assertTrue(deps.startswith("x.o: src\\ dir/x.hip "), deps)
        self.assertIn("src\\ dir/h.h", deps)
        self.assertNotIn("wavebench-hipcc.", deps)
        self.assertEqual(run(), "7\n")
        self.assertIn("is up to date", make())
        wbtest.write(header, "#define V 8\n")
        self.assertIn("-MMD", make())
        self.assertEqual(run(), "8\n")
        with open(source, "a") as f:
            f.write("// changed\n")
        self.assertIn("-MMD", make())
        self.assertIn("is up to date", make())

    def test_every_way_to_ask_for_dependencies(self):
        self.write("we ird$#.hip", SOURCE)
        self.write("h.h", "#define V 7\n")
        name = "we\\ ird$$\\#.hip"
        for args in [["-MM"], ["-M", "-MF", "-"], ["-MM", "-o", "-"], ["-c", "-MMD", "-MF", "-", "-o", "obj.o"]]:
            with self.subTest(args):  # on standard output
                p = hipcc(*args, "we ird$#.hip", cwd=self.dir)
                self.assertEqual(p.returncode, 0, p.stderr)
                target = "obj.o" if "obj.o" in args else "we\\ ird$$\\#.o"
                self.assertTrue(p.stdout.startswith("%s: %s " % (target, name)), p.stdout)
                self.assertNotIn("wavebench-hipcc.", p.stdout)
        cases = [(["-M", "-o", "deps.txt"], "deps.txt", "we\\ ird$$\\#.o"),  # -M with -o: in that file
                 (["-c", "-MD"], "we ird$#.d", "we\\ ird$$\\#.o"),  # named after the source
                 (["-c", "-MD", "-o", "obj.o"], "obj.d", "obj.o"),  # named after -o
                 (["-c", "-MMD", "-MF", "named.d", "-MT", "t"], "named.d", "t"),
                 (["-c", "-o", "w.o", "-Wp,-MMD,wp.d"], "wp.d", "we\\ ird$$\\#.o")]
        for args, depfile, target in cases:
            with self.subTest(args):
                p = hipcc("we ird$#.hip", *args, cwd=self.dir)
                self.assertEqual(p.returncode, 0, p.stderr)
                with open(os.path.join(self.dir, depfile)) as f:
                    deps = f.read()
                self.assertTrue(deps.startswith("%s: %s " % (target, name)), deps)
                self.assertNotIn("wavebench-hipcc.", deps)

    def test_launches_the_rewrite_once_broke_compile_and_run(self):
        # `case 1:k<<<` became `:::`; a name with a universal character name lost its start; a launch
        # in a `%:define` lost the macro's continuation.
        self.write("odd.hip", "#include <hip/hip_runtime.h>\n#include <cstdio>\n"
                              "__global__ void k(int* p, int v) { p[threadIdx.x] += v; }\n"
                              "__global__ void k\\u00e9rnel(int* p) { p[threadIdx.x] += 100; }\n"
                              "__global__ void \\u00e9k(int* p) { p[threadIdx.x] += 1000; }\n"
                              "__global__ void k\\U0001F600(int* p) { p[threadIdx.x] += 10000; }\n"
                              "%:define TWICE(d, v) k<<<1, \\\n 64>>>(d, v); \\\n k<<<1, 64>>>(d, v)\n"
                              "int main(int argc, char**) {\n"
                              "    int* d;\n    int h[64] = {};\n    hipMalloc(&d, sizeof h);\n"
                              "    hipMemcpy(d, h, sizeof h, hipMemcpyHostToDevice);\n"
                              "    for (int n = 0; n < 3; ++n)\n"
                              "        switch (n) { case 0:k<<<1, 64>>>(d, 1); break; default:k<<<1, 64>>>(d, 2); }\n"
                              "    if (argc > 0) goto lbl;\n"
                              "lbl:k<<<1, 64>>>(d, 4);\n"
                              "    TWICE(d, 16);\n"
                              "    k\\u00e9rnel<<<1, 64>>>(d); \\u00e9k<<<1, 64>>>(d); k\\U0001F600<<<1, 64>>>(d);\n"
                              "    hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost);\n"
                              "    std::printf(\"%d %d\\n\", h[0], h[63]);\n}\n")
        p = hipcc("-Wall", "-Werror", "odd.hip", "-o", "odd", cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        p = subprocess.run([os.path.join(self.dir, "odd")], capture_output=True, text=True, timeout=60, env=RUN_ENV)
        self.assertEqual((p.returncode, p.stdout), (0, "11141 11141\n"))

    def test_a_pair_converted_to_float_and_back_is_rounded(self):
        # g++ 12's straight-line vectorizer turns double2 -> float2 -> double2 into a copy at -O2;
        # wavebench-hipcc turns it off there (the value below needs more than float's 24 bits).
        self.write("round.hip", "#include <hip/hip_runtime.h>\n#include <cstdio>\n"
                                "struct f2 { float x, y; };\nstruct d2 { double x, y; };\n"
                                "__global__ void k(const d2* a, d2* o) {\n"
                                "    d2 v = *a; f2 f{float(v.x), float(v.y)}; *o = d2{f.x, f.y};\n}\n"
                                "int main() {\n    d2 h{-85.24250001234567, 3.000000001}, *a, *o;\n"
                                "    hipMalloc(&a, sizeof h); hipMalloc(&o, sizeof h);\n"
                                "    hipMemcpy(a, &h, sizeof h, hipMemcpyHostToDevice);\n    k<<<1, 1>>>(a, o);\n"
                                "    hipMemcpy(&h, o, sizeof h, hipMemcpyDeviceToHost);\n"
                                "    std::printf(\"%a %a\\n\", h.x, h.y);\n    hipFree(a); hipFree(o);\n}\n")
        for level in ["-O1", "-O2", "-O3"]:
            with self.subTest(level):
                p = hipcc(level, "round.hip", "-o", "round", cwd=self.dir)
                self.assertEqual(p.returncode, 0, p.stderr)
                p = subprocess.run([os.path.join(self.dir, "round")], capture_output=True, text=True, timeout=60,
                                   env=RUN_ENV)
                self.assertEqual((p.returncode, p.stdout), (0, "-0x1.54f852p+6 0x1.8p+1\n"))

    def test_headers_macros_and_language_standards(self):
        self.write("inc/k.h", "#pragma once\n#include <hip/hip_runtime.h>\n"
                              "template <int B, int S> __global__ void rev(const int* in, int* out) {\n"
                              "    extern __shared__ int staged[];\n"
                              "    static __shared__ int scale;\n"
                              "    if (threadIdx.x == 0) scale = S;\n"
                              "    staged[threadIdx.x] = in[threadIdx.x];\n"
                              "    __syncthreads();\n"
                              "    out[threadIdx.x] = staged[B - 1 - threadIdx.x] * scale;\n}\n"
                              "#define REV3(i, o) rev<64, 3><<<1, 64, 64 * sizeof(int)>>>(i, o)\n")
        self.write("m.hip", "#include \"inc/k.h\"\n#include <cstdio>\nint main() {\n"
                            "    int h[64], r[64], *i, *o, bad = 0;\n"
                            "    for (int k = 0; k < 64; ++k) h[k] = k;\n"
                            "    hipMalloc(&i, sizeof h);\n    hipMalloc(&o, sizeof h);\n"
                            "    hipMemcpy(i, h, sizeof h, hipMemcpyHostToDevice);\n"
                            "    hipLaunchKernelGGL(rev<64, 2>, dim3(1), dim3(64), 64 * sizeof(int), 0, i, o);\n"
                            "    hipMemcpy(r, o, sizeof r, hipMemcpyDeviceToHost);\n"
                            "    for (int k = 0; k < 64; ++k) bad += r[k] != 2 * (63 - k);\n"
                            "    REV3(i, o);\n"
                            "    hipMemcpy(r, o, sizeof r, hipMemcpyDeviceToHost);\n"
                            "    for (int k = 0; k < 64; ++k) bad += r[k] != 3 * (63 - k);\n"
                            "    std::printf(\"%ld %s\\n\", long(__cplusplus), bad ? \"FAILED\" : \"PASSED\");\n}\n")
        for std, value in [("c++14", "201402"), ("c++17", "201703"), ("c++20", "202002")]:
            with self.subTest(std):
                p = hipcc("-std=" + std, "-Wall", "-Wextra", "-Werror", "m.hip", "-o", "m", cwd=self.dir)
                self.assertEqual(p.returncode, 0, p.stderr)
                p = subprocess.run([os.path.join(self.dir, "m")], capture_output=True, text=True, timeout=60,
                                   env=RUN_ENV)
                self.assertEqual((p.returncode, p.stdout), (0, value + " PASSED\n"))
        p = hipcc("-E", "m.hip", cwd=self.dir)  # -E: the rewritten text, launches in the header's kernel too
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("__hip_cpu_launch__", p.stdout)
        self.assertNotIn("__hip_cpu_shared__", p.stdout)
        self.assertEqual(p.stdout.count("::hip_cpu_launch_kernel(::hip_cpu_launch_config("), 2)

    def test_an_error_in_a_header_names_the_header(self):
        self.write("bad.h", "// a header\n\nvoid f(int* d) {\n    (1 + <<<1, 1>>>(d);\n}\n")
        self.write("e.hip", "#include <hip/hip_runtime.h>\n#include \"bad.h\"\nint main() {}\n")
        p = hipcc("-c", "e.hip", cwd=self.dir)
        self.assertEqual(p.returncode, 1)
        self.assertTrue(p.stderr.startswith("bad.h:4:10: error: no kernel expression before `<<<`"), p.stderr)
        self.assertNotIn("e.o", os.listdir(self.dir))

    def test_a_device_assert_fails_its_launch_and_the_program_goes_on(self):
        self.write("a.hip", "#include <hip/hip_runtime.h>\n#include <cassert>\n#include <cstdio>\n"
                            "__global__ void k(const int* v) {\n"
                            "    assert(v[blockIdx.x * 64 + threadIdx.x] >= 0);\n}\n"
                            "int main(int argc, char**) {\n"
                            "    int h[256] = {}, *d;\n    h[133] = -1;\n"
                            "    hipMalloc(&d, sizeof h);\n    hipMemcpy(d, h, sizeof h, hipMemcpyHostToDevice);\n"
                            "    k<<<4, 64>>>(d);\n"
                            "    std::printf(\"%s\\n\", hipGetErrorName(hipGetLastError()));\n"
                            "    assert(argc == 1);\n    std::printf(\"after\\n\");\n}\n")
        p = hipcc("a.hip", "-o", "a", cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        prog = os.path.join(self.dir, "a")
        p = subprocess.run([prog], capture_output=True, text=True, timeout=60, env=RUN_ENV)
        self.assertEqual((p.returncode, p.stdout), (0, "hipErrorAssert\nafter\n"))
        self.assertRegex(p.stderr, r"\Aa\.hip:5: void k\(const int\*\): block: \[2,0,0\], thread: \[5,0,0\] "
                                   r"Assertion `v\[blockIdx\.x \* 64 \+ threadIdx\.x\] >= 0` failed\.\n\Z")
        # On the host, assert is the C library's: the message, then abort.
        p = subprocess.run([prog, "x"], capture_output=True, text=True, timeout=60, env=RUN_ENV)
        self.assertEqual(p.returncode, -6, p.stderr)
        self.assertIn("a.hip:14: int main(int, char**): Assertion `argc == 1' failed.", p.stderr)

    def test_checked_mode_pins_a_programs_bugs_to_its_lines(self):
        self.write("bugs.hip", "#include <hip/hip_runtime.h>\n#include <cstdio>\n"
                               "__global__ void scan(const int* in, int* out) {\n"
                               "    __shared__ int s[64];\n"
                               "    s[threadIdx.x] = in[threadIdx.x];\n"
                               "    int v = threadIdx.x > 0 ? s[threadIdx.x - 1] : 0;\n"
                               "    __syncthreads();\n"
                               "    out[threadIdx.x] = v + s[threadIdx.x];\n}\n"
                               "__global__ void half_written(int* out) {\n"
                               "    __shared__ int t[64];\n"
                               "    if (threadIdx.x < 32) t[threadIdx.x] = 1;\n"
                               "    __syncthreads();\n"
                               "    out[threadIdx.x] = t[threadIdx.x];\n}\n"
                               "__global__ void past_the_end(int* out) { out[threadIdx.x + 1] = 1; }\n"
                               "__global__ void past_shared(int* out) {\n"
                               "    extern __shared__ int dyn[];\n    dyn[threadIdx.x] = 1;\n    __syncthreads();\n"
                               "    out[threadIdx.x] = dyn[threadIdx.x + 1];\n}\n"
                               "int main(int argc, char**) {\n"
                               "    int *in, *out;\n    hipMalloc(&in, 64 * 4);\n    hipMalloc(&out, 64 * 4);\n"
                               "    hipMemset(in, 0, 256);\n"
                               "    scan<<<2, 64>>>(in, out);\n    half_written<<<1, 64>>>(out);\n"
                               "    if (argc == 2) past_the_end<<<1, 64>>>(out);\n"
                               "    if (argc == 3) past_shared<<<1, 64, 64 * sizeof(int)>>>(out);\n"
                               "    std::printf(\"done\\n\");\n}\n")
        p = hipcc("--checked", "-O2", "bugs.hip", "-o", "bugs", cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        bugs = os.path.join(self.dir, "bugs")
        p = subprocess.run([bugs], capture_output=True, text=True, timeout=120, env=CHECKED_ENV)
        self.assertEqual((p.returncode, p.stdout), (0, "done\n"), p.stderr)
        self.assertRegex(p.stderr, r"wavebench checked: shared-memory race in block \([01],0,0\): lane 1 reads 0x[0-9a-f]+ "
                                   r"at \S*bugs\.hip:6 in scan\(int const\*, int\*\), which lane 0 wrote at "
                                   r"\S*bugs\.hip:5 in scan\(int const\*, int\*\) with no barrier between\n")
        self.assertRegex(p.stderr, r"wavebench checked: uninitialised shared memory in block \(0,0,0\): lane 32 reads "
                                   r"0x[0-9a-f]+ at \S*bugs\.hip:14 in half_written\(int\*\), which no lane of the "
                                   r"block wrote\n")
        self.assertTrue(p.stderr.endswith("wavebench checked: 2 shared-memory report(s)\n"), p.stderr)
        p = subprocess.run([bugs, "x"], capture_output=True, text=True, timeout=120, env=CHECKED_ENV)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("ERROR: AddressSanitizer: heap-buffer-overflow", p.stderr)
        self.assertRegex(p.stderr, r"WRITE of size 4 .*\n    #0 0x[0-9a-f]+ in past_the_end\(int\*\) \S*bugs\.hip:16")
        # Past the dynamic shared memory the launch asked for (64 ints): poisoned, whatever the buffer holds.
        p = subprocess.run([bugs, "x", "y"], capture_output=True, text=True, timeout=120, env=CHECKED_ENV)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("ERROR: AddressSanitizer: use-after-poison", p.stderr)
        self.assertRegex(p.stderr, r"READ of size 4 .*\n    #0 0x[0-9a-f]+ in past_shared\(int\*\) \S*bugs\.hip:21")

    def test_checked_mode_reports_a_float_cast_beyond_the_integers_range(self):
        # x86 gives INT_MIN where a GPU saturates; the conversion intrinsics saturate as GPUs do.
        self.write("cast.hip", "#include <hip/hip_runtime.h>\n#include <cstdio>\n"
                               "__global__ void k(const float* in, int* out) {\n"
                               "    out[0] = __float2int_rz(in[0]);\n"
                               "    out[1] = (int)in[0];\n}\n"
                               "int main() {\n    float* in;\n    int* out;\n"
                               "    hipMallocManaged(&in, sizeof(float));\n    hipMallocManaged(&out, 2 * sizeof(int));\n"
                               "    in[0] = 3e9f;\n    k<<<1, 1>>>(in, out);\n    hipDeviceSynchronize();\n"
                               "    std::printf(\"%d %d\\n\", out[0], out[1]);\n}\n")
        p = hipcc("--checked", "cast.hip", "-o", "cast", cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        p = subprocess.run([os.path.join(self.dir, "cast")], capture_output=True, text=True, timeout=120, env=CHECKED_ENV)
        self.assertEqual((p.returncode, p.stdout), (0, "2147483647 -2147483648\n"), p.stderr)
        self.assertRegex(p.stderr, r"cast\.hip:5:\d+: runtime error: 3e\+09 is outside the range of representable "
                                   r"values of type 'int'")

    def test_checked_mode_reports_a_collective_without_a_mask_in_divergent_code(self):
        # Portable on AMD, not on NVIDIA since Volta: reported once, at its line; the _sync form and
        # __activemask() in the same branch, and a collective every lane reaches, are not.
        self.write("div.hip", "#include <hip/hip_runtime.h>\n#include <cstdio>\n"
                              "__global__ void k(unsigned long long* out) {\n"
                              "    const int t = threadIdx.x;\n"
                              "    if (t % 2) {\n"
                              "        out[t] = __ballot(1);\n"
                              "        out[t] += __ballot_sync(__activemask(), 1);\n"
                              "    }\n"
                              "    out[64 + t] = __ballot(1);\n}\n"
                              "int main() {\n    unsigned long long* out;\n"
                              "    hipMallocManaged(&out, 128 * sizeof(unsigned long long));\n"
                              "    for (int i = 0; i < 2; ++i) k<<<2, 64>>>(out);\n    hipDeviceSynchronize();\n"
                              "    std::printf(\"%llx %llx\\n\", out[1], out[64]);\n}\n")
        p = hipcc("--checked", "div.hip", "-o", "div", cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        p = subprocess.run([os.path.join(self.dir, "div")], capture_output=True, text=True, timeout=120, env=CHECKED_ENV)
        self.assertEqual((p.returncode, p.stdout), (0, "5555555555555554 ffffffffffffffff\n"), p.stderr)
        warnings = [line for line in p.stderr.splitlines() if "collective without a mask" in line]
        self.assertEqual(len(warnings), 1, p.stderr)
        self.assertRegex(warnings[0], r"div\.hip:6: warning: a collective without a mask in divergent code: 32 of the "
                                      r"wavefront's 64 lanes take part; .*_sync form")

    def test_checked_mode_reports_nothing_of_a_correct_program(self):
        # Shared arrays of a class type (g++ guards them) and `extern __shared__` at namespace scope;
        # graphs: launches captured with a copy of the capturing function's stack (redzones and all).
        samples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hip_samples")
        for name in ["half_precision", "dynamic_shared", "graphs"]:
            with self.subTest(name):
                p = hipcc("--checked", os.path.join(samples, name + ".hip"), "-o", name, cwd=self.dir)
                self.assertEqual(p.returncode, 0, p.stderr)
                p = subprocess.run([os.path.join(self.dir, name)], capture_output=True, text=True, timeout=300, env=CHECKED_ENV)
                self.assertEqual((p.returncode, p.stdout.splitlines()[-1]), (0, name + ": PASSED"), p.stderr)
                self.assertNotIn("wavebench checked", p.stderr)
        # The warp_sync sample: its barrier-free tail is a race, the __syncwarp and shuffle tails are not.
        sample = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hip_samples", "warp_sync.hip")
        p = hipcc("--checked", "-O2", sample, "-o", "warp_sync", cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        for mode, reported in [("syncwarp", False), ("shuffle", False), ("legacy", True)]:
            with self.subTest(mode):
                p = subprocess.run([os.path.join(self.dir, "warp_sync"), mode], capture_output=True, text=True,
                                   timeout=300, env=CHECKED_ENV)
                self.assertEqual("wavebench checked: shared-memory race" in p.stderr, reported, p.stderr)
                self.assertEqual("uninitialised" in p.stderr, False, p.stderr)

    def test_a_hip_header_the_platform_lacks_is_named(self):
        # ROCm's own headers (Debian's libamdhip64-dev) stop at once without an AMD or NVIDIA platform.
        if not os.path.exists("/usr/include/hip/hiprtc.h"):
            self.skipTest("ROCm's hip/hiprtc.h is not installed: nothing to reach")
        self.write("r.hip", "#include <hip/hip_runtime.h>\n#include <hip/hiprtc.h>\nint main() {}\n")
        p = hipcc("r.hip", "-o", "r", cwd=self.dir)
        self.assertNotEqual(p.returncode, 0)
        self.assertTrue(p.stderr.endswith("wavebench-hipcc: 'hiprtc.h' is a HIP header the cpu platform does not "
                                          "provide, so ROCm's own copy ('/usr/include/hip/hiprtc.h') was reached; "
                                          "see the cpu platform's README for what is supported\n"), p.stderr)

    def start(self, name, *args, env=None):
        return subprocess.run([os.path.join(self.dir, name), *args], capture_output=True, text=True, timeout=120,
                              env=env or RUN_ENV)

    def test_hipccs_options_for_gpu_code_are_ignored_with_a_note(self):
        self.write("g.hip", "#include <cstdio>\n__global__ void k(int* p) { p[threadIdx.x] = 2 * threadIdx.x; }\n"
                            "int main() {\n    int* d;\n    hipMalloc(&d, 64 * sizeof(int));\n    k<<<1, 64>>>(d);\n"
                            "    int h[64];\n    hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost);\n"
                            "#ifdef __FAST_MATH__\n    std::printf(\"fast \");\n#endif\n"
                            "    std::printf(\"%d\\n\", h[63]);\n}\n")
        gpu = ["--offload-arch=gfx90a", "--offload-arch", "gfx942", "--amdgpu-target=gfx908", "-munsafe-fp-atomics",
               "-mno-unsafe-fp-atomics", "-fgpu-rdc", "-fno-gpu-rdc", "-fgpu-flush-denormals-to-zero",
               "--gpu-max-threads-per-block=256", "-mcumode", "-mno-cumode", "-mwavefrontsize64",
               "--cuda-gpu-arch=sm_90", "-Xarch_device", "-O3", "-mllvm", "-amdgpu-early-inline-all=true"]
        note = ("wavebench-hipcc: note: ignored (options for GPU code, which the cpu platform does not compile): "
                "--offload-arch=gfx90a --offload-arch gfx942 --amdgpu-target=gfx908 -munsafe-fp-atomics "
                "-mno-unsafe-fp-atomics -fgpu-rdc -fno-gpu-rdc -fgpu-flush-denormals-to-zero "
                "--gpu-max-threads-per-block=256 -mcumode -mno-cumode -mwavefrontsize64 --cuda-gpu-arch=sm_90 "
                "-Xarch_device -O3 -mllvm -amdgpu-early-inline-all=true\n")
        # -ffast-math is an option for the host compiler too: passed on.
        p = hipcc(*gpu, "-O2", "-ffast-math", "-c", "g.hip", "-o", "g.o", cwd=self.dir)
        self.assertEqual((p.returncode, p.stderr), (0, note))
        p = hipcc("--hip-link", "-fgpu-rdc", "--offload-arch=gfx90a", "g.o", "-o", "g", cwd=self.dir)
        self.assertEqual((p.returncode, p.stderr), (0, "wavebench-hipcc: note: ignored (options for GPU code, which "
                                                       "the cpu platform does not compile): --hip-link -fgpu-rdc "
                                                       "--offload-arch=gfx90a\n"))
        self.assertEqual(self.start("g").stdout, "fast 126\n")
        p = hipcc("g.hip", "-o", "g2", cwd=self.dir)  # and no note without them
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        p = subprocess.run([HIPCC, "--help"], capture_output=True, text=True, cwd=self.dir, timeout=60)
        self.assertIn("--offload-arch=X", p.stdout)
        self.assertIn("-lamdhip64", p.stdout)

    def test_x_hip_compiles_a_c_file_as_hip(self):
        # As hipcc: `-x hip` makes the inputs after it HIP sources (C++), whatever their names; after
        # `-x none` a .c file is C again (`new` is a name in C, a keyword in C++).
        self.write("kern.c", "#include <cstdio>\nextern \"C\" int from_c(void);\n"
                             "template <class T> __global__ void k(T* p) { p[threadIdx.x] = T(threadIdx.x) + from_c(); }\n"
                             "int main() {\n    int* d;\n    hipMalloc(&d, 64 * sizeof(int));\n"
                             "    hipLaunchKernelGGL(k<int>, dim3(1), dim3(64), 0, 0, d);\n    int h[64];\n"
                             "    hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost);\n    std::printf(\"%d\\n\", h[63]);\n}\n")
        self.write("plain.c", "int from_c(void) { int new = 1000; return new; }\n")
        for args in [["-x", "hip", "kern.c", "-x", "none", "plain.c"], ["-xhip", "kern.c", "-xnone", "plain.c"]]:
            with self.subTest(args):
                p = hipcc(*args, "-o", "k", cwd=self.dir)
                # The one compiler run has -std=c++20 for the HIP source; g++ says it means nothing to C.
                self.assertEqual((p.returncode, [line for line in p.stderr.splitlines()
                                                 if "is valid for C++/ObjC++ but not for C" not in line]), (0, []))
                self.assertEqual(self.start("k").stdout, "1063\n")
        p = hipcc("-x", "hip", "-c", "kern.c", cwd=self.dir)  # the object named after the source
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        self.assertIn("kern.o", os.listdir(self.dir))
        p = hipcc("-c", "kern.c", cwd=self.dir)  # a .c file without -x hip is C, as with hipcc
        self.assertNotEqual(p.returncode, 0)

    def test_rocms_runtime_library_is_dropped(self):
        # Linked ahead of the cpu runtime, ROCm's libamdhip64 would take its calls (and crash).
        self.write("r.hip", SOURCE + MAIN)
        self.write("h.h", "#define V 5\n")
        for args, named in [(["-L/opt/rocm/lib", "-lamdhip64"], "-lamdhip64"), (["-l", "amdhip64"], "-l amdhip64")]:
            with self.subTest(args):
                p = hipcc("r.hip", *args, "-o", "r", cwd=self.dir)
                self.assertEqual((p.returncode, p.stderr),
                                 (0, "wavebench-hipcc: note: dropped %s (ROCm's runtime library): the cpu platform's "
                                     "runtime is linked instead\n" % named))
                self.assertEqual(self.start("r").stdout, "5\n")
                if shutil.which("readelf"):
                    p = subprocess.run(["readelf", "-d", os.path.join(self.dir, "r")], capture_output=True, text=True)
                    self.assertNotIn("libamdhip64", p.stdout)
                    self.assertIn("libwavebench_hip_cpu", p.stdout)

    def test_the_runtime_header_is_included_in_every_source(self):
        # hipcc includes hip/hip_runtime.h first; a source that includes it too is unchanged.
        self.write("bare.hip", "#include <cstdio>\n__global__ void k(int* p) { p[threadIdx.x] = warpSize; }\n"
                               "int main() {\n    int* d;\n    hipMalloc(&d, 64 * sizeof(int));\n    k<<<1, 64>>>(d);\n"
                               "    int h[64];\n    hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost);\n"
                               "    std::printf(\"%d %ld\\n\", h[0], long(__cplusplus));\n}\n")
        self.write("own.hip", "#include <hip/hip_runtime.h>\n#include <hip/hip_runtime.h>\n" + SOURCE + MAIN)
        self.write("h.h", "#define V 3\n")
        for std, value in [("c++14", "201402"), ("c++17", "201703"), ("c++20", "202002")]:
            with self.subTest(std):
                p = hipcc("-std=" + std, "-Wall", "-Wextra", "-Werror", "bare.hip", "-o", "bare", cwd=self.dir)
                self.assertEqual((p.returncode, p.stderr), (0, ""))
                self.assertEqual(self.start("bare").stdout, "64 %s\n" % value)
                p = hipcc("-std=" + std, "-Wall", "-Wextra", "-Werror", "own.hip", "-o", "own", cwd=self.dir)
                self.assertEqual((p.returncode, p.stderr), (0, ""))
                self.assertEqual(self.start("own").stdout, "3\n")
        p = hipcc("-MM", "bare.hip", cwd=self.dir)  # the dependencies name the header it includes
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("hip/hip_runtime.h", p.stdout)

    def test_type_punned_stores_are_kept(self):
        # GPU compilers keep the float store through the int's address; g++ -O3 with strict
        # aliasing returns the int it stored before it. wavebench-hipcc compiles with -fno-strict-aliasing.
        self.write("pun.hip", "#include <cstdio>\n"
                              "__device__ __attribute__((noinline)) int store_both(int* i, float* f) {\n"
                              "    *i = 1;\n    *f = 0.0f;\n    return *i;\n}\n"
                              "__global__ void k(int* b) { b[1] = store_both(b, reinterpret_cast<float*>(b)); }\n"
                              "int main() {\n    int* d;\n    hipMalloc(&d, 2 * sizeof(int));\n    k<<<1, 1>>>(d);\n"
                              "    int h[2];\n    hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost);\n"
                              "    std::printf(\"%d\\n\", h[1]);\n}\n")
        for level in ["-O2", "-O3"]:
            with self.subTest(level):
                p = hipcc(level, "pun.hip", "-o", "pun", cwd=self.dir)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertEqual(self.start("pun").stdout, "0\n")

    def test_checked_mode_stops_at_a_shared_memory_overrun(self):
        # Past the last `__shared__` variable lies the thread's control block (the checker crashed on
        # the write, which broke the thread pointer); before the first, the runtime's thread-local
        # state. Both are stopped before the access, with its line.
        self.write("over.hip", "#include <cstdio>\n#include <cstdlib>\n"
                               "__global__ void k(int* out, int off) {\n"
                               "    __shared__ int s[64];\n"
                               "    if (off == 100) s[threadIdx.x + 100] = 1;\n"
                               "    int* p = s;\n"
                               "    if (off != 100) p[int(threadIdx.x) + off] = 1;\n"
                               "    __syncthreads();\n"
                               "    out[threadIdx.x] = s[threadIdx.x];\n}\n"
                               "__global__ void dynamic(int* out) {\n"
                               "    extern __shared__ int dyn[];\n    dyn[threadIdx.x + 100] = 1;\n"
                               "    out[threadIdx.x] = 0;\n}\n"
                               "int main(int argc, char** argv) {\n"
                               "    int* d;\n    hipMalloc(&d, 64 * sizeof(int));\n"
                               "    if (argc > 1) k<<<1, 64>>>(d, std::atoi(argv[1]));\n"
                               "    else dynamic<<<1, 64, 64 * sizeof(int)>>>(d);\n"
                               "    std::printf(\"done\\n\");\n}\n")
        p = hipcc("--checked", "over.hip", "-o", "over", cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        p = self.start("over", "0", env=CHECKED_ENV)
        self.assertEqual((p.returncode, p.stdout), (0, "done\n"), p.stderr)
        self.assertNotIn("wavebench checked", p.stderr)
        for off, line, where in [("100", 5, "past the end of the block's `__shared__` variables"),
                                 ("64", 7, ""), ("-1", 7, "before the block's first `__shared__` variable")]:
            with self.subTest(off):
                p = self.start("over", off, env=CHECKED_ENV)
                self.assertEqual((p.returncode, p.stdout), (1, ""), p.stderr)
                self.assertRegex(p.stderr, r"wavebench checked: shared-memory overrun in block \(0,0,0\): lane 0 writes "
                                           r"4 bytes at 0x[0-9a-f]+ at \S*over\.hip:%d in k\(int\*, int\), [^\n]*%s"
                                           r"[^\n]*; stopped\n" % (line, where))
        # Past the dynamic shared memory the launch asked for: AddressSanitizer's report, as before.
        p = self.start("over", env=CHECKED_ENV)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("ERROR: AddressSanitizer: use-after-poison", p.stderr)
        self.assertRegex(p.stderr, r"WRITE of size 4 .*\n    #0 0x[0-9a-f]+ in dynamic\(int\*\) \S*over\.hip:13")


if __name__ == "__main__":
    wbtest.main()
