// wavebench: runs GPU kernel variants (plugins) from TOML suites, verifies every result against
// a CPU reference and reports time, throughput against the machine's ceiling, and resources.
// This file reads the command line and turns what a command throws into the exit status; every
// command registers itself from its own file, commands/<name>_command.cpp (commands/cli.h).
#include "harness/commands/cli.h"
#include "harness/commands/commands.h"
#include "harness/commands/telemetry_options.h"
#include "harness/common/files.h"
#include "harness/history/db_url.h"
#include "harness/history/history.h"
#include "harness/plan/suite.h"
#include "harness/report/compare.h"
#include "harness/report/html_report.h"
#include "harness/report/results_json.h"

#include <cstdlib>
#include <iostream>

namespace {

using namespace wb;

/// The exit status of what a command threw, with its message on stderr.
int failed(const std::exception& e, int status)
{
    // Messages quote input shortened; this bounds what slips through, and keeps a database
    // password (a --db URL quoted) out of it.
    std::string what = redact_urls(e.what());
    if (what.size() > 4096) what = what.substr(0, 4096) + "... (" + std::to_string(what.size()) + " bytes in all)";
    std::cerr << "error: " << what << "\n";
    return status;
}

/// The first argument when it is no option and names no command, or "".
std::string unknown_command(CLI::App& app, int argc, char** argv)
{
    if (argc < 2 || argv[1][0] == '-') return "";
    std::string names;
    for (const CLI::App* c : app.get_subcommands([](CLI::App*) { return true; })) {
        if (c->get_name() == argv[1]) return "";
        if (!c->get_group().empty()) names += (names.empty() ? "" : ", ") + c->get_name();
    }
    return "unknown command '" + shorten(redact_argument(argv[1])) + "' (the commands: " + names +
           "; wavebench --help says more)";
}

/// Why the command line is refused: an argument other than --db's value holds a password (a URL's
/// USER:PASSWORD@, a password=VALUE), which wavebench would print or write as a file name. "" where
/// none does.
std::string stray_password(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if ((i > 1 && std::string_view(argv[i - 1]) == "--db") || a.rfind("--db=", 0) == 0) continue;
        if (redact_argument(a) != a)
            return "argument " + std::to_string(i) + " ('" + shorten(redact_argument(a)) +
                   "') holds a password, and only --db takes a database URL: give the password in PGPASSWORD or "
                   "~/.pgpass, never on the command line";
    }
    return "";
}

/// Runs the command that was parsed; what it throws becomes the exit status.
int run_parsed(const command_list& commands)
{
    try {
        for (const auto& c : commands)
            if (*c.sub) return c.body();
    } catch (const suite_error& e) {
        return failed(e, exit_bad_input);
    } catch (const no_device& e) {
        return failed(e, exit_no_device);
    } catch (const platform_unavailable& e) {
        return failed(e, exit_no_platform);
    } catch (const std::exception& e) {
        return failed(e, exit_bad_input);
    }
    return exit_ok;
}

} // namespace

int main(int argc, char** argv)
{
    CLI::App app{"wavebench: GPU kernel variants as plugins, verified against a CPU reference and measured.\n"
                 "Exit status: 0 all verified (or skipped), 1 a configuration failed verification, errored,\n"
                 "crashed or timed out (inspect: a resource regression; compare: a regression), 2 bad input\n"
                 "(arguments, suite, filter, results files), 3 the platform is unknown or not built here,\n"
                 "4 the platform is built but finds no device (no AMD or NVIDIA GPU, or none of the --device index),\n"
                 "130/143 stopped by SIGINT/SIGTERM (after the configuration in progress; the results so far\n"
                 "are written)."};
    // Every password on the command line or in WAVEBENCH_DB is hidden from every message, wherever
    // it appears (redact_urls).
    for (int i = 1; i < argc; ++i) remember_passwords(argv[i]);
    if (const char* db = std::getenv("WAVEBENCH_DB")) remember_passwords(db);
    app.set_version_flag("--version", std::string("wavebench ") + tool_version);
    app.require_subcommand(1);

    // Every command, in the order --help lists them; the worker last (hidden).
    command_list commands;
    add_list_command(app, commands);
    add_run_command(app, commands);
    add_tune_command(app, commands);
    add_probe_command(app, commands);
    add_inspect_command(app, commands);
    add_compare_command(app, commands);
    add_calibrate_command(app, commands);
    add_history_command(app, commands);
    add_report_command(app, commands);
    add_merge_command(app, commands);
    add_worker_command(app, commands);
    add_clock_guard_command(app, commands);

    if (const std::string what = stray_password(argc, argv); !what.empty()) {
        std::cerr << "error: " << what << "\n";
        return exit_bad_input;
    }
    if (const std::string what = unknown_command(app, argc, argv); !what.empty()) {
        std::cerr << "error: " << what << "\n";
        return exit_bad_input;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e); // --help, --version
        // CLI11 quotes the arguments as given: shown here printable and bounded.
        std::cerr << shown(redact_urls(e.what()), 2000) << "\nRun with --help for more information.\n";
        return exit_bad_input;
    }
    set_command_line(argc, argv); // recorded in the results and the history: no password of a --db URL
    return run_parsed(commands);
}
