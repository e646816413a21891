// wavebench-hip-rewrite: turns a HIP source into one that g++ compiles against the CPU runtime.
//
// Usage: wavebench-hip-rewrite INPUT OUTPUT    (OUTPUT "-": standard output)
//
// The output is INPUT byte for byte, preceded by `#line 1 "INPUT"`, except for two rewrites:
//   E<<<CFG>>>(ARGS)
//     -> ::hip_cpu_launch_kernel(::hip_cpu_launch_config(CFG), [&]() { E(ARGS); })
//   extern __shared__ ATTRS TYPE NAME[];      (ATTRS: __align__(N), alignas(N), __attribute__((..)), [[..]])
//     -> static thread_local TYPE* const NAME = ::hip_cpu_dynamic_shared();
// A replaced span is written on one line (comments and line breaks in it become a space, raw strings
// stay as they are) and followed by the line breaks it had (`\`-continued inside a directive), so
// every other line keeps its number. `<<<` in comments, strings, raw strings and character literals,
// and `operator<<<`, are left alone. Code that the preprocessor skips (`#if 0`) is rewritten too.
//
// E is the postfix expression before `<<<`: an identifier, a template-id, a qualified name
// (`ns::k`, `::k`, `ns::template k<T>`), member access (`o.k`, `p->k`, `o.a[i]`), a parenthesized
// expression, a call or a subscript (`get()`, `table[i]`), `a ## b` in a macro. Refused (exit 1,
// nothing written, a message `INPUT:LINE:COL: error: ...`): no such expression before `<<<`, a
// configuration not closed by `>>>`, `>>>` not followed by `(`, an unbalanced argument list, a launch
// inside a launch, a launch broken by a preprocessor directive, and an `extern __shared__` not of the
// form `T name[];`.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

constexpr size_t npos = std::string::npos;

struct Tok {
    enum Kind { Ident, Number, Literal, Raw, Punct } kind;
    size_t b, e;   // the source bytes [b, e); b is never inside a line splice
    int region;    // one directive, one #define's body, or the code between two directives
    bool pp;       // in a preprocessor directive
    std::string s; // Ident and Punct: the spelling without line splices
};

struct Error {
    size_t at;
    std::string what;
};
struct Edit {
    size_t b, e;
    std::string text;
}; // the source [b, e) becomes text

bool digit(char c) { return c >= '0' && c <= '9'; }
bool ident_char(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || static_cast<unsigned char>(c) >= 0x80;
}

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

struct Src {
    const std::string& s;
    size_t n() const { return s.size(); }
    char at(size_t i) const { return i < s.size() ? s[i] : '\0'; }
    size_t sk(size_t i) const // i moved past the line splices (backslash, newline) that start there
    {
        while (at(i) == '\\') {
            size_t j = i + 1 + (at(i + 1) == '\r');
            if (at(j) != '\n') break;
            i = j + 1;
        }
        return i;
    }
    size_t nx(size_t i) const { return sk(i + 1); } // the next character after the one at i
    size_t quoted(size_t q) const                   // the end of the string or character literal opened at q
    {
        for (size_t i = nx(q); i < n();) {
            char c = s[i];
            if (c == s[q]) return i + 1;
            if (c == '\n') return i; // unterminated: g++ says so
            i = nx(i);
            if (c == '\\' && i < n() && s[i] != '\n') i = nx(i); // the escaped character
        }
        return n();
    }
};

