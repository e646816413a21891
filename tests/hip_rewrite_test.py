#!/usr/bin/env python3
"""wavebench-hip-rewrite (core/platforms/cpu/hip_rewrite.cpp): kernel launches and `extern __shared__`
arrays rewritten for g++, everything else byte for byte with every line keeping its number, and
sources it cannot rewrite refused with nothing written. Usage:
hip_rewrite_test.py BUILD_DIR SOURCE_DIR PATH_TO_wavebench-hip-rewrite"""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import wbtest

TOOL = os.path.abspath(wbtest.ARGS[0])


def launch(cfg, kernel, args):
    """What `kernel<<<cfg>>>(args)` becomes."""
    return "::hip_cpu_launch_kernel(::hip_cpu_launch_config(%s), [&]() { %s(%s); })" % (cfg, kernel, args)


def shared(type_, name):
    """What `extern __shared__ type_ name[];` becomes."""
    return "static thread_local %s* const %s = ::hip_cpu_dynamic_shared();" % (type_, name)


# Stand-ins for what the CPU runtime declares, enough for g++ -fsyntax-only.
STUBS = r"""
struct dim3 { dim3(unsigned = 1, unsigned = 1, unsigned = 1) {} };
typedef struct stream_t* hipStream_t;
struct hip_cpu_launch_config { hip_cpu_launch_config(dim3, dim3, unsigned long = 0, hipStream_t = nullptr) {} };
template <class F> void hip_cpu_launch_kernel(hip_cpu_launch_config, F f) { f(); }
struct hip_cpu_dynamic_shared_t { template <class U> operator U*() const { return nullptr; } };
inline hip_cpu_dynamic_shared_t hip_cpu_dynamic_shared() { return {}; }
#define __global__
#define __shared__ static thread_local
#define __align__(n) alignas(n)
"""


