#include "harness/history/db_url.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace wb {

namespace {

constexpr std::array<std::string_view, 2> schemes = {"postgresql://", "postgres://"};
constexpr std::string_view hidden = "***";
constexpr size_t npos = std::string_view::npos;

/// libpq's connection keywords (PQconndefaults of libpq 15, and those added up to 18): a KEY=VALUE
/// with one of them is a connection string.
constexpr std::array<std::string_view, 56> libpq_keywords = {"service",
                                                             "user",
                                                             "password",
                                                             "passfile",
                                                             "channel_binding",
                                                             "connect_timeout",
                                                             "dbname",
                                                             "host",
                                                             "hostaddr",
                                                             "port",
                                                             "client_encoding",
                                                             "options",
                                                             "application_name",
                                                             "fallback_application_name",
                                                             "keepalives",
                                                             "keepalives_idle",
                                                             "keepalives_interval",
                                                             "keepalives_count",
                                                             "tcp_user_timeout",
                                                             "sslmode",
                                                             "sslcompression",
                                                             "sslcert",
                                                             "sslkey",
                                                             "sslpassword",
                                                             "sslrootcert",
                                                             "sslcrl",
                                                             "sslcrldir",
                                                             "sslsni",
                                                             "requirepeer",
                                                             "ssl_min_protocol_version",
                                                             "ssl_max_protocol_version",
                                                             "gssencmode",
                                                             "krbsrvname",
                                                             "gsslib",
                                                             "replication",
                                                             "target_session_attrs",
                                                             "require_auth",
                                                             "load_balance_hosts",
                                                             "sslcertmode",
                                                             "gssdelegation",
                                                             "sslnegotiation",
                                                             "sslkeylogfile",
                                                             "oauth_issuer",
                                                             "oauth_client_id",
                                                             "oauth_client_secret",
                                                             "oauth_scope",
                                                             "min_protocol_version",
                                                             "max_protocol_version",
                                                             "scram_client_key",
                                                             "scram_server_key",
                                                             "requiressl",
                                                             "authtype",
                                                             "tty",
                                                             "uri",
                                                             "krb_srvname",
                                                             "sslcrl_dir"};

using ranges = std::vector<std::pair<size_t, size_t>>;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_key_char(char c) { return is_alpha(c) || (c >= '0' && c <= '9') || c == '_'; }
bool is_scheme_char(char c) { return is_key_char(c) || c == '+' || c == '-' || c == '.'; }

std::string lowercase(std::string_view s)
{
    std::string out(s);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

int hex(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string percent_decoded(std::string_view s)
{
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
            out += char(hex(s[i + 1]) * 16 + hex(s[i + 2]));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

/// Whether a key (of a URL's query, or KEY=VALUE) holds a secret: password, sslpassword,
/// oauth_client_secret, scram_client_key... (as libpq reads it: percent-decoded; in any case).
bool secret_key(std::string_view key)
{
    const std::string k = lowercase(percent_decoded(key));
    return k.find("password") != std::string::npos || k.find("secret") != std::string::npos ||
           k == "scram_client_key" || k == "scram_server_key";
}

/// Where each SCHEME:// in [from, to) begins, and its authority (after "://").
std::vector<std::pair<size_t, size_t>> urls_in(std::string_view text, size_t from, size_t to)
{
    std::vector<std::pair<size_t, size_t>> out;
    for (size_t p = text.find("://", from); p != npos && p < to; p = text.find("://", p + 3)) {
        size_t b = p;
        while (b > from && is_scheme_char(text[b - 1])) --b;
        while (b < p && !is_alpha(text[b])) ++b; // a scheme begins with a letter
        if (b < p) out.emplace_back(b, p + 3);
    }
    return out;
}

/// The passwords of the URL whose authority starts at `authority` and which ends at `end`: its
/// user information's (to the last '@' before `end`: hiding too much is safe) and its query's.
void url_passwords(std::string_view text, size_t authority, size_t end, ranges& out)
{
    const size_t at = end > authority ? text.rfind('@', end - 1) : npos;
    if (at != npos && at >= authority) {
        const size_t colon = text.find(':', authority);
        if (colon < at) out.emplace_back(colon + 1, at);
    }
    // ?password=...&...: every '?' or '&' may start a key (libpq decodes the keys: pass%77ord).
    for (size_t k = authority; k < end; ++k) {
        if (text[k] != '?' && text[k] != '&') continue;
        const size_t next = std::min(text.find('&', k + 1), end), eq = text.find('=', k + 1);
        if (eq < next && secret_key(text.substr(k + 1, eq - k - 1))) out.emplace_back(eq + 1, next);
    }
}

/// Where a KEY = VALUE that starts at `i` has its value (npos: none there), the key in `key`.
size_t keyword_value(std::string_view text, size_t i, size_t end, std::string_view& key)
{
    size_t p = i;
    while (p < end && is_key_char(text[p])) ++p;
    if (p == i) return npos;
    key = text.substr(i, p - i);
    while (p < end && (text[p] == ' ' || text[p] == '\t')) ++p;
    if (p == end || text[p] != '=') return npos;
    for (++p; p < end && (text[p] == ' ' || text[p] == '\t');) ++p;
    return p;
}

/// Where a libpq value that starts at `p` ends: a quoted one after its closing quote, another at
/// white space; a backslash escapes the next character in both (the end, where unclosed).
size_t value_end(std::string_view text, size_t p, size_t end)
{
    const bool quoted = p < end && text[p] == '\'';
    for (size_t q = p + (quoted ? 1 : 0); q < end; ++q) {
        if (text[q] == '\\')
            ++q;
        else if (quoted ? text[q] == '\'' : is_space(text[q]))
            return quoted ? q + 1 : q;
    }
    return end;
}

/// The values of KEY=VALUE pairs whose key names a secret, in [from, to): a key starts the text or
/// follows white space.
void keyword_passwords(std::string_view text, size_t from, size_t to, ranges& out)
{
    for (size_t i = from; i < to; ++i) {
        if (i > from && !is_space(text[i - 1])) continue;
        std::string_view key;
        const size_t value = keyword_value(text, i, to, key);
        if (value != npos && secret_key(key)) out.emplace_back(value, value_end(text, value, to));
    }
}

/// Whether [from, to) holds a KEY=VALUE pair of a libpq keyword.
bool has_libpq_keyword(std::string_view text)
{
    for (size_t i = 0; i < text.size(); ++i) {
        if (i > 0 && !is_space(text[i - 1])) continue;
        std::string_view key;
        if (keyword_value(text, i, text.size(), key) != npos &&
            std::find(libpq_keywords.begin(), libpq_keywords.end(), lowercase(key)) != libpq_keywords.end())
            return true;
    }
    return false;
}

/// The passwords of `arg` judged as a whole: each URL in it to its end, and its KEY=VALUE pairs.
ranges argument_passwords(std::string_view arg)
{
    ranges out;
    for (const auto& [begin, authority] : urls_in(arg, 0, arg.size())) url_passwords(arg, authority, arg.size(), out);
    keyword_passwords(arg, 0, arg.size(), out);
    return out;
}

/// `text` with `r` (in any order, overlapping) replaced by ***.
std::string replace_ranges(std::string_view text, ranges r)
{
    std::sort(r.begin(), r.end());
    std::string out;
    size_t done = 0;
    for (size_t i = 0; i < r.size();) {
        size_t begin = r[i].first, end = r[i].second;
        for (++i; i < r.size() && r[i].first <= end; ++i) end = std::max(end, r[i].second); // overlapping: one
        if (end <= done) continue;
        begin = std::max(begin, done);
        out.append(text.substr(done, begin - done)).append(hidden);
        done = end;
    }
    return out.append(text.substr(std::min(done, text.size())));
}

void replace_all(std::string& text, const std::string& what)
{
    if (what.empty()) return;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + hidden.size()))
        text.replace(p, what.size(), hidden);
}

/// A value as written, and as libpq reads it: percent-decoded (a URL's), unquoted and unescaped (KEY=VALUE's).
std::vector<std::string> spellings(std::string_view v)
{
    std::vector<std::string> out{std::string(v), percent_decoded(v)};
    if (!v.empty() && v.front() == '\'') {
        std::string plain;
        for (size_t i = 1; i < v.size() && v[i] != '\''; ++i) plain += v[i] == '\\' && i + 1 < v.size() ? v[++i] : v[i];
        out.push_back(plain);
    }
    return out;
}

std::vector<std::string>& remembered()
{
    static std::vector<std::string> passwords; // longest first
    return passwords;
}

} // namespace

bool is_postgres_url(std::string_view s)
{
    for (const auto scheme : schemes)
        if (s.substr(0, scheme.size()) == scheme) return true;
    return false;
}

namespace {

/// Why a postgresql:// URL is refused: an '@' after the first '/', '?' or '#' of its authority (a
/// user or password holding one unencoded: libpq ends the host there and reads the password's
/// pieces as host and port, and echoes them in its errors). "" where it is read as written.
std::string refused_url(std::string_view url, const std::string& what)
{
    const size_t authority = url.find("://") + 3;
    const size_t end = url.find_first_of("/?#", authority);
    if (end == std::string_view::npos || url.find('@', end) == std::string_view::npos) return "";
    return what + " is a PostgreSQL URL whose user or password holds '/', '?' or '#', where libpq ends the host: "
                  "percent-encode them (%2F, %3F, %23), or put the password in PGPASSWORD or ~/.pgpass";
}

/// Whether `t` is a PostgreSQL URL mistyped: postgres[ql]: without //, or a percent-encoded ://.
bool mistyped_url(std::string_view t)
{
    const std::string l = lowercase(t.substr(0, std::min<size_t>(t.size(), 4096)));
    for (const std::string_view scheme : {"postgresql", "postgres"})
        if (l.rfind(scheme, 0) == 0 && l.size() > scheme.size() && (l[scheme.size()] == ':' || l[scheme.size()] == '%'))
            return true;
    return l.find("%3a%2f%2f") != std::string::npos;
}

} // namespace

std::string refused_history(std::string_view db, std::string_view source)
{
    const std::string what(source);
    if (is_postgres_url(db)) return refused_url(db, what);
    size_t b = 0;
    while (b < db.size() && is_space(db[b])) ++b;
    const std::string_view t = db.substr(b);
    if (t.empty() || t[0] == '/' || t[0] == '.' || t[0] == '~') return ""; // a path, as the escape says
    size_t e = 0;
    while (e < t.size() && is_scheme_char(t[e])) ++e;
    if (is_alpha(t[0]) && t.substr(e, 3) == "://") {
        const std::string scheme = lowercase(t.substr(0, std::min<size_t>(e, 32)));
        if (scheme == "postgresql" || scheme == "postgres")
            return what + " is a PostgreSQL URL that libpq does not read as one (its scheme " +
                   (b ? "after white space" : "not in lower case") +
                   "): write postgresql://USER@HOST[:PORT]/DB, the scheme in lower case";
        return what + " is a URL of scheme " + scheme +
               "://, which wavebench does not read: give it an SQLite file (./NAME for a file whose name has "
               "'://') or postgresql://USER@HOST[:PORT]/DB";
    }
    if (mistyped_url(t))
        return what + " looks like a PostgreSQL URL but is none: write postgresql://USER@HOST[:PORT]/DB (or "
                      "./NAME for an SQLite file of such a name)";
    if (has_libpq_keyword(db))
        return what + " is a libpq connection string (KEY=VALUE), which wavebench does not read: write it as "
                      "postgresql://USER@HOST[:PORT]/DB?KEY=VALUE (the password in PGPASSWORD or ~/.pgpass, not on "
                      "the command line), or name an SQLite file whose name has '=' as ./NAME";
    return "";
}

std::string redact_argument(std::string_view arg) { return replace_ranges(arg, argument_passwords(arg)); }

std::string redact_command_line(const std::vector<std::string>& args)
{
    std::string line;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        std::string shown = redact_argument(a);
        if (i > 0 && args[i - 1] == "--db" && !refused_history(a, "--db").empty()) shown = hidden;
        if (a.rfind("--db=", 0) == 0 && !refused_history(a.substr(5), "--db").empty()) shown = "--db=***";
        line += (i ? " " : "") + shown;
    }
    return line;
}

