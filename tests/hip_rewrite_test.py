#!/usr/bin/env python3
"""wavebench-hip-rewrite (core/platforms/cpu/hip_rewrite.cpp): kernel launches and `extern __shared__`
arrays rewritten for g++, everything else byte for byte with every line keeping its number, and
sources it cannot rewrite refused with nothing written. Usage:
hip_rewrite_test.py BUILD_DIR SOURCE_DIR PATH_TO_wavebench-hip-rewrite"""
import os
import re
import shutil
import stat
import subprocess
import tempfile
import unittest

import wbtest

TOOL = os.path.abspath(wbtest.ARGS[0])


def launch(cfg, kernel, args):
    """What `kernel<<<cfg>>>(args)` becomes."""
    return "::hip_cpu_launch_kernel(::hip_cpu_launch_config(%s), [&]() { %s(%s); })" % (cfg, kernel, args)


def lines(text):
    """The line breaks in `text` as g++ counts them: \n, \r\n or a \r alone."""
    return len(re.findall(r"\r\n|\r|\n", text))


def shared(type_, name, local=False):
    """What `extern __shared__ type_ name[];` becomes: in a function's body (`local`), a plain pointer;
    elsewhere a thread-local one."""
    return "%s%s* const %s = ::hip_cpu_dynamic_shared();" % ("" if local else "static thread_local ", type_, name)


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
#define __device__
struct hip_cpu_region { explicit hip_cpu_region(unsigned) {} void enter_arm(unsigned) {} };
inline unsigned long long __ballot(int) { return 0; }
inline int __shfl_xor(int v, int) { return v; }
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
        self.assertEqual(lines(body), lines(source), "every line keeps its number")
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
        with open(os.path.join(self.dir, "k.cpp"), newline="") as f:
            self.assertEqual(f.read().split("\n", 1)[1], body)
        p = subprocess.run(["g++", "-std=c++20", "-fsyntax-only", "-include", stubs, "-x", "c++",
                            os.path.join(self.dir, "k.cpp")], capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)

    # ---- region marks (reconvergence) ---------------------------------------------------------------
    def test_code_that_reaches_no_collective_is_left_alone(self):
        self.unchanged("__global__ void k(int* p) {\n  if (p[0]) p[1] = 2;\n  for (int i = 0; i < 4; ++i) p[i] += i;\n"
                       "  switch (p[2]) { case 1: break; }\n  __syncthreads();\n}\n")

    def test_statements_that_reach_a_collective_are_marked(self):
        body = self.rewrite("__device__ int red(int v) {\n  for (int o = 32; o > 0; o >>= 1) v += __shfl_xor(v, o);\n"
                            "  return v;\n}\n"
                            "__global__ void k(int* p) {\n  if (p[0] > 1) {\n    p[1] = red(p[0]);\n  } else p[2] = 0;\n"
                            "  if (p[3]) p[4] = 1;\n"
                            "  switch (p[5]) {\n  case 1: p[6] = __ballot(1); break;\n  default: break;\n  }\n"
                            "  while (p[7]--) { if (p[8]) continue; p[9] = __ballot(1); }\n}\n"
                            "int main() { int* p = 0; k<<<1, 64>>>(p); }\n")
        lines_ = body.split("\n")
        # red: a frame of its own, and its loop's (whose body cannot part lanes: no frame per iteration).
        self.assertRegex(lines_[0], r"^__device__ int red\(int v\) \{ ::hip_cpu_region __wb_r\d+\(\d+u\);$")
        self.assertRegex(lines_[1], r"^  \{ ::hip_cpu_region __wb_r\d+\(\d+u\); for \(int o = 32; o > 0; o >>= 1\) "
                                    r"v \+= __shfl_xor\(v, o\); \}$")
        # k reaches red by name: its if and else are marked, each branch says which it is.
        self.assertRegex(lines_[5], r"^  \{ ::hip_cpu_region (__wb_r\d+)\(\d+u\); if \(p\[0\] > 1\) \{ \1\.enter_arm\(1u\); \{$")
        self.assertRegex(lines_[7], r"^  \} \} else \{ __wb_r\d+\.enter_arm\(2u\); p\[2\] = 0; \} \}$")
        self.assertEqual(lines_[8], "  if (p[3]) p[4] = 1;", "a statement that reaches no collective")
        self.assertRegex(lines_[9], r"^  \{ ::hip_cpu_region (__wb_r\d+)\(\d+u\); switch \(p\[5\]\) \{$")
        self.assertRegex(lines_[10], r"^  case 1: __wb_r\d+\.enter_arm\(\d+u\); p\[6\] = __ballot\(1\); break;$")
        self.assertRegex(lines_[12], r"^  \} \}$")
        # A loop body that parts lanes (continue) gets a frame per iteration.
        self.assertRegex(lines_[13], r"^  \{ ::hip_cpu_region __wb_r\d+\(\d+u\); while \(p\[7\]--\) "
                                     r"\{ ::hip_cpu_region __wb_r\d+\(\d+u\); \{ if \(p\[8\]\) continue;")
        self.assertEqual(lines_[15], "int main() { int* p = 0; %s; }" % launch("1, 64", "k", "p"),
                         "launching a kernel does not make the host code reach its collectives")

    def test_marked_code_compiles(self):
        self.compiles("__device__ int red(int v) { for (int o = 32; o > 0; o >>= 1) v += __shfl_xor(v, o); return v; }\n"
                      "__global__ void k(int* p) {\n"
                      "  if (int q = p[0]; q > 1) [[likely]] { p[1] = red(q); } else if (p[2]) p[3] = red(1); else {}\n"
                      "  for (int i = 0; i < 3; ++i) { if (i == p[4]) continue; if (i == 2) break; p[i] = __ballot(1); }\n"
                      "  do p[5] = red(p[5]); while (p[6]--);\n"
                      "  int vs[2] = {1, 2};\n  for (int v : vs) switch (v) { case 1: case 2: { p[v] = __ballot(v); } [[fallthrough]]; default: ; }\n"
                      "  auto lam = [&](int x) { if (x) return 0; return red(x); };\n  p[7] = lam(p[8]);\n"
                      "  #pragma GCC unroll 2\n  for (int i = 0; i < 2; ++i) p[i] += __ballot(i);\n"
                      "  if constexpr (sizeof(int) == 4) p[9] = red(2);\n"
                      "  try { p[10] = red(3); } catch (...) {}\n"
                      "  out: if (p[11]) { p[12] = __ballot(1); goto out2; }\n  out2: return;\n}\n")

    def test_a_backward_goto_where_lanes_must_reconverge_is_refused(self):
        self.refused("__global__ void k(int* p) {\n  again:\n  p[0] = __ballot(1);\n  if (--p[1]) goto again;\n}\n",
                     4, 15, "goto back to an earlier label")

    def test_unreadable_statements_are_left_alone_with_a_warning(self):
        source = "__global__ void k(int* p) {\n#if A\n  if (p[0])\n#else\n  if (p[1])\n#endif\n" \
                 "  {\n    p[2] = __ballot(1);\n  }\n}\n"
        p, path, out = self.tool(source)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stderr, r"\A%s:1:27: warning: cannot read the statements of `k` [^\n]+without "
                                   r"reconvergence\n\Z" % re.escape(path))
        with open(out) as f:
            self.assertNotIn("hip_cpu_region", f.read())

    def test_deep_nesting_of_marked_statements_is_no_crash(self):
        n = 20000
        source = "__global__ void k(int* p) {\n" + "if (p[0]) " * n + "p[1] = __ballot(1);\n}\n"
        p, _, out = self.tool(source)
        self.assertEqual(p.returncode, 0, p.stderr[-300:])
        self.assertIn("warning: cannot read the statements of `k`", p.stderr)

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
                   "template <class T> __global__ void k() {\n    " + shared("T", "buf", True) + "\n}\n")
        # Function bodies (after `)`, `) const`, in nested braces and lambdas) against other braces.
        inside = "extern __shared__ int a[];"
        for before, after, local in [("void f() const noexcept { if (x) { ", " } }", True),
                                     ("auto g = [&]() { ", " };", True),
                                     ("struct S { void m() { ", " } };", True),
                                     ("namespace q { ", " }", False), ('extern "C" { ', " }", False),
                                     ("struct T { int v; }; ", "", False)]:
            with self.subTest(before):
                self.check(before + inside + after + "\n", before + shared("int", "a", local) + after + "\n")
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

    # ---- odd sources (issue 28): what g++ reads, the rewrite reads alike -----------------------------
    def test_the_launch_never_pastes_onto_the_token_before_it(self):
        # `case 1:` + `::hip_cpu_launch_kernel` would be `:::`; `<` + `::` a digraph `<:`, `%` + `:` `%:`.
        for before in ["case 1:", "default:", "lbl:", "x = c ? y :", "x = n %", "x = n <", "case 1:\\\n",
                       "case 1:\\ \n"]:
            with self.subTest(before):
                self.check(before + "k<<<1, 64>>>(x);\n", before + " " + launch("1, 64", "k", "x") + ";\n")
        for before in ["case 1: ", "(void)", "{", "case 1:/**/", "x = a::"]:
            with self.subTest(before):
                body = self.rewrite(before + "k<<<1, 64>>>(x);\n")
                self.assertFalse(body.startswith(before + " "), body)
        self.compiles("__global__ void k(int) {}\n"
                      "int host(int n, bool c) {\n"
                      "    int x = 0;\n"
                      "    switch (n) { case 1:k<<<1, 64>>>(x); break; default:k<<<1, 64>>>(x); }\n"
                      "    if (n > 9) goto lbl;\n"
                      "lbl:k<<<1, 64>>>(x);\n"
                      "    c ? (void)0 :k<<<1, 64>>>(x);\n"
                      "    return n %(k<<<1, 64>>>(x), 1) + (n <(k<<<1, 64>>>(x), 1));\n"
                      "}\n")

    def test_universal_character_names_are_identifier_characters(self):
        for name in ["k\\u00e9rnel", "\\u00e9k", "k\\U0001F600", "k\\U000000e9x", "k\\\n\\u00e9", "k\\u00\\\ne9"]:
            with self.subTest(name):
                splices = name.count("\n")
                self.check("%s<<<1, 64>>>(x);\n" % name,
                           launch("1, 64", name.replace("\\\n", ""), "x") + "\n" * splices + ";\n")
        self.check("k<<<n\\u00e9, 1>>>(p\\u00e9, 1\\u00e9);\n",
                   launch("n\\u00e9, 1", "k", "p\\u00e9, 1\\u00e9") + ";\n")
        self.check("extern __shared__ float s\\u00e9[];\n", shared("float", "s\\u00e9") + "\n")
        self.compiles("__global__ void k\\u00e9rnel(int) {}\n__global__ void \\u00e9k(int) {}\n"
                      "__global__ void k\\U0001F600(int) {}\n"
                      "void host(int x) { k\\u00e9rnel<<<1, 64>>>(x); \\u00e9k<<<1, 64>>>(x); "
                      "k\\U0001F600<<<1, 64>>>(x); }\n"
                      "__global__ void g() { extern __shared__ float s\\u00e9[]; s\\u00e9[0] = 1; }\n")

    def test_digraphs_are_the_tokens_they_stand_for(self):
        # `%:define`: a directive, whose launch keeps the macro continued; `<:` `:>` `<%` `%>` brackets.
        self.check("%:define L(k) k<<<1, \\\n 2>>>(x) \\\n  + 1\nint marker;\n",
                   "%:define L(k) " + launch("1, 2", "k", "x") + "\\\n \\\n  + 1\nint marker;\n")
        self.check("%:define P(n) kern_ %:%: n<<<1, 1>>>()\n",
                   "%:define P(n) " + launch("1, 1", "kern_ %:%: n", "") + "\n")
        self.check("t<:i:><<<1, 1>>>(a<:0:>, <%1%>);\n", launch("1, 1", "t<:i:>", "a<:0:>, <%1%>") + ";\n")
        self.check("k<<<1, 1>>>(v<::ns::T>{}, y);\n", launch("1, 1", "k", "v<::ns::T>{}, y") + ";\n")
        self.check("extern __shared__ <:<:gnu::aligned(16):>:> float s<::>;\n", shared("float", "s") + "\n")
        self.compiles("namespace ns { using T = int; }\n__global__ void k(int, int) {}\n"
                      "%:define L(x) k<<<1, \\\n 2>>>(x<:0:>, 1) \\\n  ;\n"
                      "void host(int a<:1:>, void (*t<:1:>)(int, int)) <% L(a); t<:0:><<<1, 1>>>(a<:0:>, 2); %>\n"
                      "__global__ void g() { extern __shared__ <:<:gnu::aligned(16):>:> float s<::>; s<:0:> = 1; }\n")

    def test_line_breaks_as_g_plus_plus_reads_them(self):
        # A \r alone ends a line (and a // comment); blanks may stand between a splice's `\` and the
        # line break; a splice inside an operator keeps it one operator; a byte order mark stays first.
        self.check("// c\rk<<<1, 1>>>(x);\r", "// c\r" + launch("1, 1", "k", "x") + ";\r")
        self.check("k<<<1,\r 1>>>(x);\rint marker;\r", launch("1, 1", "k", "x") + "\n;\rint marker;\r")
        self.check("k<<<1,\r\n 1>>>(x);\r\nint marker;\r\n", launch("1, 1", "k", "x") + "\n;\r\nint marker;\r\n")
        self.check("#define L k<<<1, \\  \n 1>>>(x) \\\t\n + 1\nint marker;\n",
                   "#define L " + launch("1, 1", "k", "x") + "\\\n \\\t\n + 1\nint marker;\n")
        self.check("k<<<1, 1>>>(i+\\\n+, p-\\\n>q, a <\\\n< 2);\n",
                   launch("1, 1", "k", "i++, p->q, a << 2") + "\n\n\n;\n")
        p, path, out = self.tool("\ufeff#define L(x) k<<<1, 1>>>(x)\nL(y);\n")
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out, encoding="utf-8", newline="") as f:
            self.assertEqual(f.read(),
                             '\ufeff#line 1 "%s"\n#define L(x) %s\nL(y);\n' % (path, launch("1, 1", "k", "x")))
        self.compiles("__global__ void k(int) {}\n#define L(x) k<<<1, \\  \n 1>>>(x) \\\t\n ;\n"
                      "void host(int i) {\r  // c\r  k<<<1, 1>>>(i);\r L(i)\r  k<<<1, 1>>>(i+\\\n+);\r\n}\n")

    def test_deep_nesting_is_no_crash(self):
        # 100,000 of each nesting the kernel expression, the configuration or the arguments can have.
        n = 100000
        cases = {"subscripts": "a" + "[0]" * n + "<<<1, 1>>>();\n",
                 "calls and subscripts": "f(x)" + "[0](x)" * n + "<<<1, 1>>>();\n",
                 "parentheses around the kernel": "(" * n + "k" + ")" * n + "<<<1, 1>>>();\n",
                 "template arguments": "k<" + "A<" * n + "int" + ">" * n + "><<<1, 1>>>();\n",
                 "member access": "a." * n + "k<<<1, 1>>>();\n",
                 "qualified names": "a::" * n + "k<<<1, 1>>>();\n",
                 "configuration": "k<<<" + "(" * n + "1" + ")" * n + ", 1>>>();\n",
                 "braces in the arguments": "k<<<1, 1>>>(" + "{" * n + "}" * n + ");\n",
                 "brackets in the arguments": "k<<<1, 1>>>(" + "[" * n + "]" * n + ");\n",
                 "statements in nested braces": "k<<<1, 1>>>(" + "(" * n + "[&] {" + ";" * n + "}" + ")" * n + ");\n",
                 "unclosed parentheses": "k<<<1, 1>>>(" + "(" * n + ";\n"}
        for name, source in cases.items():
            with self.subTest(name):
                p, _, out = self.tool(source)
                self.assertIn(p.returncode, (0, 1), p.stderr[-300:])
                if p.returncode == 1:
                    self.assertRegex(p.stderr, r"\A[^\n]*k\.hip:1:\d+: error: [^\n]+\n\Z")
                else:
                    with open(out) as f:
                        self.assertIn("::hip_cpu_launch_kernel(", f.read())
                    os.remove(out)

    def test_raw_string_prefixes_cost_linear_time(self):
        # `R"` with no delimiter: its `(` is looked for among the next 16 characters, not to the end.
        p, _, _ = self.tool('R"\n' * 1000000 + "(\n")
        self.assertEqual(p.returncode, 0, p.stderr)

    # ---- command line --------------------------------------------------------------------------------
    def test_command_line(self):
        p = subprocess.run([TOOL, "--help"], capture_output=True, text=True)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        self.assertIn("wavebench-hip-rewrite [--preprocessed] INPUT OUTPUT", p.stdout)
        for args in [[], ["a.hip"], ["a.hip", "b", "c"], ["--bogus", "b"], ["a.hip", "--bogus"]]:
            with self.subTest(args):
                p = subprocess.run([TOOL, *args], capture_output=True, text=True)
                self.assertEqual(p.returncode, 2)
                self.assertIn("usage:", p.stderr)
        p = subprocess.run([TOOL, os.path.join(self.dir, "missing.hip"), "-"], capture_output=True, text=True)
        self.assertEqual((p.returncode, p.stdout), (1, ""))
        self.assertIn("missing.hip: error: cannot read it", p.stderr)

    def test_an_output_that_is_the_input_is_refused(self):
        path = os.path.join(self.dir, "a.hip")
        with open(path, "w") as f:
            f.write("k<<<1, 1>>>();\n")
        os.symlink("a.hip", os.path.join(self.dir, "link.hip"))
        os.link(path, os.path.join(self.dir, "hard.hip"))
        for out in ["a.hip", "./a.hip", "link.hip", "hard.hip", os.path.join(self.dir, "a.hip")]:
            with self.subTest(out):
                p = subprocess.run([TOOL, "a.hip", out], capture_output=True, text=True, cwd=self.dir)
                self.assertEqual((p.returncode, p.stdout), (2, ""))
                same = "" if out == "a.hip" else "the same file as "
                self.assertEqual(p.stderr, "wavebench-hip-rewrite: OUTPUT '%s' is %sthe input of this command%s: "
                                 "it would be overwritten; name another file\n"
                                 % (out, same, " ('a.hip')" if same else ""))
                with open(path) as f:
                    self.assertEqual(f.read(), "k<<<1, 1>>>();\n")
                self.assertEqual(sorted(os.listdir(self.dir)), ["a.hip", "hard.hip", "link.hip"])
                self.assertTrue(os.path.islink(os.path.join(self.dir, "link.hip")))

    def test_an_output_that_is_not_a_regular_file_is_refused(self):
        # It would be replaced by a regular file (the output is renamed into place): a FIFO, a folder,
        # and, for root, /dev/null.
        with open(os.path.join(self.dir, "a.hip"), "w") as f:
            f.write("k<<<1, 1>>>();\n")
        os.mkfifo(os.path.join(self.dir, "fifo"))
        os.mkdir(os.path.join(self.dir, "dir"))
        for out, what in [("fifo", "a FIFO"), ("dir", "a directory")]:
            with self.subTest(out):
                p = subprocess.run([TOOL, "a.hip", out], capture_output=True, text=True, cwd=self.dir, timeout=20)
                self.assertEqual((p.returncode, p.stdout, p.stderr),
                                 (2, "", "wavebench-hip-rewrite: OUTPUT '%s' is %s: name a regular file, or - for "
                                         "standard output\n" % (out, what)))
        self.assertTrue(stat.S_ISFIFO(os.stat(os.path.join(self.dir, "fifo")).st_mode))
        self.assertEqual(sorted(os.listdir(self.dir)), ["a.hip", "dir", "fifo"])
        self.assertEqual(os.listdir(os.path.join(self.dir, "dir")), [])

    def test_an_input_that_is_not_a_regular_file_is_refused_unread(self):
        os.mkdir(os.path.join(self.dir, "dir.hip"))
        os.mkfifo(os.path.join(self.dir, "fifo.hip"))
        big = os.path.join(self.dir, "big.hip")
        with open(big, "w") as f:
            f.truncate((64 << 20) + 1)  # sparse: nothing of it is read
        cases = [("dir.hip", "it is a directory, not a source file; name a regular file"),
                 ("/dev/zero", "it is a device, not a source file; name a regular file"),
                 ("fifo.hip", "it is a FIFO, not a source file; name a regular file"),
                 ("big.hip", "it is larger than 64 MiB, more than a source the rewrite reads; split it"),
                 ("missing.hip", "cannot read it: No such file or directory")]
        for name, why in cases:
            with self.subTest(name):
                out = os.path.join(self.dir, "k.cpp")
                p = subprocess.run([TOOL, name, out], capture_output=True, text=True, cwd=self.dir, timeout=20)
                self.assertEqual((p.returncode, p.stdout, p.stderr), (1, "", "%s: error: %s\n" % (name, why)))
                self.assertFalse(os.path.exists(out))
        self.assertEqual(sorted(os.listdir(self.dir)), ["big.hip", "dir.hip", "fifo.hip"])

    def test_messages_escape_the_file_name(self):
        name = "we\x1b[31mird.hip"
        p = subprocess.run([TOOL, name, "-"], capture_output=True, text=True, cwd=self.dir)
        self.assertEqual((p.returncode, p.stderr), (1, "we\\x1b[31mird.hip: error: cannot read it: No such file or "
                                                       "directory\n"))
        p, path, _ = self.tool("k<<<1;\n", name="tab\there.hip")
        self.assertEqual(p.returncode, 1)
        self.assertTrue(p.stderr.startswith(path.replace("\t", "\\x09") + ":1:2: error: "), p.stderr)

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


