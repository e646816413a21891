// wavebench-hip-rewrite: turns a HIP source into one that g++ compiles against the CPU runtime.
//
// Usage: wavebench-hip-rewrite [--preprocessed] INPUT OUTPUT    (OUTPUT "-": standard output)
//
// The output is INPUT byte for byte, preceded by `#line 1 "INPUT"`, except for two rewrites:
//   E<<<CFG>>>(ARGS)
//     -> ::hip_cpu_launch_kernel(::hip_cpu_launch_config(CFG), [&]() { E(ARGS); })
//   extern __shared__ ATTRS TYPE NAME[];      (ATTRS: __align__(N), alignas(N), __attribute__((..)), [[..]])
//     -> TYPE* const NAME = ::hip_cpu_dynamic_shared();                    (in a function's body)
//     -> static thread_local TYPE* const NAME = ::hip_cpu_dynamic_shared(); (at namespace scope)
// With --preprocessed, INPUT is the output of `g++ -E -D__HIP_CPU_REWRITE__` (what wavebench-hipcc
// compiles: the headers a source includes are rewritten too, and launches written in macros), where
// hip_runtime.h leaves two markers for the rewrite instead of its macros, and no `#line` is added
// (the preprocessor's line markers name the files; messages name the file and line they give):
//   __hip_cpu_launch__(E, GRID, BLOCK, SHARED, STREAM, ARGS)     (hipLaunchKernelGGL)
//     -> ::hip_cpu_launch_kernel(::hip_cpu_launch_config((GRID), (BLOCK), (SHARED), (STREAM)),
//                                [&]() { E(ARGS); })
//     E may be a template-id with commas (`kern<B, W>`), which a macro alone splits apart.
//   __hip_cpu_shared__ (__shared__) -> thread_local; `extern __hip_cpu_shared__` as `extern __shared__`.
// A replaced span is written on one line (comments and line breaks in it become a space, raw strings
// stay as they are) and followed by the line breaks it had (`\`-continued inside a directive), so
// every other line keeps its number; a space keeps the `::` it starts with from pasting onto a `:`,
// `<` or `%` before it (`case 1: ::hip_cpu_launch_kernel`). `<<<` in comments, strings, raw strings
// and character literals, and `operator<<<`, are left alone. Code that the preprocessor skips
// (`#if 0`) is rewritten too. The tokens are read as g++ reads them (hip_rewrite_lex.h).
//
// E is the postfix expression before `<<<`: an identifier, a template-id, a qualified name
// (`ns::k`, `::k`, `ns::template k<T>`), member access (`o.k`, `p->k`, `o.a[i]`), a parenthesized
// expression, a call or a subscript (`get()`, `table[i]`), `a ## b` in a macro. Refused (exit 1,
// nothing written, a message `INPUT:LINE:COL: error: ...`): no such expression before `<<<`, a
// configuration not closed by `>>>`, `>>>` not followed by `(`, an unbalanced argument list, a launch
// inside a launch, a launch broken by a preprocessor directive, and an `extern __shared__` not of the
// form `T name[];`. Also refused, before anything is read or written: an INPUT that is not a regular
// file (a directory, a device, a FIFO) or is larger than 64 MiB (exit 1), and an OUTPUT that is the
// same file as INPUT, through a link or another spelling too, or exists and is not a regular file
// (it would be renamed over: a FIFO, /dev/null) (exit 2). Every scan is a loop: deep nesting costs
// time in proportion, not stack.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hip_rewrite_io.h"
#include "hip_rewrite_lex.h"
#include "hip_rewrite_regions.h"

namespace {

using namespace hip_rewrite;

struct Error {
    size_t at;
    std::string what;
};
struct Edit {
    size_t b, e;
    std::string text;
}; // the source [b, e) becomes text

bool keyword(std::string_view w)
{
    static const std::set<std::string_view> words = {
        "alignas",     "alignof",   "and",        "and_eq",    "asm",      "auto",         "bitand",
        "bitor",       "bool",      "break",      "case",      "catch",    "char",         "char8_t",
        "char16_t",    "char32_t",  "class",      "compl",     "concept",  "const",        "consteval",
        "constexpr",   "constinit", "const_cast", "continue",  "co_await", "co_return",    "co_yield",
        "decltype",    "default",   "delete",     "do",        "double",   "dynamic_cast", "else",
        "enum",        "explicit",  "export",     "extern",    "false",    "float",        "for",
        "friend",      "goto",      "if",         "inline",    "int",      "long",         "mutable",
        "namespace",   "new",       "noexcept",   "not",       "not_eq",   "nullptr",      "operator",
        "or",          "or_eq",     "private",    "protected", "public",   "register",     "reinterpret_cast",
        "requires",    "return",    "short",      "signed",    "sizeof",   "static",       "static_assert",
        "static_cast", "struct",    "switch",     "template",  "this",     "thread_local", "throw",
        "true",        "try",       "typedef",    "typeid",    "typename", "union",        "unsigned",
        "using",       "virtual",   "void",       "volatile",  "wchar_t",  "while",        "xor",
        "xor_eq"};
    return words.count(w) != 0;
}

class Rewriter {
public:
    Rewriter(const Src& S, const Toks& T) : S(S), T(T) {}