/// The pp-number that starts at p, with digit separators and exponent signs: its last character,
/// and where the scan stopped.
std::pair<size_t, size_t> pp_number(const Src& S, size_t p)
{
    size_t last = p, r = S.nx(p);
    for (char prev = S.s[p]; r < S.n();) {
        char d = S.s[r];
        size_t r2 = S.nx(r);
        bool sign = (d == '+' || d == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P');
        if (d == '\'' && r2 < S.n() && ident_char(S.s[r2]))
            d = S.s[r = r2], r2 = S.nx(r);
        else if (!ident_char(d) && d != '.' && !sign)
            break;
        prev = d, last = r, r = r2;
    }
    return {last, r};
}

std::vector<Tok> lex(const Src& S)
{
    std::vector<Tok> out;
    int region = 0, state = -1; // in a directive: 0 after `#`, 1 macro name, 2 its parameters, 3 header name, 4 rest
    bool pp = false, line_start = true;
    auto emit = [&](Tok::Kind k, size_t b, size_t e) {
        Tok t{k, b, e, region, pp, {}};
        if (k == Tok::Ident || k == Tok::Punct)
            for (size_t i = b; i < e; i = S.nx(i)) t.s += S.s[i];
        out.push_back(t);
        line_start = false;
        if (state == 0)
            state = t.s == "define" ? 1 : (t.s == "include" || t.s == "include_next" || t.s == "import") ? 3 : 4;
        else if (state == 1 && k == Tok::Ident && S.at(S.sk(e)) == '(')
            state = 2;
        else if (state == 1 || (state == 2 && t.s == ")"))
            state = 4, ++region; // the macro's body is a region of its own
        else if (state == 3)
            state = 4;
    };
    for (size_t p = S.sk(0); p < S.n();) {
        char c = S.s[p];
        size_t q = S.nx(p);
        if (c == '\n') {
            if (pp) pp = false, ++region, state = -1;
            line_start = true, p = q;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            p = q;
        } else if (c == '/' && S.at(q) == '/') {
            while (p < S.n() && S.s[p] != '\n') p = S.nx(p);
        } else if (c == '/' && S.at(q) == '*') {
            for (p = S.nx(q); p < S.n() && !(S.s[p] == '*' && S.at(S.nx(p)) == '/');) p = S.nx(p);
            p = p < S.n() ? S.nx(S.nx(p)) : p;
        } else if (c == '#' && line_start && !pp) {
            ++region, pp = true;
            emit(Tok::Punct, p, p + 1);
            state = 0, p = q;
        } else if (c == '<' && state == 3) {
            size_t r = q;
            while (r < S.n() && S.s[r] != '>' && S.s[r] != '\n') r = S.nx(r);
            size_t e = S.at(r) == '>' ? r + 1 : r;
            emit(Tok::Literal, p, e);
            p = S.sk(e);
        } else if (ident_char(c) && !digit(c)) {
            std::string id;
            size_t r = p, last = p;
            for (; r < S.n() && ident_char(S.s[r]); r = S.nx(r)) id += S.s[r], last = r;
            bool raw = S.at(r) == '"' && (id == "R" || id == "u8R" || id == "uR" || id == "UR" || id == "LR");
            size_t open = raw ? S.s.find('(', r) : npos, e = npos;
            if (open != npos && open - r <= 17 && S.s.find_first_of(" \t\v\f\r\n\\)\"", r + 1) >= open) {
                std::string close = ")" + S.s.substr(r + 1, open - r - 1) + "\"";
                size_t end = S.s.find(close, open + 1); // no line splices in a raw string
                emit(Tok::Raw, p, e = end == npos ? S.n() : end + close.size());
            } else if ((S.at(r) == '"' || S.at(r) == '\'') &&
                       (raw || id == "u8" || id == "u" || id == "U" || id == "L")) {
                emit(Tok::Literal, p, e = S.quoted(r));
            } else {
                emit(Tok::Ident, p, last + 1);
            }
            p = e == npos ? r : S.sk(e);
        } else if (c == '"' || c == '\'') {
            size_t e = S.quoted(p);
            emit(Tok::Literal, p, e);
            p = S.sk(e);
        } else if (digit(c) || (c == '.' && digit(S.at(q)))) {
            const auto [last, r] = pp_number(S, p);
            emit(Tok::Number, p, last + 1);
            p = r;
        } else {
            bool two = (c == ':' && S.at(q) == ':') || (c == '-' && S.at(q) == '>');
            emit(Tok::Punct, p, two ? q + 1 : p + 1);
            p = two ? S.nx(q) : q;
        }
    }
    return out;
}

class Rewriter {
public:
    Rewriter(const Src& S, const std::vector<Tok>& T) : S(S), T(T) {}

    std::string run()
    {
        std::vector<Edit> edits;
        for (size_t i = 0; i < T.size(); ++i) {
            if (i > 0 && T[i].region != T[i - 1].region) lo = static_cast<long>(i);
            size_t end = i;
            if (launch_at(i))
                edits.push_back(launch(i, end));
            else if (is(i, "extern") && is(i + 1, "__shared__"))
                edits.push_back(shared(i, end));
            else
                continue;
            if (edits.size() > 1 && edits.back().b < edits[edits.size() - 2].e)
                throw Error{T[i].b, "the kernel expression overlaps the launch before it; parenthesize the kernel"};
            i = end;
        }
        std::string out;
        size_t at = 0;
        for (const Edit& e : edits) out.append(S.s, at, e.b - at) += e.text, at = e.e;
        return out.append(S.s, at);
    }

private:
    const Src& S;
    const std::vector<Tok>& T;
    long lo = 0; // the first token of the region being rewritten

    bool is(size_t k, std::string_view s) const { return k < T.size() && T[k].s == s; } // s: not empty
    char punct(size_t k) const { return T[k].kind == Tok::Punct && T[k].s.size() == 1 ? T[k].s[0] : 0; }
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
        const std::string& w = T[k].s;
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
    long unit(long k) const // a name, `this`, or a parenthesized expression, call or subscript, ending at k
    {
        if (bk(k, "this")) return k;
        if (!bk(k, ")") && !bk(k, "]")) return name(k);
        long o = open_of(k);
        if (o < 0) return -1;
        bool callee = o > lo && (T[o - 1].kind == Tok::Ident || is(o - 1, ">") || is(o - 1, "]") ||
                                 (is(k, "]") && is(o - 1, ")")));
        long c = callee ? unit(o - 1) : -1;
        return c >= 0 ? c : is(k, ")") && o + 1 < k ? o : -1; // not `()`
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
        for (; same(j, i); ++j) {
            if (launch_at(j))
                throw Error{T[j].b, "a launch inside another launch's configuration or arguments; "
                                    "make it a statement of its own"};
            if (cfg && open.empty() && triple(j, ">")) return j;
            char c = punct(j);
            if (c == '(' || c == '[' || c == '{')
                open += c;
            else if (c == ')' && open.empty() && !cfg)
                return j;
            else if (c == ')' || c == ']' || c == '}') {
                if (open.empty() || c != (open.back() == '(' ? ')' : open.back() + 2)) break;
                open.pop_back();
            } else if (c == ';' && open.find('{') == npos)
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
    // The source [from, to) holding tokens [k, kend), on one line: a gap with a line break is a space.
    std::string flat(size_t from, size_t to, size_t k, size_t kend) const
    {
        std::string out;
        auto gap = [&](size_t x, size_t y) {
            std::string_view g(S.s.data() + x, y - x);
            if (g.find('\n') == npos)
                out += g;
            else
                out += ' ';
        };
        for (; k < kend; from = T[k++].e) gap(from, T[k].b), out += text(T[k]);
        gap(from, to);
        return out;
    }
    Edit finish(size_t b, size_t e, std::string text, bool pp) const // adds the line breaks the text lost
    {
        auto lines = [](std::string_view v) { return std::count(v.begin(), v.end(), '\n'); };
        for (long k = lines(std::string_view(S.s).substr(b, e - b)) - lines(text); k > 0; --k)
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
        std::string t = "::hip_cpu_launch_kernel(::hip_cpu_launch_config(" + flat(T[i + 2].e, T[g].b, i + 3, g) +
                        "), [&]() { " + flat(T[s].b, T[i - 1].e, s, i) + "(" + flat(T[a].e, T[end].b, a + 1, end) +
                        "); })";
        return finish(T[s].b, T[end].e, std::move(t), T[i].pp);
    }

    Edit shared(size_t i, size_t& end)
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
            keyword(T[keep[n - 3]].s))
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
        std::string t =
            "static thread_local " + type + "* const " + T[keep[n - 3]].s + " = ::hip_cpu_dynamic_shared();";
        return finish(T[i].b, T[end].e, std::move(t), T[i].pp);
    }
};

bool write_file(const std::string& path, const std::string& data, std::string& why)
{
    namespace fs = std::filesystem;
    fs::path out(path);
    std::random_device rd;
    for (int attempt = 0; attempt < 16; ++attempt) {
        fs::path tmp = out;
        tmp += ".tmp-" + std::to_string(rd());
        FILE* f = std::fopen(tmp.c_str(), "wbx"); // created here, or fails if it exists
        if (!f) continue;
        bool ok = std::fwrite(data.data(), 1, data.size(), f) == data.size();
        ok = std::fclose(f) == 0 && ok;
        std::error_code ec;
        if (ok) fs::rename(tmp, out, ec);
        if (ok && !ec) return true;
        fs::remove(tmp, ec);
        why = "cannot write it";
        return false;
    }
    why = "cannot create a file in its folder";
    return false;
}

const char* usage = "usage: wavebench-hip-rewrite INPUT OUTPUT\n"
                    "Rewrites a HIP source for g++ and the wavebench CPU runtime: kernel launches\n"
                    "`k<<<...>>>(...)` and `extern __shared__ T name[];`. OUTPUT `-` is standard output.\n"
                    "Exit status: 0 done, 1 the source cannot be rewritten (nothing is written), 2 bad usage.\n";

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
        std::cout << usage;
        return 0;
    }
    bool option = args.size() == 2 &&
                  (args[0].empty() || args[0][0] == '-' || args[1].empty() || (args[1][0] == '-' && args[1] != "-"));
    if (args.size() != 2 || option) {
        std::cerr << "wavebench-hip-rewrite: expected an input file and an output file (or -)\n" << usage;
        return 2;
    }
    const std::string& input = args[0];
    std::ifstream in(input, std::ios::binary);
    std::string src(std::istreambuf_iterator<char>(in), {}), out = "#line 1 \"";
    std::error_code ec;
    if (!in || in.bad() || std::filesystem::is_directory(input, ec)) {
        std::cerr << input << ": error: cannot read the file; check the path\n";
        return 1;
    }
    for (char c : input) {
        if (c == '\\' || c == '"' || c == '\n') out += '\\';
        out += c == '\n' ? 'n' : c;
    }
    out += "\"\n";
    try {
        Src S{src};
        out += Rewriter(S, lex(S)).run();
    } catch (const Error& e) {
        size_t line_start = e.at == 0 ? 0 : src.rfind('\n', e.at - 1) + 1; // npos + 1 == 0
        long line = 1 + std::count(src.begin(), src.begin() + static_cast<long>(e.at), '\n');
        std::cerr << input << ":" << line << ":" << e.at - line_start + 1 << ": error: " << e.what << "\n";
        return 1;
    }
    std::string why;
    if (args[1] == "-" ? !(std::cout.write(out.data(), static_cast<long>(out.size())) && std::cout.flush())
                       : !write_file(args[1], out, why)) {
        std::cerr << args[1] << ": error: " << (why.empty() ? "cannot write standard output" : why) << "\n";
        return 1;
    }
    return 0;
}
