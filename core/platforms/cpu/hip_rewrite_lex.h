// The tokenizer of wavebench-hip-rewrite (hip_rewrite.cpp): a HIP source as g++'s preprocessor
// splits it (line splices, comments, literals, raw strings, digraphs, universal character names in
// identifiers), each token with its bytes, its spelling and the directive or macro body it is in.
#pragma once

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hip_rewrite {

constexpr size_t npos = std::string::npos;
constexpr size_t max_source = size_t(64) << 20; // what a source may weigh (its offsets fit 32 bits)

struct Tok {
    enum Kind : unsigned char { Ident, Number, Literal, Raw, Punct } kind;
    bool pp;         // in a preprocessor directive
    bool spelled;    // its spelling is not its bytes (a line splice in it, a digraph): Toks::alt holds it
    uint32_t b, e;   // the source bytes [b, e); b is never inside a line splice
    uint32_t region; // one directive, one #define's body, or the code between two directives
};

inline bool digit(char c) { return c >= '0' && c <= '9'; }
inline bool hex(char c) { return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
inline bool ident_char(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || static_cast<unsigned char>(c) >= 0x80;
}
/// The line breaks in `v`, as g++ counts them: \n, \r\n, or a \r alone.
inline size_t breaks(std::string_view v)
{
    size_t n = 0;
    for (size_t i = 0; i < v.size(); ++i)
        n += v[i] == '\n' || (v[i] == '\r' && (i + 1 == v.size() || v[i + 1] != '\n'));
    return n;
}

struct Src {
    const std::string& s;
    size_t n() const { return s.size(); }
    char at(size_t i) const { return i < s.size() ? s[i] : '\0'; }
    bool eol(size_t i) const { return at(i) == '\n' || (at(i) == '\r' && at(i + 1) != '\n'); } // a line break at i
    size_t sk(size_t i) const // i moved past the line splices (backslash, blanks g++ allows, newline) there
    {
        while (at(i) == '\\') {
            size_t j = i + 1;
            while (at(j) == ' ' || at(j) == '\t' || at(j) == '\f' || at(j) == '\v') ++j;
            j += at(j) == '\r' && at(j + 1) == '\n';
            if (!eol(j)) break;
            i = j + 1;
        }
        return i;
    }
    size_t nx(size_t i) const { return sk(i + 1); } // the next character after the one at i
    size_t ucn(size_t i) const // a universal character name (\uXXXX, \UXXXXXXXX) at i: its last digit, or npos
    {
        size_t j = nx(i), digits = at(j) == 'u' ? 4 : at(j) == 'U' ? 8 : 0;
        if (at(i) != '\\' || digits == 0) return npos;
        for (; digits > 0; --digits)
            if (!hex(at(j = nx(j)))) return npos;
        return j;
    }
    size_t ident_end(size_t i) const // the identifier character at i (a UCN is one): its last byte, or npos
    {
        return i < n() && ident_char(s[i]) ? i : ucn(i);
    }
    bool spliced(size_t b, size_t e) const // a line splice inside [b, e)
    {
        if (std::string_view(s).substr(b, e - b).find('\\') == npos) return false;
        for (size_t i = b; i < e; i = nx(i))
            if (nx(i) != i + 1 && nx(i) < e) return true;
        return false;
    }
    std::string spell(size_t b, size_t e) const // [b, e) without its line splices
    {
        std::string r;
        for (size_t i = b; i < e; i = nx(i)) r += s[i];
        return r;
    }
    size_t quoted(size_t q) const // the end of the string or character literal opened at q
    {
        for (size_t i = nx(q); i < n();) {
            char c = s[i];
            if (c == s[q]) return i + 1;
            if (eol(i)) return i; // unterminated: g++ says so
            i = nx(i);
            if (c == '\\' && i < n() && !eol(i)) i = nx(i); // the escaped character
        }
        return n();
    }
};

/// The tokens of a source, and the spelling of each identifier and punctuator.
struct Toks {
    const Src& S;
    std::vector<Tok> v;
    std::unordered_map<size_t, std::string> alt; // the tokens marked `spelled`
    size_t size() const { return v.size(); }
    const Tok& operator[](size_t k) const { return v[k]; }
    std::string_view s(size_t k) const // empty for numbers and literals; a digraph as what it stands for
    {
        const Tok& t = v[k];
        if (t.spelled) return alt.find(k)->second;
        if (t.kind != Tok::Ident && t.kind != Tok::Punct) return {};
        return std::string_view(S.s).substr(t.b, t.e - t.b);
    }
};

/// The tokens of `S`.
Toks lex(const Src& S);

} // namespace hip_rewrite