    // The rewritten source, appended to `out`, with the region marks `ins` (sorted) inserted.
    void run(std::string& out, const std::vector<Insert>& ins = {})
    {
        size_t next = 0; // the next of `ins` to write
        // The source [from, to), with the marks before `to` (and at `to` itself where `at_end`).
        auto copy = [&](size_t from, size_t to, bool at_end) {
            for (; next < ins.size() && (ins[next].at < to || (at_end && ins[next].at == to)); ++next) {
                if (ins[next].at < from) continue; // inside a replaced span
                out.append(S.s, from, ins[next].at - from) += ins[next].text;
                from = ins[next].at;
            }
            out.append(S.s, from, to - from);
        };
        size_t at = 0; // the source is in `out` up to here
        for (size_t i = 0; i < T.size(); ++i) {
            if (i > 0 && T[i].region != T[i - 1].region) lo = static_cast<long>(i);
            track_scope(i);
            size_t end = i;
            Edit e;
            if (launch_at(i))
                e = launch(i, end);
            else if (is(i, "extern") && (is(i + 1, "__shared__") || is(i + 1, "__hip_cpu_shared__")))
                e = shared(i, end, !in_function.empty() && in_function.back());
            else if (is(i, "__hip_cpu_shared__"))
                e = {T[i].b, T[i].e, "thread_local"};
            else if (is(i, "__hip_cpu_launch__") && is(i + 1, "("))
                e = ggl_launch(i, end);
            else
                continue;
            if (e.b < at)
                throw Error{T[i].b, "the kernel expression overlaps the launch before it; parenthesize the kernel"};
            copy(at, e.b, true);
            out += e.text, at = e.e;
            i = end;
        }
        copy(at, S.s.size(), true);
    }

private:
    const Src& S;
    const Toks& T;
    long lo = 0;                   // the first token of the region being rewritten
    std::vector<bool> in_function; // per open brace: whether it is inside a function's body

    // A `{` after `)` (or `) const`, `) noexcept` ...) opens a function's body; every brace in one
    // is in a function too. Directives are left out.
    void track_scope(size_t i)
    {
        if (T[i].pp || T[i].kind != Tok::Punct) return;
        if (is(i, "{")) {
            bool body = !in_function.empty() && in_function.back();
            for (size_t k = i; !body && k-- > 0 && !T[k].pp;) {
                if (is(k, ")")) body = true;
                if (!(is(k, "const") || is(k, "noexcept") || is(k, "override") || is(k, "final") || is(k, "mutable") ||
                      is(k, "volatile")))
                    break;
            }
            in_function.push_back(body);
        } else if (is(i, "}") && !in_function.empty()) {
            in_function.pop_back();
        }
    }

    bool is(size_t k, std::string_view s) const { return k < T.size() && T.s(k) == s; } // s: not empty
    char punct(size_t k) const { return T[k].kind == Tok::Punct && T.s(k).size() == 1 ? T.s(k)[0] : 0; }
    bool glued(size_t k) const { return S.sk(T[k].e) == T[k + 1].b; } // no space between k and k + 1
    bool triple(size_t k, std::string_view c) const                   // `ccc`
    {
        return is(k, c) && is(k + 1, c) && is(k + 2, c) && glued(k) && glued(k + 1);
    }
    bool launch_at(size_t k) const { return triple(k, "<") && !(k > 0 && is(k - 1, "operator")); }
    bool same(size_t k, size_t i) const { return k < T.size() && T[k].region == T[i].region; }

