// The run history as the commands use it: where it is (--db, WAVEBENCH_DB, the user's data
// folder), recording a run at the end of `run`, and the runs `compare` and `report` name: results
// files, run ids, latest, previous, baseline.
#include "harness/history/history.h"

#include "harness/common/files.h"
#include "harness/history/db_url.h"
#include "harness/history/store.h"
#include "harness/platform/platform.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <system_error>

namespace wb {

namespace {

std::string env(const char* name)
{
    const char* v = std::getenv(name);
    return v ? v : "";
}

/// The suite, platform and device a run is compared within.
struct run_group {
    std::string suite, platform, device;
};

run_group group_of(const nlohmann::json& doc)
{
    auto text = [](const nlohmann::json& j, const char* key) {
        const auto it = j.is_object() ? j.find(key) : j.end();
        return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    return {text(doc.value("suite", nlohmann::json()), "name"), text(doc, "platform"),
            text(doc.value("device", nlohmann::json()), "name")};
}

/// "suite quick on DEVICE (cpu)", for messages.
std::string group_text(const run_group& g)
{
    return "suite " + shown(g.suite, 64) + " on " + shown(g.device, 80) + " (" + shown(g.platform, 16) + ")";
}

/// An argument as a message quotes it: its passwords redacted, printable and bounded.
std::string quoted(const std::string& arg) { return shown(redact_argument(arg), 200); }

bool is_run_id(const std::string& s)
{
    return !s.empty() && s.size() <= 18 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

std::string history_path(const std::string& db_option)
{
    // A connection string that is no postgresql:// URL would be taken for a file's name.
    auto checked = [](const std::string& where, const char* source) {
        if (const std::string why = refused_history(where, source); !why.empty()) throw std::invalid_argument(why);
        return where;
    };
    if (!db_option.empty()) return checked(db_option, "--db");
    if (std::string path = env("WAVEBENCH_DB"); !path.empty()) return checked(path, "WAVEBENCH_DB");
    // XDG: a relative XDG_DATA_HOME is to be ignored.
    if (const std::string xdg = env("XDG_DATA_HOME"); !xdg.empty() && xdg[0] == '/')
        return (std::filesystem::path(xdg) / "wavebench" / "history.db").string();
    if (const std::string home = env("HOME"); !home.empty())
        return (std::filesystem::path(home) / ".local" / "share" / "wavebench" / "history.db").string();
    throw std::invalid_argument("no place for the history: neither --db, WAVEBENCH_DB, XDG_DATA_HOME nor HOME is set");
}

std::string history_shown(const std::string& db_option) { return shown(redact_argument(history_path(db_option)), 200); }

std::unique_ptr<history_store> open_history(const std::string& db_option, open_mode mode)
{
    const std::string where = history_path(db_option);
    return is_postgres_url(where) ? open_postgres_history(where, mode) : open_sqlite_history(where, mode);
}

void check_history(const std::string& db_option)
{
    history_path(db_option); // refused: throws
    try {
        open_history(db_option, open_mode::read);
    } catch (const hostile_history&) {
        throw;
    } catch (const std::exception&) {
        // Anything else (no server yet, a damaged file) is for the end: the run is recorded then,
        // or its results kept with a warning.
    }
}

std::unique_ptr<history_store> open_postgres_history(const std::string& url, open_mode mode)
{
    // Loaded once and kept loaded: the stores it makes run its code.
    struct module {
        boost::dll::shared_library lib;
        history_store* (*open)(const std::string&, open_mode) = nullptr;
    };
    static const module m = [] {
        module x;
        x.lib = load_build_library(WB_HISTORY_POSTGRES_MODULE, "PostgreSQL history",
                                   "build wavebench with libpq (Debian: apt-get install libpq-dev, cmake "
                                   "-DWAVEBENCH_ENABLE_POSTGRES=ON), or give --db a file (an SQLite database)");
        x.open = &x.lib.get<history_store*(const std::string&, open_mode)>(WB_HISTORY_POSTGRES_ENTRY);
        return x;
    }();
    return std::unique_ptr<history_store>(m.open(url, mode));
}

std::optional<int64_t> record_run(const std::string& db_option, const nlohmann::json& doc,
                                  const std::string& results_file)
{
    try {
        return open_history(db_option, open_mode::create)->record(doc);
    } catch (const std::exception& e) {
        std::cerr << "warning: the run was not recorded in the history DB: " << redact_urls(e.what())
                  << "; the results are in " << results_file << "\n";
        return std::nullopt;
    }
}

std::vector<run_input> load_run_inputs(const std::vector<std::string>& args, const std::string& db_option)
{
    std::unique_ptr<history_store> store;
    bool opened = false;
    auto history = [&]() -> history_store* { // nullptr: no history yet
        if (!opened) store = open_history(db_option, open_mode::read), opened = true;
        return store.get();
    };
    auto where = [&] { return "the history (" + history_shown(db_option) + ")"; };
    auto load = [&](const run_summary& run, const std::string& how) {
        return results_input(history()->load(run.id),
                             "run " + std::to_string(run.id) + (how.empty() ? "" : " (" + how + ")"), run.id);
    };
    auto latest = [&]() -> run_input {
        run_filter newest;
        newest.limit = 1;
        const auto runs = history() ? history()->list(newest) : std::vector<run_summary>{};
        if (runs.empty())
            throw std::invalid_argument("no run 'latest': " + where() +
                                        " has no runs yet; `wavebench run SUITE` "
                                        "records one (--db or WAVEBENCH_DB name another history)");
        return load(runs.front(), "latest");
    };

    // Files, ids and latest first.
    std::vector<std::optional<run_input>> out(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        std::error_code ec;
        if (arg == "-" || std::filesystem::exists(arg, ec)) {
            out[i] = read_results_file(arg);
        } else if (is_run_id(arg)) {
            const int64_t id = std::stoll(arg);
            const auto run = history() ? history()->find(id) : std::nullopt;
            if (!run)
                throw std::invalid_argument("no run " + arg + " in " + where() + ", and no file " + quoted(arg) +
                                            ": `wavebench history` lists the runs");
            out[i] = load(*run, "");
        } else if (arg == "latest") {
            out[i] = latest();
        } else if (arg != "previous" && arg != "baseline") {
            throw std::invalid_argument("no file " + quoted(arg) + " (" + (ec ? ec.message() : "it does not exist") +
                                        "), and no run of the history: name a results file, or a run as a run id "
                                        "(`wavebench history` lists them), latest, previous or baseline");
        }
    }
    // Then previous and baseline, within the suite, platform and device of the first resolved.
    for (size_t i = 0; i < args.size(); ++i) {
        if (out[i]) continue;
        const auto other = std::find_if(out.begin(), out.end(), [](const auto& r) { return r.has_value(); });
        const run_group g = group_of(other != out.end() ? (*other)->doc : latest().doc);
        run_filter f{.suite = g.suite, .platform = g.platform, .device = g.device, .exact_device = true};
        if (args[i] == "previous") {
            f.limit = 2;
            const auto runs = history() ? history()->list(f) : std::vector<run_summary>{};
            if (runs.size() < 2)
                throw std::invalid_argument("no run 'previous': " + where() + " has " +
                                            (runs.empty() ? "no run" : "only one run") + " of " + group_text(g) +
                                            "; `wavebench run` records another");
            out[i] = load(runs[1], "previous");
        } else {
            f.baseline_only = true;
            f.limit = 1;
            const auto runs = history() ? history()->list(f) : std::vector<run_summary>{};
            if (runs.empty())
                throw std::invalid_argument("no run 'baseline': no run of " + group_text(g) + " in " + where() +
                                            " is marked as the baseline; `wavebench history --mark-baseline ID` "
                                            "marks one");
            out[i] = load(runs.front(), "baseline");
        }
    }
    std::vector<run_input> inputs;
    for (auto& r : out) inputs.push_back(std::move(*r));
    return inputs;
}

size_t for_each_history_run(const std::string& db_option, const std::string& suite, const std::string& platform,
                            const std::string& device, size_t limit, const std::function<void(run_input)>& visit)
{
    const auto store = open_history(db_option, open_mode::read);
    if (!store) return 0;
    auto runs =
        store->list({.suite = suite, .platform = platform, .device = device, .exact_device = true, .limit = limit});
    std::reverse(runs.begin(), runs.end()); // oldest first
    for (const auto& run : runs) visit(results_input(store->load(run.id), "run " + std::to_string(run.id), run.id));
    return runs.size();
}

} // namespace wb