class Preprocessed(unittest.TestCase):
    """--preprocessed: `g++ -E -D__HIP_CPU_REWRITE__` output, as wavebench-hipcc gives it, where
    hip_runtime.h leaves markers for hipLaunchKernelGGL and __shared__; no #line is added."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def tool(self, text):
        path = os.path.join(self.dir, "k.ii")
        with open(path, "w", newline="") as f:
            f.write(text)
        return subprocess.run([TOOL, "--preprocessed", path, "-"], capture_output=True, text=True, timeout=60)

    def check(self, text, expected):
        p = self.tool(text)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        self.assertEqual(p.stdout, expected)
        self.assertEqual(lines(p.stdout), lines(text), "every line keeps its number")

    def test_hip_launch_kernel_ggl_with_template_ids(self):
        cases = [("__hip_cpu_launch__(kern<B, W>, dim3(g), b, 0, 0, x, f(y, z))",
                  "(dim3(g)), (b), (0), (0)", "(kern<B, W>)", "x, f(y, z)"),
                 ("__hip_cpu_launch__(k<A<1>, 2>, 1, 2, 3, s)", "(1), (2), (3), (s)", "(k<A<1>, 2>)", ""),
                 ("__hip_cpu_launch__((k<a, b>), g, b, sizeof(T) * n, st, v[i], {1, 2})",
                  "(g), (b), (sizeof(T) * n), (st)", "((k<a, b>))", "v[i], {1, 2}"),
                 ("__hip_cpu_launch__(ns::k<T, U>, g, b, 0, nullptr, a < b, c > d)",
                  "(g), (b), (0), (nullptr)", "(ns::k<T, U>)", "a < b, c > d")]
        for call, cfg, kernel, args in cases:
            with self.subTest(call):
                self.check('# 1 "m.hip"\nvoid f() { %s; }\n' % call,
                           '# 1 "m.hip"\nvoid f() { %s; }\n' % launch(cfg, kernel, args))
        # Over several lines: the lines after it keep their numbers.
        self.check("__hip_cpu_launch__(k<1, 2>,\n g, b,\n 0, 0, x);\nint y;\n",
                   launch("(g), (b), (0), (0)", "(k<1, 2>)", "x") + "\n\n;\nint y;\n")

    def test_shared_markers(self):
        self.check("static __hip_cpu_shared__ int a[4]; __hip_cpu_shared__ static float b;\n"
                   "extern __hip_cpu_shared__ __align__(16) double d[];\n",
                   "static thread_local int a[4]; thread_local static float b;\n%s\n" % shared("double", "d"))

    def test_errors_name_the_file_and_line_of_the_line_markers(self):
        text = '# 1 "m.hip"\nint x;\n# 7 "inc/k.h" 1\nvoid f() {\n  __hip_cpu_launch__(k, g);\n}\n'
        p = self.tool(text)
        self.assertEqual((p.returncode, p.stdout), (1, ""))
        self.assertEqual(p.stderr, "inc/k.h:8:3: error: hipLaunchKernelGGL has fewer than five arguments; give the "
                                   "kernel, grid, block, shared bytes and stream, then the kernel's arguments\n")
        p = self.tool('# 1 "m.hip"\n# 3 "m.hip"\n\n  (1 + <<<1, 1>>>(d);\n')
        self.assertEqual(p.returncode, 1)
        self.assertTrue(p.stderr.startswith("m.hip:4:8: error: no kernel expression before `<<<`"), p.stderr)
        p = self.tool("__hip_cpu_launch__(k, g, b, 0, 0, (x);\n")
        self.assertEqual(p.returncode, 1)
        self.assertIn("k.ii:1:1: error: ", p.stderr)


if __name__ == "__main__":
    wbtest.main()