    // ---- backwards, for the kernel expression (-1: none) ----
    bool bk(long k, std::string_view s) const { return k >= lo && is(k, s); }
    bool name_tok(long k, bool cast_ok) const
    {
        if (k < lo || T[k].kind != Tok::Ident) return false;
        const std::string_view w = T.s(k);
        return !keyword(w) || (cast_ok && w.size() > 5 && w.compare(w.size() - 5, 5, "_cast") == 0);
    }
    long open_of(long k) const // k closes a bracket: where it opens
    {
        std::string closers;
        for (; k >= lo; --k) {
            char c = punct(k);
            if (c == ')' || c == ']' || c == '}') closers += c;
            if (c == '(' || c == '[' || c == '{') {
                if (closers.empty() || closers.back() != (c == '(' ? ')' : c + 2)) return -1;
                closers.pop_back();
                if (closers.empty()) return k;
            }
        }
        return -1;
    }
    long angle_open(long k) const // k closes a template argument list: its `<`
    {
        for (int depth = 0; k >= lo; --k) {
            if (bk(k, ">"))
                ++depth;
            else if (bk(k, "<") && --depth == 0)
                return k;
            else if (bk(k, ")") || bk(k, "]") || bk(k, "}")) {
                if ((k = open_of(k)) < 0) return -1;
            } else if (bk(k, "(") || bk(k, "[") || bk(k, "{") || bk(k, ";"))
                return -1;
        }
        return -1;
    }
    long name(long k) const // an identifier or a template-id ending at k
    {
        if (name_tok(k, false)) return k;
        long o = bk(k, ">") ? angle_open(k) : -1;
        return o > 0 && name_tok(o - 1, true) ? o - 1 : -1;
    }
    // A name, `this`, or a parenthesized expression, call or subscript, ending at k. Calls and
    // subscripts are followed down to their callee (a loop: there may be 100,000 of them); where the
    // callee is not one, the innermost parenthesized expression `(e)` found on the way is the unit.
    long unit(long k) const
    {
        long paren = -1;
        while (bk(k, ")") || bk(k, "]")) {
            long o = open_of(k);
            if (o < 0) break;
            if (is(k, ")") && o + 1 < k) paren = o; // not `()`
            bool callee = o > lo && (T[o - 1].kind == Tok::Ident || is(o - 1, ">") || is(o - 1, "]") ||
                                     (is(k, "]") && is(o - 1, ")")));
            if (!callee) return paren;
            k = o - 1;
        }
        long c = bk(k, ")") || bk(k, "]") ? -1 : bk(k, "this") ? k : name(k);
        return c >= 0 ? c : paren;
    }
    long expr_start(long k) const
    {
        long s = unit(k);
        while (s >= 0) {
            if (bk(s - 1, "template") && (bk(s - 2, "::") || bk(s - 2, ".") || bk(s - 2, "->")))
                --s;
            else if (bk(s - 1, "#") && bk(s - 2, "#") && glued(s - 2) && s - 3 >= lo && T[s - 3].kind <= Tok::Number)
                s -= 3; // `a ## b` in a macro
            else if (bk(s - 1, "::")) {
                long q = name(s - 2);
                if (q < 0) return s - 1; // the global namespace
                s = q;
            } else if (bk(s - 1, ".") || bk(s - 1, "->"))
                s = unit(s - 2);
            else
                break;
        }
        return s;
    }

    // ---- forwards ----
    // From j, over balanced brackets, to the `>>>` (cfg) or the `)` (arguments) at depth 0 of launch i.
    size_t scan(size_t j, size_t i, bool cfg) const
    {
        std::string open;
        size_t braces = 0; // the `{` in open
        for (; same(j, i); ++j) {
            if (launch_at(j))
                throw Error{T[j].b, "a launch inside another launch's configuration or arguments; "
                                    "make it a statement of its own"};
            if (cfg && open.empty() && triple(j, ">")) return j;
            char c = punct(j);
            if (c == '(' || c == '[' || c == '{')
                open += c, braces += c == '{';
            else if (c == ')' && open.empty() && !cfg)
                return j;
            else if (c == ')' || c == ']' || c == '}') {
                if (open.empty() || c != (open.back() == '(' ? ')' : open.back() + 2)) break;
                open.pop_back(), braces -= c == '}';
            } else if (c == ';' && braces == 0)
                break;
        }
        std::string why = cfg ? "launch configuration not closed by `>>>`; end it with `>>>` before the argument list"
                              : "unbalanced argument list; close the kernel's arguments with a matching `)`";
        if (!same(j, i) && j < T.size()) why += " (a launch cannot span a preprocessor directive or outlast its macro)";
        throw Error{T[i].b, why};
    }
    size_t close_of(size_t k, size_t i) const // k opens a bracket: where it closes, or npos
    {
        int depth = 0;
        for (; same(k, i); ++k) {
            char c = punct(k);
            depth += (c == '(' || c == '[' || c == '{') - (c == ')' || c == ']' || c == '}');
            if (depth == 0) return k;
        }
        return npos;
    }