class Rewrite(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def tool(self, source, name="k.hip", out=None):
        path = os.path.join(self.dir, name)
        with open(path, "w", newline="") as f:
            f.write(source)
        out = out or os.path.join(self.dir, "k.cpp")
        return subprocess.run([TOOL, path, out], capture_output=True, text=True, timeout=60), path, out

    def rewrite(self, source):
        p, path, out = self.tool(source)
        self.assertEqual((p.returncode, p.stderr, p.stdout), (0, "", ""))
        with open(out, newline="") as f:
            text = f.read()
        header = '#line 1 "%s"\n' % path
        self.assertEqual(text[:len(header)], header)
        body = text[len(header):]
        self.assertEqual(body.count("\n"), source.count("\n"), "every line keeps its number")
        self.assertEqual(sorted(os.listdir(self.dir)), ["k.cpp", "k.hip"], "no temporary file is left")
        return body

    def check(self, source, expected):
        self.assertEqual(self.rewrite(source), expected)

    def unchanged(self, source):
        self.check(source, source)

    def refused(self, source, line, col, words):
        out = os.path.join(self.dir, "k.cpp")
        p, path, _ = self.tool(source, out=out)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertEqual(p.stdout, "")
        self.assertRegex(p.stderr, r"\A%s:%d:%d: error: [^\n]+; [^\n]+\n\Z" % (re.escape(path), line, col))
        self.assertIn(words, p.stderr)
        self.assertEqual(os.listdir(self.dir), ["k.hip"], "nothing is written")

    def compiles(self, source):
        if not shutil.which("g++"):
            self.skipTest("g++ is not installed")
        body = self.rewrite(source)
        stubs = os.path.join(self.dir, "stubs.h")
        with open(stubs, "w") as f:
            f.write(STUBS)
        with open(os.path.join(self.dir, "k.cpp")) as f:
            self.assertEqual(f.read().split("\n", 1)[1], body)
        p = subprocess.run(["g++", "-std=c++20", "-fsyntax-only", "-include", stubs, "-x", "c++",
                            os.path.join(self.dir, "k.cpp")], capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)

    # ---- launches ----------------------------------------------------------------------------------
    def test_plain_launches_with_two_three_and_four_configuration_items(self):
        self.check("k<<<g, b>>>(x);\nk<<<g, b, 64>>>(x, y);\nk<<<dim3(g, 2), b, 64, stream>>>();\n",
                   launch("g, b", "k", "x") + ";\n" + launch("g, b, 64", "k", "x, y") + ";\n" +
                   launch("dim3(g, 2), b, 64, stream", "k", "") + ";\n")

    def test_templated_kernels(self):
        self.check("kern<T, Op><<<blocks, threads>>>(in, out, n);\n",
                   launch("blocks, threads", "kern<T, Op>", "in, out, n") + ";\n")
        self.check("kern<A<int>><<<g, b>>>(x);\n", launch("g, b", "kern<A<int>>", "x") + ";\n")
        self.check("kern<(N > 2), B<C<1>>><<<g, b>>>(x);\n", launch("g, b", "kern<(N > 2), B<C<1>>>", "x") + ";\n")

    def test_kernel_expressions(self):
        for e in ["ns::kern", "::kern", "(cond ? a : b)", "obj.k", "p->k", "table[i]", "obj.arr[i]", "tables[i][j]",
                  "get_kernel()", "ns::template kern<T>", "a::b<int>::c", "obj.template k<T>", "this->k",
                  "static_cast<fn_t>(ptr)", "(kern<T>)", "get()[2]", "table[i](x)", "ns :: /* c */ kern"]:
            with self.subTest(e):
                self.check("void f() {\n    %s<<<1, 2>>>(p);\n}\n" % e,
                           "void f() {\n    %s;\n}\n" % launch("1, 2", e, "p"))
        for before in ["return ", "else ", "case 1: ", "{ ", "} ", "x = y > z ? ", "do ", "(void)"]:
            with self.subTest(before):
                self.check(before + "ns::k<T><<<1, 2>>>(p);\n", before + launch("1, 2", "ns::k<T>", "p") + ";\n")

    def test_statements_around_launches_stay(self):
        self.check("if (x) k<<<1, 1>>>(p); else k2<<<1,1>>>(q);\n",
                   "if (x) " + launch("1, 1", "k", "p") + "; else " + launch("1,1", "k2", "q") + ";\n")
        self.check("for (int i = 0; i < n; ++i) (k)<<<1, 1>>>(i);\nwhile (go()) table[i]<<<1, 1>>>(i);\n",
                   "for (int i = 0; i < n; ++i) " + launch("1, 1", "(k)", "i") + ";\nwhile (go()) " +
                   launch("1, 1", "table[i]", "i") + ";\n")

    def test_configuration_with_templates_parentheses_and_braces(self):
        cfg = "dim3{2, 2}, std::max<int>(a, b), sizeof(A<B<int>>), streams[idx(1)]"
        self.check("k<<<%s>>>(x);\n" % cfg, launch(cfg, "k", "x") + ";\n")
        self.check("k<<< f(a>>>b), {1, 2} >>>(x);\n", launch(" f(a>>>b), {1, 2} ", "k", "x") + ";\n")

    def test_arguments_with_braces_lambdas_and_strings(self):
        self.check("k<<<1, 1>>>({1, 2}, n);\n", launch("1, 1", "k", "{1, 2}, n") + ";\n")
        args = "[&](int v) { for (;;) return v > 1; }, \")(\", ')', R\"(>>>)\""
        self.check("k<<<1, 1>>>(%s);\n" % args, launch("1, 1", "k", args) + ";\n")

    def test_a_launch_over_several_lines_keeps_the_lines_after_it(self):
        source = ("void f() {\n"
                  "    kern<float><<<grid, // the grid\n"
                  "                  block>>>(a, /* a\n b */ b,\n"
                  "                           c)\n"
                  "    ;\n"
                  "    int marker;\n"
                  "}\n")
        body = self.check_lines(source, "marker")
        self.assertEqual(body, "void f() {\n    " + launch("grid, block", "kern<float>", "a, b, c") +
                         "\n\n\n\n    ;\n    int marker;\n}\n")

    def check_lines(self, source, marker):
        body = self.rewrite(source)
        line = [i for i, text in enumerate(body.split("\n")) if marker in text]
        self.assertEqual(line, [i for i, text in enumerate(source.split("\n")) if marker in text])
        return body

    def test_a_raw_string_argument_keeps_its_line_breaks(self):
        self.check('k<<<1, 1>>>(R"(a)\n<<<b)", 2);\nint marker;\n',
                   launch("1, 1", "k", 'R"(a)\n<<<b)", 2') + ";\nint marker;\n")

    def test_launches_in_macros(self):
        self.check("#define LAUNCH(k) k<<<1, 1>>>()\n", "#define LAUNCH(k) " + launch("1, 1", "k", "") + "\n")
        self.check("#define RUN (k)<<<1, 1>>>()\n", "#define RUN " + launch("1, 1", "(k)", "") + "\n")
        self.check("#define PASTE(n, T) kern_ ## n##_v<T><<<1, 1>>>(#n)\n",
                   "#define PASTE(n, T) " + launch("1, 1", "kern_ ## n##_v<T>", "#n") + "\n")
        self.check("#ifdef X\n(k)<<<1, 1>>>();\n#endif\n", "#ifdef X\n" + launch("1, 1", "(k)", "") + ";\n#endif\n")
        source = ("#define LAUNCH(k, n) \\\n"
                  "    k<<<(n + 255) / 256, \\\n"
                  "        256>>>(n, \\\n"
                  "               0)\n"
                  "int marker;\n")
        self.assertEqual(self.check_lines(source, "marker"),
                         "#define LAUNCH(k, n) \\\n    " + launch("(n + 255) / 256, 256", "k", "n, 0") +
                         "\\\n\\\n\nint marker;\n")

    def test_launch_text_in_strings_comments_and_character_literals_stays(self):
        self.unchanged('const char* s = "k<<<1, 1>>>(x)", *t = "\\"<<<";\n'
                       'const char* r = R"raw(k<<<1,\n 1>>>(x) )" )raw";\n'
                       'auto u = u8R"(<<<)"; auto w = LR"x(<<<)x"; auto v = uR"(<<<)"; auto z = UR"(<<<)";\n'
                       'auto e = u8"<<<"; auto l = L"<<<"; auto c16 = u\'<\';\n'
                       '// k<<<1, 1>>>(x); \\\n continued k<<<1, 1>>>(x);\n'
                       '/* k<<<1,\n 1>>>(x); */\n'
                       "char c = '<', d = '\\'', e = '\"', f = '\\\\';\n"
                       "#error don't k<<<1, 1>>>(x)\n")

    def test_digit_separators_near_a_launch(self):
        self.check("int n = 1'000'000; k<<<n / 1'024, 0x1'00>>>('x', 1'0, 1.5e+1'0);\nchar q = '<'; k<<<1, 1>>>(q);\n",
                   "int n = 1'000'000; " + launch("n / 1'024, 0x1'00", "k", "'x', 1'0, 1.5e+1'0") +
                   ";\nchar q = '<'; " + launch("1, 1", "k", "q") + ";\n")

    def test_everything_else_stays(self):
        self.unchanged("auto& r = operator<<<int>(std::cout, 1);\nauto p = &ns::operator<<<T>;\n"
                       "std::cout << \"a\" << b;\nx = a<<b; y = a << 1 < 2;\n"
                       "std::vector<std::vector<int>> v;\n#include <vector>\n#include <it's.h>\n"
                       "__shared__ int s[64];\n__global__ void k() {}\nextern int x[];\nextern \"C\" void f();\n"
                       "HIP_DYNAMIC_SHARED(float, buf)\nx >>= 2;")

    def test_no_newline_at_the_end(self):
        self.check("k<<<1, 1>>>()", launch("1, 1", "k", ""))

    # ---- dynamic shared memory ----------------------------------------------------------------------
    def test_extern_shared_forms(self):
        cases = [("extern __shared__ unsigned char smem[];", shared("unsigned char", "smem")),
                 ("extern __shared__ __align__(16) unsigned char smem[];", shared("unsigned char", "smem")),
                 ("extern __shared__ volatile float v[];", shared("volatile float", "v")),
                 ("extern __shared__ alignas(8) ns::Pair<A, B> pairs [ ] ;", shared("ns::Pair<A, B>", "pairs")),
                 ("extern __shared__ double __attribute__((aligned(64))) d[];", shared("double", "d")),
                 ("extern /* c */ __shared__ [[gnu::aligned(16)]] int i[];", shared("int", "i")),
                 ("extern __shared__ float s[] __attribute__((aligned(16)));", shared("float", "s"))]
        for source, expected in cases:
            with self.subTest(source):
                self.check(source + "\n", expected + "\n")
        self.check("template <class T> __global__ void k() {\n    extern __shared__ T buf[];\n}\n",
                   "template <class T> __global__ void k() {\n    " + shared("T", "buf") + "\n}\n")
        self.check("namespace n {\nextern __shared__\n  float\n  multi[];\nint marker;\n}\n",
                   "namespace n {\n" + shared("float", "multi") + "\n\n\nint marker;\n}\n")
        self.check("#define DYN(T) extern __shared__ T dyn[]; \\\n  (void)dyn\n",
                   "#define DYN(T) " + shared("T", "dyn") + " \\\n  (void)dyn\n")

    # ---- compiled ------------------------------------------------------------------------------------
    def test_rewritten_launches_compile(self):
        self.compiles("namespace ns { template <class T> __global__ void kern(T*, int) {} }\n"
                      "struct Op {};\n"
                      "template <class T, class O> __global__ void tk(T*, O) {}\n"
                      "__global__ void k(int) {}\n"
                      "struct S { void (*fn)(int); };\n"
                      "#define LAUNCH(kernel, n) \\\n    kernel<<<(n + 255) / 256, \\\n        256>>>(n)\n"
                      "void host(float* p, S obj, void (*table[2])(int), hipStream_t stream, bool c) {\n"
                      "    ns::kern<float><<<dim3(4, 2), 64>>>(p, 1'000);\n"
                      "    tk<float, Op><<<1, 2, 0, stream>>>(p, Op{});\n"
                      "    obj.fn<<<1, 1>>>(3);\n"
                      "    table[1]<<<2,\n              3>>>(4);\n"
                      "    if (c) (c ? k : table[0])<<<1, 1>>>(5); else LAUNCH(k, 10);\n"
                      "}\n")

    def test_rewritten_dynamic_shared_memory_compiles(self):
        self.compiles("extern __shared__ float at_namespace_scope[];\n"
                      "template <class T> __global__ void f() { extern __shared__ T buf[]; buf[0] = T(); }\n"
                      "__global__ void g() {\n"
                      "    extern __shared__ __align__(16) unsigned char raw[];\n"
                      "    extern __shared__ volatile float v[];\n"
                      "    raw[0] = 1; v[0] = 2.0f; at_namespace_scope[0] = v[0];\n"
                      "}\n"
                      "template void f<double>();\n")

    # ---- refused -------------------------------------------------------------------------------------
    def test_errors_name_the_place_and_write_nothing(self):
        cases = [("void f() {\n  k<<<1, 1(x);\n}\n", 2, 4, "launch configuration not closed by `>>>`"),
                 ("k<<<1, 1", 1, 2, "launch configuration not closed by `>>>`"),
                 ("  k<<<1, 1>>> x;\n", 1, 4, "`>>>` not followed by `(`"),
                 ("k<<<1, 1>>>;\n", 1, 2, "`>>>` not followed by `(`"),
                 ("k<<<1, 1>>>(x;\nint y;\n", 1, 2, "unbalanced argument list"),
                 ("k<<<1, 1>>>(x]);\n", 1, 2, "unbalanced argument list"),
                 ("x = <<<1, 1>>>();\n", 1, 5, "no kernel expression before `<<<`"),
                 ("return <<<1, 1>>>();\n", 1, 8, "no kernel expression before `<<<`"),
                 ("#define L(k) <<<1, 1>>>()\n", 1, 14, "no kernel expression before `<<<`"),
                 ("a.<<<1, 1>>>();\n", 1, 3, "parenthesize"),
                 ("f(); ()<<<1, 1>>>();\n", 1, 8, "no kernel expression"),
                 ("k<<<1, 1>>>(k2<<<1, 1>>>());\n", 1, 15, "launch inside another launch"),
                 ("k<<<1, 1>>>(a,\n#ifdef X\n b\n#endif\n);\n", 1, 2, "preprocessor directive"),
                 ("#define L k<<<1, 1\nint x;\n", 1, 12, "launch configuration not closed by `>>>`"),
                 ("int a;\n  extern __shared__ int s[256];\n", 2, 3,
                  "dynamic shared memory is declared as `extern __shared__ T name[];`"),
                 ("extern __shared__ int a[], b[];\n", 1, 1, "extern __shared__ T name[];"),
                 ("extern __shared__ s[];\n", 1, 1, "extern __shared__ T name[];"),
                 ("extern __shared__ int s[] = {};\n", 1, 1, "extern __shared__ T name[];"),
                 ("extern __shared__ int s[]\n", 1, 1, "extern __shared__ T name[];")]
        for source, line, col, words in cases:
            with self.subTest(source):
                self.refused(source, line, col, words)
                os.remove(os.path.join(self.dir, "k.hip"))

    def test_a_refused_rewrite_leaves_the_old_output_alone(self):
        out = os.path.join(self.dir, "k.cpp")
        with open(out, "w") as f:
            f.write("old")
        p, _, _ = self.tool("k<<<1, 1>>>(x;\n", out=out)
        self.assertEqual(p.returncode, 1)
        with open(out) as f:
            self.assertEqual(f.read(), "old")
        self.assertEqual(sorted(os.listdir(self.dir)), ["k.cpp", "k.hip"])

    # ---- command line --------------------------------------------------------------------------------
    def test_command_line(self):
        p = subprocess.run([TOOL, "--help"], capture_output=True, text=True)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        self.assertIn("wavebench-hip-rewrite INPUT OUTPUT", p.stdout)
        for args in [[], ["a.hip"], ["a.hip", "b", "c"], ["--bogus", "b"], ["a.hip", "--bogus"]]:
            with self.subTest(args):
                p = subprocess.run([TOOL, *args], capture_output=True, text=True)
                self.assertEqual(p.returncode, 2)
                self.assertIn("usage:", p.stderr)
        p = subprocess.run([TOOL, os.path.join(self.dir, "missing.hip"), "-"], capture_output=True, text=True)
        self.assertEqual((p.returncode, p.stdout), (1, ""))
        self.assertIn("missing.hip: error: cannot read", p.stderr)

    def test_standard_output_and_the_input_named_as_given(self):
        with open(os.path.join(self.dir, "k.hip"), "w") as f:
            f.write("k<<<1, 1>>>();\n")
        p = subprocess.run([TOOL, "k.hip", "-"], capture_output=True, text=True, cwd=self.dir)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        self.assertEqual(p.stdout, '#line 1 "k.hip"\n' + launch("1, 1", "k", "") + ";\n")
        self.assertEqual(os.listdir(self.dir), ["k.hip"])

    def test_the_line_directive_escapes_the_name(self):
        p, path, out = self.tool("int x;\n", name='we"ird\\name.hip')
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            self.assertEqual(f.read(), '#line 1 "%s"\nint x;\n' % path.replace("\\", "\\\\").replace('"', '\\"'))


if __name__ == "__main__":
    wbtest.main()
