// A result's status: the one type for it, and its text as the results JSON, the console and the
// history write it (to_string) and read it back (parse_status, status_from_string).
#pragma once

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace wb {

/// failed: the output (or the inputs afterwards) differed from the reference; error: the plugin
/// or the device reported an error; crashed: the worker died (a signal, or an exit); timeout:
/// the configuration exceeded its limit and the worker was killed.
enum class status { verified, failed, error, skipped, crashed, timeout };
inline constexpr int status_count = 6;

/// Every status, in the enum's order.
inline constexpr std::array<status, status_count> all_statuses{status::verified, status::failed,  status::error,
                                                               status::skipped,  status::crashed, status::timeout};

/// "verified", "failed", "error", "skipped", "crashed", "timeout": as the JSON and the console
/// write them.
constexpr const char* to_string(status s)
{
    switch (s) {
    case status::verified:
        return "verified";
    case status::failed:
        return "failed";
    case status::error:
        return "error";
    case status::skipped:
        return "skipped";
    case status::crashed:
        return "crashed";
    case status::timeout:
        return "timeout";
    }
    return "?";
}

/// The status that to_string writes as `text`; nullopt for any other text (a reader that keeps
/// what it does not know, as merge does, counts it as not verified).
constexpr std::optional<status> parse_status(std::string_view text)
{
    for (status s : all_statuses)
        if (text == to_string(s)) return s;
    return std::nullopt;
}

/// As parse_status, but text that is no status is an error that says what is expected.
inline status status_from_string(std::string_view text)
{
    if (const auto s = parse_status(text)) return *s;
    std::string known;
    for (status s : all_statuses) known += std::string(known.empty() ? "" : ", ") + to_string(s);
    throw std::invalid_argument("'" + std::string(text.substr(0, 64)) + "' is not a status: expected one of " + known);
}

} // namespace wb