    // ---- output ----
    std::string text(const Tok& t) const
    {
        if (t.kind == Tok::Raw) return S.s.substr(t.b, t.e - t.b);
        std::string r;
        for (size_t i = t.b; i < t.e; i = S.nx(i)) r += S.s[i];
        return r;
    }
    // The source [from, to) holding tokens [k, kend), on one line: a gap with a line break or a line
    // splice is a space, a gap of splices alone is none (`+\<newline>+` stays `++`).
    std::string flat(size_t from, size_t to, size_t k, size_t kend) const
    {
        std::string out;
        auto gap = [&](size_t x, size_t y) {
            bool brk = S.sk(x) != x, blank = true;
            for (size_t i = S.sk(x); i < y; i = S.nx(i)) brk = brk || S.eol(i) || S.nx(i) != i + 1, blank = false;
            out += blank ? std::string_view() : brk ? " " : std::string_view(S.s).substr(x, y - x);
        };
        for (; k < kend; from = T[k++].e) gap(from, T[k].b), out += text(T[k]);
        gap(from, to);
        return out;
    }
    Edit finish(size_t b, size_t e, std::string text, bool pp) const // adds the line breaks the text lost
    {
        for (long k = long(breaks(std::string_view(S.s).substr(b, e - b))) - long(breaks(text)); k > 0; --k)
            text += pp ? "\\\n" : "\n";
        return {b, e, std::move(text)};
    }

    Edit launch(size_t i, size_t& end)
    {
        long s = expr_start(static_cast<long>(i) - 1);
        if (s < 0)
            throw Error{T[i].b, "no kernel expression before `<<<`; name the kernel, or parenthesize the expression "
                                "that gives it: `(expr)<<<...>>>(...)`"};
        size_t g = scan(i + 3, i, true);
        size_t a = g + 3;
        if (!same(a, i) || !is(a, "("))
            throw Error{T[i].b, "`>>>` not followed by `(`; give the kernel's arguments in parentheses after `>>>`, "
                                "`()` if none"};
        end = scan(a + 1, i, false);
        // `:`, `<` or `%` right before would make `:::`, `<:` or `%:` of the `::` the text starts with.
        const char before = s > 0 && glued(size_t(s) - 1) ? S.s[T[size_t(s) - 1].e - 1] : ' ';
        std::string t = std::string(before == ':' || before == '<' || before == '%' ? " " : "") +
                        "::hip_cpu_launch_kernel(::hip_cpu_launch_config(" + flat(T[i + 2].e, T[g].b, i + 3, g) +
                        "), [&]() { " + flat(T[s].b, T[i - 1].e, s, i) + "(" + flat(T[a].e, T[end].b, a + 1, end) +
                        "); })";
        return finish(T[s].b, T[end].e, std::move(t), T[i].pp);
    }

    // The end of the macro argument starting at j of the call at i: a top-level `,` or the closing `)`.
    // `angles`: a `<` after a name opens a template argument list, whose commas are inside it.
    size_t argument_end(size_t j, size_t i, bool angles) const
    {
        int round = 0, angle = 0;
        for (; same(j, i); ++j) {
            const char c = punct(j);
            if (round == 0 && angle == 0 && (c == ',' || c == ')')) return j;
            if (c == '(' || c == '[' || c == '{') ++round;
            if (c == ')' || c == ']' || c == '}') --round;
            if (angles && round == 0 && c == '<' && j > 0 && T[j - 1].kind == Tok::Ident) ++angle;
            if (angles && round == 0 && c == '>' && angle > 0) --angle;
            if (round < 0 || (c == ';' && round == 0)) break;
        }
        throw Error{T[i].b, "hipLaunchKernelGGL's arguments have unbalanced brackets; close each one before the "
                            "call's `)`"};
    }

