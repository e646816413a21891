// `wavebench history`: the recorded runs, newest first, as a table or JSON, filtered by suite,
// device and platform; and marking a run as the baseline of its suite, platform and device.
#include "harness/commands/cli.h"
#include "harness/commands/commands.h"
#include "harness/common/files.h"
#include "harness/history/history.h"
#include "harness/history/store.h"
#include "harness/measure/status.h"

#include <iostream>
#include <memory>

namespace wb {

namespace {

struct history_options {
    std::string db;
    run_filter filter;
    bool json = false;
    int64_t mark = 0, unmark = 0;
};

nlohmann::json run_json(const run_summary& r)
{
    return {{"id", r.id},
            {"recorded", r.recorded},
            {"started", r.started},
            {"suite", r.suite},
            {"suite_file", r.suite_file},
            {"platform", r.platform},
            {"device", r.device},
            {"arch", r.arch},
            {"toolchain", r.toolchain},
            {"tool_version", r.tool_version},
            {"complete", r.complete},
            {"baseline", r.baseline},
            {"configs", r.configs},
            {"counts",
             {{to_string(status::verified), r.verified},
              {to_string(status::failed), r.failed},
              {to_string(status::error), r.errors},
              {to_string(status::crashed), r.crashed},
              {to_string(status::timeout), r.timeouts},
              {to_string(status::skipped), r.skipped}}}};
}

void print_table(const std::vector<run_summary>& runs)
{
    std::vector<std::vector<std::string>> rows = {{"id", "recorded", "suite", "platform", "device", "version",
                                                   "configs", to_string(status::verified), to_string(status::failed),
                                                   ""}};
    for (const auto& r : runs) {
        std::string notes = r.baseline ? "baseline" : "";
        if (!r.complete) notes += std::string(notes.empty() ? "" : ", ") + "incomplete";
        // Every text is the database's: shown printable and bounded, never raw to the terminal.
        rows.push_back({std::to_string(r.id), shown(r.recorded, 32), shown(r.suite, 40), shown(r.platform, 16),
                        shown(r.device, 40), shown(r.tool_version, 30), std::to_string(r.configs),
                        std::to_string(r.verified), std::to_string(r.failed + r.errors + r.crashed + r.timeouts),
                        notes});
    }
    std::vector<size_t> width(rows[0].size());
    for (const auto& row : rows)
        for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    for (const auto& row : rows) {
        std::string line;
        for (size_t c = 0; c < row.size(); ++c) {
            const bool number = c == 0 || (c >= 6 && c <= 8);
            const std::string pad(width[c] - row[c].size(), ' ');
            line += (c ? "  " : "") + (number ? pad + row[c] : row[c] + pad);
        }
        std::cout << line.substr(0, line.find_last_not_of(' ') + 1) << "\n";
    }
}

int history_command(const history_options& o)
{
    const std::string where = history_shown(o.db);
    if (o.mark || o.unmark) {
        const int64_t id = o.mark ? o.mark : o.unmark;
        auto store = open_history(o.db, open_mode::write);
        const auto run = store ? store->find(id) : std::nullopt;
        if (!run)
            throw std::invalid_argument("no run " + std::to_string(id) + " in the history (" + where +
                                        "): `wavebench history` lists the runs");
        run_filter f{.suite = run->suite,
                     .platform = run->platform,
                     .device = run->device,
                     .exact_device = true,
                     .baseline_only = true,
                     .limit = 1};
        const auto before = store->list(f);
        store->mark_baseline(id, o.mark != 0);
        const std::string what =
            "suite " + shown(run->suite, 64) + " on " + shown(run->device, 80) + " (" + shown(run->platform, 16) + ")";
        if (!o.mark)
            std::cout << "run " << id << " is no longer the baseline of " << what << "\n";
        else {
            std::cout << "run " << id << " is the baseline of " << what;
            if (!before.empty() && before[0].id != id) std::cout << " (in place of run " << before[0].id << ")";
            std::cout << "\n";
        }
        return exit_ok;
    }
    const auto store = open_history(o.db, open_mode::read);
    const auto runs = store ? store->list(o.filter) : std::vector<run_summary>{};
    if (o.json) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& r : runs) j.push_back(run_json(r));
        // ASCII only: no control character (C1 as UTF-8 too) of the database's texts reaches a terminal.
        std::cout << j.dump(2, ' ', true, nlohmann::json::error_handler_t::replace) << "\n";
    } else if (runs.empty()) {
        const bool filtered = !o.filter.suite.empty() || !o.filter.device.empty() || !o.filter.platform.empty();
        std::cout << "no runs" << (filtered ? " that match" : "") << " in the history (" << where
                  << "); `wavebench run SUITE` records one\n";
    } else {
        print_table(runs);
    }
    return exit_ok;
}

} // namespace

void add_history_command(CLI::App& app, command_list& commands)
{
    auto o = std::make_shared<history_options>();
    auto* cmd = app.add_subcommand("history", "List the runs recorded in the history, newest first; mark a baseline");
    add_db_option(cmd, o->db, "list and mark the runs of");
    auto* suite = cmd->add_option("--suite", o->filter.suite, "only runs of this suite (its name)");
    auto* device = cmd->add_option("--device", o->filter.device, "only runs on a device whose name contains this text");
    auto* platform = cmd->add_option("--platform", o->filter.platform, "only runs on this platform: cpu, amd, nvidia");
    auto* limit = cmd->add_option("--limit", o->filter.limit, "the most runs listed (0: all)")
                      ->capture_default_str()
                      ->check(integer(0, 1000000000));
    auto* json = cmd->add_flag("--json", o->json, "print JSON");
    auto* mark = cmd->add_option("--mark-baseline", o->mark,
                                 "make run ID the baseline of its suite, platform and device (`compare baseline ...`); "
                                 "the previous baseline no longer is")
                     ->check(integer(1, 999999999999999999));
    auto* unmark = cmd->add_option("--unmark-baseline", o->unmark, "make run ID no baseline")
                       ->check(integer(1, 999999999999999999));
    mark->type_name("ID");
    unmark->type_name("ID");
    for (auto* other : {unmark, suite, device, platform, limit, json}) mark->excludes(other);
    for (auto* other : {suite, device, platform, limit, json}) unmark->excludes(other);
    commands.push_back({cmd, [o] { return history_command(*o); }});
}

} // namespace wb
