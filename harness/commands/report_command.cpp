// `wavebench report`: the runs given (results files or runs of the history), and with --trend the
// history's runs of the newest one's suite, platform and device, drawn as one HTML page
// (report/html_report.h).
#include "harness/commands/cli.h"
#include "harness/commands/commands.h"
#include "harness/commands/compare_command.h"
#include "harness/common/files.h"
#include "harness/history/history.h"
#include "harness/report/html_report.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

namespace wb {

namespace {

using json = nlohmann::json;

bool same_run(const run_input& a, const run_input& b)
{
    if (a.id && b.id) return *a.id == *b.id;
    return started_of(a) == started_of(b) &&
           a.doc.value("device", json::object()) == b.doc.value("device", json::object());
}

struct report_options {
    std::vector<std::string> inputs;
    std::string out, db;
    size_t trend = 0;
    compare_options compare; // the compare view's
};

int report_command(const report_options& o)
{
    std::vector<std::filesystem::path> files;
    for (const auto& arg : o.inputs) {
        std::error_code ec;
        if (std::filesystem::exists(arg, ec)) files.emplace_back(arg);
    }
    check_output(o.out, "--out", files);
    const auto inputs = load_run_inputs(o.inputs, o.db);
    trend_builder trend; // the history's runs one at a time: never every document at once
    if (o.trend) {
        size_t newest = 0;
        for (size_t i = 1; i < inputs.size(); ++i)
            if (started_of(inputs[i]) >= started_of(inputs[newest])) newest = i;
        const run_input& in = inputs[newest];
        const results_reader c{in.label};
        const std::string suite = c.name(c.field(in.doc, "suite"), "name", "suite"),
                          platform = c.name(in.doc, "platform", ""),
                          device = c.name(c.field(in.doc, "device"), "name", "device");
        bool included = false;
        for_each_history_run(o.db, suite, platform, device, o.trend, [&](run_input r) {
            included = included || same_run(r, in);
            trend.add(r);
        });
        if (!included) trend.add(in);
    } else if (inputs.size() >= 3) {
        for (const auto& in : inputs) trend.add(in);
    }
    const size_t trend_runs = trend.size();
    const json data = report_data(inputs, trend_runs ? std::move(trend).finish() : json(), with_fail_on(o.compare, {}));
    write_output(o.out, report_page(data));

    const json& newest = data["runs"][data["newest"].get<size_t>()];
    std::cout << "wrote " << shown(o.out, 200) << ": " << data["results"].size() << " results of suite "
              << shown(newest["suite"].is_string() ? newest["suite"].get<std::string>() : "?", 64) << " on "
              << shown(newest["device"].is_string() ? newest["device"].get<std::string>() : "?", 80);
    if (data["compare"].is_object() && !data["compare"].contains("error"))
        std::cout << ", the comparison of the two runs";
    if (data["trend"].is_object()) std::cout << ", the trend of " << data["trend"]["runs"].size() << " runs";
    std::cout << "\n";
    if (data["compare"].contains("error"))
        std::cerr << "warning: the two runs cannot be compared (the page says why): "
                  << shown(data["compare"]["error"].get<std::string>(), 2000) << "\n";
    if (o.trend && trend_runs < 2)
        std::cerr << "warning: --trend: the history holds no other run of this suite, platform and device; the page "
                     "shows no trend\n";
    return exit_ok;
}

} // namespace

void add_report_command(CLI::App& app, command_list& commands)
{
    auto o = std::make_shared<report_options>();
    auto* cmd = app.add_subcommand(
        "report",
        "Write one self-contained HTML page of runs (works offline): throughput, speedups and fraction of "
        "the ceiling per family, converge against its model, AMD figures; two runs compared, several as a trend");
    cmd->add_option("inputs", o->inputs,
                    "results files, or runs of the history: ids, latest, previous, baseline. The newest is drawn in "
                    "full; two are also compared (the first is BASE, as in `compare`); three or more, also their trend")
        ->required()
        ->check(a_path)
        ->type_name("FILE|RUN");
    cmd->add_option("-o,--out", o->out, "the HTML file to write (never one of the inputs)")->required()->check(a_path);
    cmd->add_option(
           "--trend", o->trend,
           "the trend of the newest N runs in the history of the newest input's suite, platform and device (in "
           "place of the inputs' own)")
        ->check(integer(2, 100000));
    add_compare_options(cmd, o->compare); // for the compare view of two inputs
    add_db_option(cmd, o->db, "take run ids, names and --trend from");
    commands.push_back({cmd, [o] { return report_command(*o); }});
}

} // namespace wb