    Edit ggl_launch(size_t i, size_t& end)
    {
        size_t at[6]; // where each of kernel, grid, block, shared bytes, stream ends; then the arguments
        size_t j = i + 2;
        for (int k = 0; k < 5; ++k) {
            at[k] = argument_end(j, i, k == 0);
            if (at[k] == j || (k < 4 && is(at[k], ")")))
                throw Error{T[i].b, "hipLaunchKernelGGL has fewer than five arguments; give the kernel, grid, "
                                    "block, shared bytes and stream, then the kernel's arguments"};
            j = at[k] + 1;
        }
        end = is(at[4], ")") ? at[4] : scan(j, i, false);
        auto tokens = [&](size_t first, size_t last) { return flat(T[first].b, T[last].b, first, last); };
        auto arg = [&](int k) { return "(" + tokens(k == 0 ? i + 2 : at[k - 1] + 1, at[k]) + ")"; };
        const size_t a = at[4];
        std::string t = "::hip_cpu_launch_kernel(::hip_cpu_launch_config(" + arg(1) + ", " + arg(2) + ", " + arg(3) +
                        ", " + arg(4) + "), [&]() { " + arg(0) + "(" +
                        (end == a || a + 1 == end ? std::string() : tokens(a + 1, end)) + "); })";
        return finish(T[i].b, T[end].e, std::move(t), T[i].pp);
    }