void remember_passwords(std::string_view arg)
{
    auto& all = remembered();
    for (const auto& [begin, end] : argument_passwords(arg))
        for (std::string& s : spellings(arg.substr(begin, end - begin)))
            if (s.size() >= 4 && std::find(all.begin(), all.end(), s) == all.end()) all.push_back(std::move(s));
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
}

std::string redact_urls(std::string_view text)
{
    ranges r;
    for (size_t line = 0; line < text.size();) {
        const size_t end = std::min(text.find('\n', line), text.size());
        const auto urls = urls_in(text, line, end);
        for (size_t k = 0; k < urls.size(); ++k) {
            // A URL ends where the next begins, unless the next follows it without white space and
            // before its '@': then the next "URL" is part of its password ("x://y"), and it ends
            // with the line.
            const size_t from = urls[k].second, next = k + 1 < urls.size() ? urls[k + 1].first : end;
            const size_t at = text.rfind('@', next - 1);
            const bool part = (at == npos || at < from) && next < end &&
                              std::none_of(text.begin() + long(from), text.begin() + long(next), is_space);
            url_passwords(text, from, part ? end : next, r);
        }
        line = end + 1;
    }
    keyword_passwords(text, 0, text.size(), r);
    std::string out = replace_ranges(text, r);
    for (const std::string& password : remembered()) replace_all(out, password);
    return out;
}

std::string redacted(std::string_view text, std::string_view url)
{
    std::string out = redact_urls(text);
    for (const auto& [begin, end] : argument_passwords(url))
        for (const std::string& s : spellings(url.substr(begin, end - begin))) replace_all(out, s);
    return out;
}

} // namespace wb
