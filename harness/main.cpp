// wavebench: runs GPU kernel variants (plugins) from TOML suites, verifies every result against
// a CPU reference and reports time, throughput against the machine's ceiling, and resources.
// This file reads the command line (the subcommands, their options, --help) and turns what a
// command throws into the exit status; the commands themselves are <name>_command.cpp and
// commands/inspect_command.cpp.
#include "harness/commands/cli.h"
#include "harness/commands/commands.h"
#include "harness/history/db_url.h"
#include "harness/common/files.h"
#include "harness/history/history.h"
#include "harness/report/html_report.h"
#include "harness/commands/inspect_command.h"
#include "harness/report/results_json.h"
#include "harness/report/compare.h"
#include "harness/plan/suite.h"
#include "harness/worker/worker.h"

#include <iostream>

namespace {

using namespace wb;

void add_platform_options(CLI::App* cmd, platform_options& o)
{
    cmd->add_option("--platform", o.name, "cpu, amd, nvidia, or auto: the first of nvidia, amd, cpu with a device")
        ->capture_default_str();
    cmd->add_option("--plugins", o.plugin_dirs,
                    "another plugin directory (repeatable; DIR/<platform>/ is searched too); "
                    "WAVEBENCH_PLUGIN_PATH adds more");
    cmd->add_option("--device", o.device, "device index (exit status 4 when the platform has no such device)")
        ->capture_default_str()
        ->check(integer(0, 1 << 20));
    cmd->add_option("--warp-size", o.warp_size, "cpu platform: wavefront width, 32 or 64 (default 64)")
        ->check(one_of({32, 64}));
    cmd->add_option("--lane-order", o.lane_order,
                    "cpu platform: the order a wavefront's lanes run in between synchronization points: forward "
                    "(default), reverse, random or random:SEED; a result that changes with it is a race between "
                    "lanes, such as warp-synchronous code (sets WAVEBENCH_CPU_LANE_ORDER)")
        ->check(CLI::Validator(
            [](std::string& v) {
                return valid_lane_order(v) ? std::string() : "'" + v + "' is not forward, reverse, random or random:SEED";
            },
            "ORDER"));
}

void add_in_process(CLI::App* cmd, platform_options& o)
{
    cmd->add_flag("--in-process", o.in_process,
                  "load and run the plugins in this process, for debugging with gdb (by default they run in worker "
                  "processes, where a crash or a hang costs only its own result)");
}

CLI::App* add_run(CLI::App& app, platform_options& po, run_options& ro)
{
    auto* run = app.add_subcommand("run", "Run a TOML suite: every configuration measured and verified");
    run->add_option("suite", ro.suite_file, "suite file, e.g. suites/quick.toml (- reads standard input)")
        ->required()
        ->check(a_path);
    add_platform_options(run, po);
    add_in_process(run, po);
    run->add_option("--filter", ro.filter, "run only family/variant names matching this glob, e.g. 'reduce/tree*'");
    run->add_option("--out", ro.out,
                    "results JSON (rewritten after every configuration); "
                    "default wavebench-results/<suite>-<platform>-<time>.json; never the suite or a plugin")
        ->check(a_path);
    run->add_option("--max-configs", ro.max_configs,
                    "the most configurations the suite may expand to (a larger suite is refused before anything runs)")
        ->capture_default_str()
        ->check(integer(1, 1000000000000));
    settings_overrides& so = ro.overrides;
    run->add_option("--repetitions", so.repetitions, "measured runs per configuration, at least (overrides the suite)")
        ->check(integer(1, 1000000));
    run->add_option("--warmup", so.warmup, "unmeasured runs first (overrides the suite)")->check(integer(0, 1000000));
    run->add_option("--min-time", so.min_time_s,
                    "keep measuring until this many seconds of device time are in (overrides the suite's min_time_s)")
        ->check(real(0, 3600));
    run->add_option("--verify-every", so.verify_every,
                    "after the first runs (warm-up, each input copy twice), compare every Nth run's output with the "
                    "reference; 1 checks every run (overrides the suite's verify_every, default 10)")
        ->check(integer(1, 1000000));
    run->add_option("--timeout", so.timeout_s,
                    "seconds a configuration may take, set-up included, before its worker is killed and the result "
                    "is 'timeout' (overrides the suite's timeout_s; default 2 x max_time_s + 60)")
        ->check(real(0.1, 604800));
    run->add_flag("--dry-run", ro.dry_run, "list the configurations the suite expands to on this platform, and run nothing");
    run->add_flag("--no-ceilings", ro.no_ceilings, "do not probe or report the fraction of the machine's ceiling");
    run->add_flag("--reprobe", ro.reprobe, "measure the machine's ceilings again instead of using the cached ones");
    run->add_flag("--amd-static", ro.amd_static,
                  "also give each kernel's AMD figures (registers, occupancy per target) at the launch it ran with, "
                  "from the plugin's amd build: no AMD GPU needed");
    run->add_option_function<std::string>(
           "--format",
           [&ro](const std::string& f) {
               ro.format = f == "markdown" ? table_format::markdown
                           : f == "csv"    ? table_format::csv
                           : f == "json"   ? table_format::json
                                           : table_format::table;
           },
           "the table on stdout: table (a table per family, parameters as columns, at most 120 characters wide), "
           "markdown (a pipe table per family), csv (one header row, then a row per result: times in ms, fractions "
           "as fractions), json (JSON Lines: an object per result, as each finishes); with markdown, csv and json, "
           "stdout carries only the table and the rest goes to stderr")
        ->check(CLI::IsMember({"table", "markdown", "csv", "json"}))
        ->default_str("table");
    run->add_option("--devices", ro.devices,
                    "run on several devices at once: all, or indices such as 0,2; one worker per device, each taking "
                    "the next problem (its variants together) as it becomes free; each result names its device")
        ->check([](const std::string& v) { return v.empty() ? std::string("give all, or indices such as 0,2") : ""; });
    run->add_option_function<std::string>(
           "--shard", [&ro](const std::string& v) { ro.shard = parse_shard(v); },
           "run part I of N (1 <= I <= N) of the suite: whole problems, balanced by configurations, the same split "
           "on every machine; not recorded in the history (wavebench merge joins the shards, and records the whole)")
        ->type_name("I/N")
        ->check([](const std::string& v) {
            try {
                parse_shard(v);
                return std::string();
            } catch (const std::invalid_argument& e) {
                return std::string(e.what());
            }
        });
    add_db_option(run, ro.db, "record the run in");
    run->add_flag("--no-history", ro.no_history, "do not record the run in the history");
    return run;
}

CLI::App* add_inspect(CLI::App& app, platform_options& po, inspect_options& io)
{
    auto* inspect = app.add_subcommand(
        "inspect", "AMD static figures of hipcc-built .so files, no GPU needed: registers, LDS, scratch, spills, "
                   "occupancy per target");
    inspect->add_option("files", io.files, "plugin or any HIP .so files (default: every plugin of the amd platform)")
        ->check(a_path);
    inspect->add_option("--platform", po.name, "amd: every plugin of the amd platform (the default without files)");
    inspect->add_option("--plugins", io.plugin_dirs, "another plugin directory (repeatable)");
    inspect->add_option("--target", io.targets, "only these targets, e.g. gfx90a (repeatable)");
    inspect->add_flag("--json", io.json, "print JSON");
    inspect->add_option("--block-size", io.block_size,
                        "block size for kernels no plugin declares (default: their max flat workgroup size)")
        ->check(integer(1, 1024));
    inspect->add_option("--compare", io.compare,
                        "compare with a resource baseline; exit status 1 on a regression (more registers, LDS, "
                        "scratch or spills, fewer waves)")
        ->check(a_path);
    inspect->add_option("--write-baseline", io.write_baseline, "write the figures as a baseline (make amd-baseline)")
        ->check(a_path);
    inspect->add_flag("--isa", io.isa,
                      "also disassemble each kernel and count its instructions by class (VALU, SALU, VMEM, SMEM, LDS, "
                      "branch, waitcnt, other; exec-mask writes; total)");
    inspect->add_option("--pair", io.pair, "two plugins, e.g. --pair reduce/atomic reduce/tree: their instruction mixes "
                                           "per target side by side, with the difference")
        ->expected(2);
    return inspect;
}

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
    return "unknown command '" + shorten(argv[1]) + "' (the commands: " + names + "; wavebench --help says more)";
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
    app.set_version_flag("--version", std::string("wavebench ") + tool_version);
    app.require_subcommand(1);

