#include "harness/history/db_url.h"

#include <array>
#include <vector>

namespace wb {

namespace {

constexpr std::array<std::string_view, 2> schemes = {"postgresql://", "postgres://"};
constexpr std::string_view hidden = "***";

/// Where the URL that starts at `from` ends: the first white space or quote.
size_t url_end(std::string_view text, size_t from)
{
    const size_t end = text.find_first_of(" \t\r\n\"'", from);
    return end == std::string_view::npos ? text.size() : end;
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

/// The [begin, end) ranges of the passwords in the URL text.substr(begin, end - begin), whose
/// scheme ends at `authority`.
void passwords(std::string_view text, size_t authority, size_t end, std::vector<std::pair<size_t, size_t>>& out)
{
    // user:password@host: the user information ends at the last @ of the URL (not of the
    // authority alone: a password with an unencoded / or ? is still hidden; hiding too much is safe).
    const size_t at = text.rfind('@', end - 1);
    if (at != std::string_view::npos && at >= authority) {
        const size_t colon = text.find(':', authority);
        if (colon < at) out.emplace_back(colon + 1, at);
    }
    // ?password=...&... (libpq decodes the keys too: pass%77ord is password)
    const size_t after = at != std::string_view::npos && at >= authority ? at : authority;
    const size_t query = text.find('?', after);
    for (size_t key = query + 1; query < end && key < end;) {
        const size_t next = std::min(text.find('&', key), end);
        const size_t eq = text.find('=', key);
        if (eq < next && percent_decoded(text.substr(key, eq - key)) == "password") out.emplace_back(eq + 1, next);
        key = next + 1;
    }
}

std::string replace_ranges(std::string_view text, const std::vector<std::pair<size_t, size_t>>& ranges)
{
    std::string out;
    size_t done = 0;
    for (const auto& [begin, end] : ranges) {
        out.append(text.substr(done, begin - done)).append(hidden);
        done = end;
    }
    return out.append(text.substr(done));
}

void replace_all(std::string& text, const std::string& what)
{
    if (what.empty()) return;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + hidden.size()))
        text.replace(p, what.size(), hidden);
}

} // namespace

bool is_postgres_url(std::string_view s)
{
    for (const auto scheme : schemes)
        if (s.substr(0, scheme.size()) == scheme) return true;
    return false;
}

std::string redact_urls(std::string_view text)
{
    std::vector<std::pair<size_t, size_t>> ranges; // in order: URLs are found left to right
    for (size_t p = 0; p < text.size();) {
        size_t next = std::string_view::npos, length = 0;
        for (const auto scheme : schemes)
            if (const size_t at = text.find(scheme, p); at < next) next = at, length = scheme.size();
        if (next == std::string_view::npos) break;
        const size_t end = url_end(text, next);
        passwords(text, next + length, end, ranges);
        p = end;
    }
    return replace_ranges(text, ranges);
}

std::string redacted(std::string_view text, std::string_view url)
{
    std::string out = redact_urls(text);
    std::vector<std::pair<size_t, size_t>> ranges;
    for (const auto scheme : schemes)
        if (url.substr(0, scheme.size()) == scheme) passwords(url, scheme.size(), url.size(), ranges);
    for (const auto& [begin, end] : ranges) {
        const std::string_view password = url.substr(begin, end - begin);
        replace_all(out, std::string(password));
        replace_all(out, percent_decoded(password));
    }
    return out;
}

} // namespace wb
