// The tokenizer of wavebench-hip-rewrite: see hip_rewrite_lex.h.
#include "hip_rewrite_lex.h"

#include <utility>

namespace hip_rewrite {
namespace {

/// The pp-number that starts at p, with digit separators, exponent signs and UCNs: its last
/// character, and where the scan stopped.
std::pair<size_t, size_t> pp_number(const Src& S, size_t p)
{
    size_t last = p, r = S.nx(p);
    for (char prev = S.s[p]; r < S.n();) {
        char d = S.s[r];
        size_t r2 = S.nx(r), u = S.ucn(r);
        bool sign = (d == '+' || d == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P');
        if (d == '\'' && r2 < S.n() && ident_char(S.s[r2]))
            d = S.s[r = r2], r2 = S.nx(r);
        else if (u != npos)
            d = '_', r = u, r2 = S.nx(u);
        else if (!ident_char(d) && d != '.' && !sign)
            break;
        prev = d, last = r, r = r2;
    }
    return {last, r};
}

/// A punctuator at p: its end, and what it stands for if it is a digraph (`<:` `:>` `<%` `%>` `%:`).
std::pair<size_t, const char*> punctuator(const Src& S, size_t p)
{
    const char c = S.s[p];
    const size_t q = S.nx(p), q2 = S.nx(q);
    const char d = S.at(q);
    if ((c == ':' && d == ':') || (c == '-' && d == '>')) return {q + 1, nullptr};
    const char after = S.at(S.nx(q2)); // `<::` is `<` then `::` unless `:` or `>` follows
    if (c == '<' && d == ':' && !(S.at(q2) == ':' && after != ':' && after != '>')) return {q + 1, "["};
    if (c == ':' && d == '>') return {q + 1, "]"};
    if (c == '<' && d == '%') return {q + 1, "{"};
    if (c == '%' && d == '>') return {q + 1, "}"};
    if (c == '%' && d == ':') return {q + 1, "#"};
    return {p + 1, nullptr};
}

/// The identifier that starts at p, or the literal it prefixes (`u8"..."`, `R"d(...)d"`): emitted;
/// returns where the scan goes on.
template <class Emit> size_t identifier(const Src& S, size_t p, Emit& emit)
{
    size_t r = p, last = p;
    for (size_t u; r < S.n() && (u = S.ident_end(r)) != npos; r = S.nx(u)) last = u;
    const char quote = S.at(r);
    if (quote != '"' && quote != '\'') {
        emit(Tok::Ident, p, last + 1);
        return r;
    }
    const std::string id = r - p <= 16 ? S.spell(p, last + 1) : "";
    const bool raw = quote == '"' && (id == "R" || id == "u8R" || id == "uR" || id == "UR" || id == "LR");
    size_t open = npos; // the raw string's `(`, after a delimiter of at most 16 characters
    for (size_t x = r + 1; raw && x < S.n() && x <= r + 17; ++x) {
        if (S.s[x] == '(') open = x;
        if (S.s[x] == '(' || std::string_view(" \t\v\f\r\n\\)\"").find(S.s[x]) != npos) break;
    }
    size_t e;
    if (open != npos) {
        std::string close(1, ')');
        close.append(S.s, r + 1, open - r - 1) += '"';
        size_t end = S.s.find(close, open + 1); // no line splices in a raw string
        emit(Tok::Raw, p, e = end == npos ? S.n() : end + close.size());
    } else if (raw || id == "u8" || id == "u" || id == "U" || id == "L") {
        emit(Tok::Literal, p, e = S.quoted(r));
    } else {
        emit(Tok::Ident, p, last + 1);
        return r;
    }
    return S.sk(e);
}

} // namespace

Toks lex(const Src& S)
{
    Toks T{S, {}, {}};
    uint32_t region = 0;
    int state = -1; // in a directive: 0 after `#`, 1 macro name, 2 its parameters, 3 header name, 4 rest
    bool pp = false, line_start = true;
    auto emit = [&](Tok::Kind k, size_t b, size_t e, const char* digraph = nullptr) {
        const bool spelled = digraph || ((k == Tok::Ident || k == Tok::Punct) && S.spliced(b, e));
        Tok t{k, pp, spelled, uint32_t(b), uint32_t(e), region};
        if (t.spelled) T.alt[T.size()] = digraph ? std::string(digraph) : S.spell(b, e);
        T.v.push_back(t);
        const std::string_view w = T.s(T.size() - 1);
        line_start = false;
        if (state == 0)
            state = w == "define" ? 1 : (w == "include" || w == "include_next" || w == "import") ? 3 : 4;
        else if (state == 1 && k == Tok::Ident && S.at(S.sk(e)) == '(')
            state = 2;
        else if (state == 1 || (state == 2 && w == ")"))
            state = 4, ++region; // the macro's body is a region of its own
        else if (state == 3)
            state = 4;
    };
    for (size_t p = S.sk(0); p < S.n();) {
        char c = S.s[p];
        size_t q = S.nx(p);
        if (S.eol(p)) {
            if (pp) pp = false, ++region, state = -1;
            line_start = true, p = q;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            p = q;
        } else if (c == '/' && S.at(q) == '/') {
            while (p < S.n() && !S.eol(p)) p = S.nx(p);
        } else if (c == '/' && S.at(q) == '*') {
            for (p = S.nx(q); p < S.n() && !(S.s[p] == '*' && S.at(S.nx(p)) == '/');) p = S.nx(p);
            p = p < S.n() ? S.nx(S.nx(p)) : p;
        } else if ((c == '#' || (c == '%' && S.at(q) == ':')) && line_start && !pp) {
            ++region, pp = true;
            emit(Tok::Punct, p, c == '#' ? p + 1 : q + 1, c == '#' ? nullptr : "#");
            state = 0, p = c == '#' ? q : S.nx(q);
        } else if (c == '<' && state == 3) {
            size_t r = q;
            while (r < S.n() && S.s[r] != '>' && !S.eol(r)) r = S.nx(r);
            size_t e = S.at(r) == '>' ? r + 1 : r;
            emit(Tok::Literal, p, e);
            p = S.sk(e);
        } else if ((ident_char(c) && !digit(c)) || S.ucn(p) != npos) {
            p = identifier(S, p, emit);
        } else if (c == '"' || c == '\'') {
            size_t e = S.quoted(p);
            emit(Tok::Literal, p, e);
            p = S.sk(e);
        } else if (digit(c) || (c == '.' && digit(S.at(q)))) {
            const auto [last, r] = pp_number(S, p);
            emit(Tok::Number, p, last + 1);
            p = r;
        } else {
            const auto [e, digraph] = punctuator(S, p);
            emit(Tok::Punct, p, e, digraph);
            p = S.sk(e);
        }
    }
    return T;
}

} // namespace hip_rewrite