    // In a function, a plain pointer (each lane reads this block's buffer from the runtime's
    // thread-local state); at namespace scope, a thread-local one, set once per thread.
    Edit shared(size_t i, size_t& end, bool local)
    {
        Error bad{T[i].b, "dynamic shared memory is declared as `extern __shared__ T name[];`; declare one unsized "
                          "array per declaration (or drop `extern` for an array of fixed size)"};
        std::vector<size_t> keep; // the tokens left when the attributes are dropped
        for (end = i + 2;; ++end) {
            if (!same(end, i) || is(end, "{") || is(end, "}")) throw bad;
            if (is(end, ";")) break;
            bool attr = is(end + 1, "(") && (is(end, "__align__") || is(end, "alignas") || is(end, "__attribute__") ||
                                             is(end, "__declspec"));
            if (attr || (is(end, "[") && is(end + 1, "["))) {
                if ((end = close_of(end + attr, i)) == npos) throw bad;
            } else
                keep.push_back(end);
        }
        size_t n = keep.size();
        if (n < 4 || !is(keep[n - 1], "]") || !is(keep[n - 2], "[") || T[keep[n - 3]].kind != Tok::Ident ||
            keyword(T.s(keep[n - 3])))
            throw bad;
        std::string type;
        for (size_t k = 0, depth = 0; k + 3 < n; ++k) {
            const Tok& t = T[keep[k]];
            if (is(keep[k], "[") || is(keep[k], "]") || is(keep[k], "=") || (depth == 0 && is(keep[k], ","))) throw bad;
            depth += is(keep[k], "<") || is(keep[k], "(");
            depth -= depth > 0 && (is(keep[k], ">") || is(keep[k], ")"));
            if (k > 0 && (keep[k - 1] + 1 != keep[k] || S.sk(T[keep[k - 1]].e) != t.b)) type += ' ';
            type += text(t);
        }
        std::string t = (local ? "" : "static thread_local ") + type + "* const " + std::string(T.s(keep[n - 3])) +
                        " = ::hip_cpu_dynamic_shared();";
        return finish(T[i].b, T[end].e, std::move(t), T[i].pp);
    }
};

const char* usage = "usage: wavebench-hip-rewrite [--preprocessed] INPUT OUTPUT\n"
                    "Rewrites a HIP source for g++ and the wavebench CPU runtime: kernel launches\n"
                    "`k<<<...>>>(...)` and `extern __shared__ T name[];`. OUTPUT `-` is standard output.\n"
                    "--preprocessed: INPUT is `g++ -E -D__HIP_CPU_REWRITE__` output (wavebench-hipcc's).\n"
                    "Exit status: 0 done, 1 the source cannot be read or rewritten (nothing is written),\n"
                    "2 bad usage (an OUTPUT that is the INPUT included).\n";

/// The output: `bom`, the `#line` directive naming `input` (a C string: `\`, `"` and control
/// characters escaped), then the rewritten source.
std::string position(const std::string& input, const std::string& src, size_t at, bool preprocessed);

/// The source rewritten, appended to `out`; the region marks' notes are printed as warnings.
void rewrite(const std::string& input, const std::string& src, bool preprocessed, std::string& out)
{
    Src S{src};
    const Toks T = lex(S);
    std::vector<std::pair<size_t, std::string>> notes;
    std::vector<Insert> marks;
    try {
        marks = region_marks(S, T, preprocessed, notes);
    } catch (const RegionError& e) {
        throw Error{e.at, e.what};
    }
    for (const auto& [at, what] : notes)
        std::cerr << position(input, src, at, preprocessed) << ": warning: " << what << "\n";
    Rewriter(S, T).run(out, marks);
}

std::string rewritten(const std::string& input, const std::string& src, const std::string& bom, bool preprocessed)
{
    if (preprocessed) {
        std::string out = bom;
        rewrite(input, src, true, out);
        return out;
    }
    std::string out = bom + "#line 1 \"";
    for (char c : input) {
        char esc[8];
        const auto u = static_cast<unsigned char>(c);
        std::snprintf(esc, sizeof esc, c == '\\' || c == '"' ? "\\%c" : u < 0x20 || u == 0x7f ? "\\%03o" : "%c", u);
        out += esc;
    }
    out += "\"\n";
    rewrite(input, src, false, out);
    return out;
}

/// Where offset `at` of `src` is, as `FILE:LINE:COLUMN`: in `input`, or where the last line marker
/// of preprocessed input (`# LINE "FILE"` at a line's start) before it says.
std::string position(const std::string& input, const std::string& src, size_t at, bool preprocessed)
{
    const Src S{src};
    size_t line_start = at;
    while (line_start > 0 && !S.eol(line_start - 1)) --line_start;
    std::string file = input;
    size_t line = 1 + breaks(std::string_view(src).substr(0, at));
    for (size_t b = line_start; preprocessed && b > 0;) { // the marker: the line it names is the next one
        size_t e = b - 1;
        b = e;
        while (b > 0 && !S.eol(b - 1)) --b;
        unsigned long n = 0;
        char name[4096];
        if (src[b] == '#' && std::sscanf(src.c_str() + b, "# %lu \"%4095[^\"]\"", &n, name) == 2) {
            file = name;
            line = n + breaks(std::string_view(src).substr(e, line_start - e)) - 1;
            break;
        }
    }
    return shown(file) + ":" + std::to_string(line) + ":" + std::to_string(at - line_start + 1);
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
        std::cout << usage;
        return 0;
    }
    const bool preprocessed = !args.empty() && args[0] == "--preprocessed";
    if (preprocessed) args.erase(args.begin());
    bool option = args.size() == 2 &&
                  (args[0].empty() || args[0][0] == '-' || args[1].empty() || (args[1][0] == '-' && args[1] != "-"));
    if (args.size() != 2 || option) {
        std::cerr << "wavebench-hip-rewrite: expected an input file and an output file (or -)\n" << usage;
        return 2;
    }
    const std::string &input = args[0], &output = args[1];
    struct stat st {};
    if (output != "-" && ::stat(output.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) { // renamed over: /dev/null
        std::cerr << "wavebench-hip-rewrite: OUTPUT '" << shown(output) << "' is " << special(st)
                  << ": name a regular file, or - for standard output\n";
        return 2;
    }
    if (output != "-" && same_file(input, output)) {
        const bool as_given = input == output;
        std::cerr << "wavebench-hip-rewrite: OUTPUT '" << shown(output) << "' is "
                  << (as_given ? "" : "the same file as ") << "the input of this command"
                  << (as_given ? "" : " ('" + shown(input) + "')") << ": it would be overwritten; name another file\n";
        return 2;
    }
    std::string src, out, why;
    if (!read_source(input, src, why)) {
        std::cerr << shown(input) << ": error: " << why << "\n";
        return 1;
    }
    // A byte order mark is skipped by g++ at the start of a file only: it stays first, before `#line`.
    const std::string bom = src.compare(0, 3, "\xef\xbb\xbf") == 0 ? src.substr(0, 3) : "";
    src.erase(0, bom.size());
    try {
        out = rewritten(input, src, bom, preprocessed);
    } catch (const Error& e) {
        std::cerr << position(input, src, e.at, preprocessed) << ": error: " << e.what << "\n";
        return 1;
    } catch (const std::bad_alloc&) {
        std::cerr << shown(input) << ": error: out of memory rewriting it; split the source\n";
        return 1;
    }
    if (output == "-" ? !(std::cout.write(out.data(), static_cast<long>(out.size())) && std::cout.flush())
                      : !write_file(output, out, why)) {
        std::cerr << shown(output) << ": error: " << (why.empty() ? "cannot write standard output" : why) << "\n";
        return 1;
    }
    return 0;
}
