// `wavebench compare BASE NEW`: two runs (results files or runs of the history) compared
// (report/compare.h) and printed as a table, markdown or JSON; exit 1 on a regression.
#include "harness/commands/compare_command.h"

#include "harness/common/files.h"
#include "harness/history/history.h"

#include <charconv>
#include <cmath>
#include <iostream>
#include <memory>

namespace wb {

void add_compare_options(CLI::App* cmd, compare_options& o)
{
    add_verdict_options(cmd, o);
    cmd->add_flag("--allow-device-change", o.allow_device_change,
                  "compare runs from different devices, platforms, wavefront widths or toolchains (refused otherwise)");
}

void add_verdict_options(CLI::App* cmd, compare_options& o)
{
    cmd->add_option("--alpha", o.alpha, "significance level of the two-sided Mann-Whitney U test")
        ->capture_default_str()
        ->check(real(1e-9, 0.5));
    cmd->add_option_function<double>(
           "--threshold", [&o](double pct) { o.threshold = pct / 100; },
           "the smallest change of the median kernel time that counts, in %")
        ->default_str(std::to_string(int(std::round(100 * o.threshold))))
        ->check(real(0, 1000));
    // Q of 0 would flag nothing and 1 every change of the threshold: neither bounds anything.
    cmd->add_option_function<double>(
           "--fdr", [&o](double q) { o.fdr = q; },
           "decide significance across all configurations by the Benjamini-Hochberg procedure at false "
           "discovery rate Q (q-value <= Q) in place of p < alpha: for large suites (default: off)")
        ->type_name("Q")
        ->check(CLI::Validator(
            [](std::string& s) -> std::string {
                double q = 0; // NaN and infinities fail the comparisons
                const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), q);
                if (ec == std::errc() && end == s.data() + s.size() && q > 0 && q < 1) return "";
                return "'" + shorten(s) + "' is not a number above 0 and below 1";
            },
            "NUMBER above 0, below 1"));
    cmd->add_option("--calibration", o.calibration_file,
                    "a calibration file of this device (wavebench calibrate): each configuration it holds is judged "
                    "at no less than its least threshold there, and says so")
        ->type_name("FILE")
        ->check(a_path);
    cmd->add_flag("--ignore-code-digest", o.ignore_code_digest,
                  "verdicts from the times even where both results name the same plugin code (by default such a "
                  "configuration is same-code, never a regression): for studies of the noise between two copies of "
                  "one build");
}

void add_fail_on_option(CLI::App* cmd, std::vector<std::string>& fail_on)
{
    cmd->add_option("--fail-on", fail_on,
                    "what makes the exit status 1: slower, failed (verified in BASE, not in NEW: failed, crashed, "
                    "skipped...), untested (slower by the threshold or more, too few samples to test), resources (more "
                    "registers, LDS, scratch or spills, less occupancy), missing (in BASE, not in NEW), incomplete "
                    "(NEW stopped early), unmatched (no configuration in both), any (all seven, the default), none; "
                    "repeatable or comma-separated")
        ->delimiter(',')
        ->check([](const std::string& s) -> std::string {
            return fail_on_names.count(s) ? ""
                                          : "'" + shorten(s) +
                                                "' is not one of slower, failed, untested, resources, missing, "
                                                "incomplete, unmatched, any, none";
        });
}

compare_options with_fail_on(compare_options o, const std::vector<std::string>& fail_on)
{
    if (!o.calibration_file.empty()) o.calibrated = std::make_shared<calibration>(read_calibration(o.calibration_file));
    if (!fail_on.empty()) o.fail_on = {fail_on.begin(), fail_on.end()};
    if (o.fail_on.count("none") && o.fail_on.size() > 1)
        throw std::invalid_argument("--fail-on none cannot be combined with anything else");
    return o;
}

namespace {

struct compare_command_options {
    std::string base, now, db, format = "table";
    compare_options compare;
    std::vector<std::string> fail_on;
};

int compare_command(const compare_command_options& o)
{
    const compare_options co = with_fail_on(o.compare, o.fail_on);
    // One input: an A/B run, its two builds judged again (at another threshold, with a calibration...).
    const auto runs = o.now.empty() ? load_run_inputs({o.base}, o.db) : load_run_inputs({o.base, o.now}, o.db);
    const nlohmann::json cmp = o.now.empty() ? compare_ab(runs.at(0), co) : compare_runs(runs.at(0), runs.at(1), co);
    if (o.format == "json") // all ASCII: no text of the inputs reaches a terminal raw
        std::cout << cmp.dump(2, ' ', true, nlohmann::json::error_handler_t::replace) << "\n";
    else
        print_comparison(std::cout, cmp, o.format == "markdown");
    return cmp["regressed"].get<bool>() ? 1 : 0;
}

} // namespace

void add_compare_command(CLI::App& app, command_list& commands)
{
    auto o = std::make_shared<compare_command_options>();
    auto* cmd = app.add_subcommand(
        "compare", "Compare two runs configuration by configuration: faster, slower, same or noisy (Mann-Whitney U "
                   "test and a minimum change), verification and resource changes; exit 1 on a regression, a "
                   "configuration of BASE missing from NEW, NEW incomplete or nothing matched");
    cmd->add_option("base", o->base,
                    "BASE: a results file, or a run of the history: an id, latest, previous, baseline; alone, an A/B "
                    "run (run --baseline-plugins), its base build against its change, judged again")
        ->required()
        ->check(a_path);
    cmd->add_option("new", o->now, "NEW: as BASE")->check(a_path);
    add_compare_options(cmd, o->compare);
    add_fail_on_option(cmd, o->fail_on);
    cmd->add_option("--format", o->format, "table, markdown (a pull-request comment) or json")
        ->capture_default_str()
        ->check(CLI::IsMember({"table", "markdown", "json"}));
    add_db_option(cmd, o->db, "take run ids and names from");
    commands.push_back({cmd, [o] { return compare_command(*o); }});
}

} // namespace wb
