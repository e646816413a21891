#include "harness/commands/cli.h"

#include "harness/common/files.h"
#include "harness/history/db_url.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace wb {

// Numbers and paths are checked as written: strictly decimal, nothing after them, finite, in
// range; every message says what was expected.

CLI::Validator integer(long long lo, long long hi)
{
    const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
    return {[=](std::string& s) -> std::string {
                long long v = 0;
                const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
                if (ec == std::errc() && end == s.data() + s.size() && v >= lo && v <= hi) return "";
                const bool number =
                    end == s.data() + s.size() && (ec == std::errc() || ec == std::errc::result_out_of_range);
                return "'" + shorten(s) + (number ? "' is out of range" : "' is not an integer") +
                       ": expected an integer from " + range;
            },
            "INT " + range};
}

CLI::Validator real(double lo, double hi)
{
    auto text = [](double x) {
        std::ostringstream o;
        o << x;
        return o.str();
    };
    const std::string range = text(lo) + " to " + text(hi);
    return {[=](std::string& s) -> std::string {
                double v = 0;
                const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
                const bool number = ec == std::errc() && end == s.data() + s.size() && std::isfinite(v);
                if (number && v >= lo && v <= hi) return "";
                return "'" + shorten(s) + (number ? "' is out of range" : "' is not a finite decimal number") +
                       ": expected a number from " + range;
            },
            "NUMBER " + range};
}

CLI::Validator one_of(std::vector<long long> allowed)
{
    std::string list;
    for (size_t i = 0; i < allowed.size(); ++i)
        list += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + std::to_string(allowed[i]);
    return {[=](std::string& s) -> std::string {
                long long v = 0;
                const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
                if (ec == std::errc() && end == s.data() + s.size() &&
                    std::find(allowed.begin(), allowed.end(), v) != allowed.end())
                    return "";
                return "'" + shorten(s) + "' is not allowed: expected " + list;
            },
            list};
}

namespace {
std::string& recorded_command_line()
{
    static std::string line;
    return line;
}
} // namespace

const std::string& command_line() { return recorded_command_line(); }

void set_command_line(int argc, char** argv) { recorded_command_line() = redact_command_line({argv, argv + argc}); }

const CLI::Validator a_path{[](std::string& s) -> std::string { return s.empty() ? "an empty path: name a file" : ""; },
                            "PATH"};

const CLI::Validator history_db{[](std::string& s) -> std::string {
                                    return s.empty() ? "an empty path: name a file or a postgresql:// URL"
                                                     : refused_history(s, "the value");
                                },
                                "FILE|URL"};

void add_db_option(CLI::App* cmd, std::string& db, const std::string& what)
{
    cmd->add_option("--db", db,
                    what + " this history database: an SQLite file, or postgresql://USER@HOST[:PORT]/DB (the "
                           "password from PGPASSWORD or ~/.pgpass); default: WAVEBENCH_DB, else "
                           "$XDG_DATA_HOME/wavebench/history.db, else ~/.local/share/wavebench/history.db")
        ->check(history_db);
}

} // namespace wb