    platform_options po;
    bool json = false;
    auto* list = app.add_subcommand("list", "List the plugins of a platform, and those that could not be loaded");
    add_platform_options(list, po);
    add_in_process(list, po);
    list->add_flag("--json", json, "print JSON");

    run_options ro;
    auto* run = add_run(app, po, ro);

    std::string probe_out;
    int probe_mib = 0;
    auto* probe = app.add_subcommand("probe", "Measure the machine's ceilings (memory bandwidth; the reference's speed); on cpu also "
                                      "the runtime's costs per lane (a lane, a barrier, a shuffle) in five processes");
    add_platform_options(probe, po);
    probe->add_option("--out", probe_out, "also write the measurements to this JSON file")->check(a_path);
    probe->add_option("--mib", probe_mib, "memory to stream over, in MiB (default 256 on cpu, 1024 on GPUs)")
        ->check(integer(16, 65536));

    inspect_options io;
    auto* inspect = add_inspect(app, po, io);

    // The commands that register themselves (commands/cli.h), in the order --help lists them.
    command_list commands;
    add_compare_command(app, commands);
    add_history_command(app, commands);
    add_report_command(app, commands);
    add_merge_command(app, commands);


    // What the harness starts to load and run plugins (worker/worker.h); not for users: no help text.
    auto* worker = app.add_subcommand("worker", "");
    worker->group("");
    worker->add_option("--platform", po.name)->required();
    worker->add_option("--device", po.device);
    worker->add_option("--warp-size", po.warp_size);

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

    std::string command; // recorded in the results and the history: no password of a --db URL
    for (int i = 0; i < argc; ++i) command += (i ? " " : "") + redact_urls(argv[i]);
    try {
        if (*worker) return worker_command(po);
        for (const auto& c : commands)
            if (*c.sub) return c.body();
        if (*list) return list_command(po, json);
        if (*run) return run_command(po, ro, command);
        if (*probe) return probe_command(po, probe_out, probe_mib);
        if (*inspect) {
            if (po.name != auto_platform && parse_platform(po.name) != platform_kind::amd)
                throw std::invalid_argument("inspect reads AMD code objects: --platform amd, or name .so files");
            return inspect_command(io, std::cout, std::cerr);
        }
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
