// `wavebench run`: a suite planned on the platform (or only listed, with --dry-run), measured
// configuration by configuration into the console table and the results JSON, then summed up.
#include "harness/amd/amd_build.h"
#include "harness/ceilings/probe.h"
#include "harness/commands/ab_run.h"
#include "harness/commands/commands.h"
#include "harness/commands/telemetry_options.h"
#include "harness/common/files.h"
#include "harness/common/json.h"
#include "harness/common/utc_time.h"
#include "harness/history/history.h"
#include "harness/measure/interrupt.h"
#include "harness/measure/runner.h"
#include "harness/report/results_journal.h"
#include "harness/report/results_json.h"
#include "harness/worker/worker.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <set>

#include <unistd.h>

namespace wb {

namespace {

struct run_options {
    platform_options platform;
    std::string suite_file;
    std::string filter;
    std::string out;
    uint64_t max_configs = default_max_configs; // --max-configs
    settings_overrides overrides;
    bool dry_run = false;
    bool no_ceilings = false;
    bool reprobe = false;
    bool amd_static = false;
    table_format format = table_format::table; // --format: the table on stdout
    std::string db;                            // --db: the history database ("": WAVEBENCH_DB or the default)
    bool no_history = false;                   // --no-history: record nothing
    std::string devices;                       // --devices: "all" or "0,2" ("": the --device one)
    shard_spec shard;                          // --shard I/N
    ab_options ab;                             // --baseline-plugins: an A/B run (commands/ab_run.h)
    int lock_clocks = -1;                      // --lock-clocks: -1 not asked, 0 the default clock, or --sm-clock
};

/// The cached ceilings of the device, or measured now (and cached) when there are none.
ceilings get_ceilings(const std::shared_ptr<platform>& p, bool reprobe)
{
    if (!reprobe)
        if (auto c = load_ceilings(*p)) return *c;
    std::cerr << "measuring the ceilings of " << p->device().name << " (once: they are cached)\n";
    try {
        probe_report r = probe(p, 0);
        cache_ceilings(*p, r, std::cerr);
        return r.values;
    } catch (const std::exception& e) {
        std::cerr << "warning: no ceilings, so no fraction_of_ceiling: " << e.what() << "\n";
        return {};
    }
}

/// The devices --devices names ("all", or indices such as "0,2"), each selected once to read its
/// properties; the platform is left on the first. Throws no_device for an index the platform does
/// not have, std::invalid_argument for a list that is no list.
std::vector<run_device> devices_of(platform& p, const std::string& spec, int warp_size)
{
    std::vector<int> ordinals;
    std::vector<run_device> out;
    if (spec == "all") {
        for (int k = 0;; ++k) try {
                p.init(k, warp_size);
                out.push_back({k, p.device()});
            } catch (const no_device&) {
                if (k == 0) throw;
                break;
            }
    } else {
        size_t at = 0;
        while (at <= spec.size()) {
            const size_t comma = std::min(spec.find(',', at), spec.size());
            const std::string item = spec.substr(at, comma - at);
            if (item.empty() || item.size() > 4 || item.find_first_not_of("0123456789") != std::string::npos)
                throw std::invalid_argument("--devices " + shorten(spec) + ": '" + shorten(item) +
                                            "' is no device index (give all, or indices such as 0,2)");
            const int k = std::stoi(item);
            if (std::find(ordinals.begin(), ordinals.end(), k) != ordinals.end())
                throw std::invalid_argument("--devices " + shorten(spec) + " names device " + item + " twice");
            ordinals.push_back(k);
            at = comma + 1;
        }
    }
    for (int k : ordinals) {
        p.init(k, warp_size); // no_device: names the index and how many there are
        out.push_back({k, p.device()});
    }
    p.init(out.front().ordinal, warp_size);
    return out;
}

/// --dry-run: the configurations, one a line, and how many.
int print_plan(const std::vector<config>& configs, const std::string& suite_file, const platform& p)
{
    size_t skips = 0;
    for (const auto& cfg : configs) {
        std::cout << cfg.plug->name() << " " << params_text(cfg.family_params, cfg.tunables)
                  << (cfg.skip.empty() ? "" : "  (skipped: " + cfg.skip + ")") << "\n";
        skips += !cfg.skip.empty();
    }
    std::cout << "\n"
              << configs.size() << " configurations (" << skips << " to be skipped) in " << suite_file << " on "
              << p.name() << "; nothing run\n";
    return exit_ok;
}

/// The lines above the table: the suite and its settings, the device, the ceilings it uses.
void print_heading(std::ostream& os, const run_context& ctx, size_t configs, const std::set<std::string>& used_ceilings,
                   const platform& p)
{
    const run_settings& st = ctx.settings;
    os << "suite " << ctx.suite_name << " (" << ctx.suite_file << "): " << configs << " configurations, at least "
       << st.repetitions << " repetitions"
       << (st.min_time_s > 0 ? " and " + std::to_string(st.min_time_s).substr(0, 4) + " s" : "") << " after "
       << st.warmup << " warm-up, seed " << st.seed << "\n"
       << "platform " << device_line(p) << "\n";
    if (ctx.devices.size() > 1) {
        os << "devices";
        for (size_t k = 0; k < ctx.devices.size(); ++k)
            os << (k ? ", " : " ") << ctx.devices[k].ordinal << " (" << ctx.devices[k].info.name << ")";
        os << ": one worker each, a problem's variants on one device\n";
    }
    if (ctx.shard.count)
        os << "shard " << ctx.shard.index << " of " << ctx.shard.count << ": " << configs << " of the plan's "
           << ctx.plan_configs << " configurations (wavebench merge joins the shards)\n";
    for (const auto& [k, v] : ctx.machine_ceilings)
        if (used_ceilings.count(k))
            os << "ceiling " << shown(k, 80) << " " << std::fixed << std::setprecision(2) << v.value
               << std::defaultfloat << " " << shown(v.unit, 40) << " (" << shown(v.what, 200) << ", "
               << shown(v.measured, 80) << ")\n"; // the cache is a file anyone may have edited
    os << "\n";
}

/// The counts of each status, where the results are, and what was not verified. Returns the
/// exit status.
int print_summary(std::ostream& os, const std::vector<result>& results, size_t planned,
                  const std::filesystem::path& out)
{
    size_t counts[status_count] = {};
    for (const auto& res : results) ++counts[int(res.st)];
    auto count = [&](status s) { return counts[int(s)]; };
    os << "\n"
       << count(status::verified) << " verified, " << count(status::failed) << " failed verification, "
       << count(status::error) << " errors, " << count(status::crashed) << " crashed, " << count(status::timeout)
       << " timed out, " << count(status::skipped) << " skipped";
    if (results.size() < planned) os << "; " << planned - results.size() << " not run (interrupted)";
    os << "\nresults: " << out.string() << "\n";
    const bool bad = results.size() > count(status::verified) + count(status::skipped);
    if (bad) {
        os << "\nnot verified:\n";
        for (const auto& res : results)
            if (res.st != status::verified && res.st != status::skipped)
                os << "  " << res.family << "/" << res.variant << " " << params_text(res.family_params, res.tunables)
                   << ": " << to_string(res.st)
                   << (res.where != stage::none ? std::string(" in ") + to_string(res.where) : "") << ": "
                   << res.message << "\n";
    }
    return bad ? exit_failures : exit_ok;
}

/// Each device's ceilings: measured (or read from the cache) once per device model; none with
/// --no-ceilings. The platform is left on the first device.
std::vector<ceilings> ceilings_per_device(const run_options& o, const std::shared_ptr<platform>& p,
                                          const std::vector<run_device>& devices, int warp)
{
    std::vector<ceilings> per_device(devices.size());
    for (size_t k = 0; k < devices.size() && !o.no_ceilings; ++k) {
        const auto same = std::find_if(devices.begin(), devices.begin() + long(k), [&](const run_device& d) {
            return std::string(d.info.name) == devices[k].info.name && std::string(d.info.arch) == devices[k].info.arch;
        });
        if (same != devices.begin() + long(k)) {
            per_device[k] = per_device[size_t(same - devices.begin())];
            continue;
        }
        if (k > 0) p->init(devices[k].ordinal, warp);
        per_device[k] = get_ceilings(p, o.reprobe);
    }
    if (devices.size() > 1) p->init(devices[0].ordinal, warp);
    return per_device;
}

/// What the results JSON says of the run besides its results.
run_context context_of(const run_options& o, const suite& s, const platform& p, const std::vector<run_device>& devices,
                       const plugin_registry& reg, const std::vector<config>& plan)
{
    run_context ctx = context_of_run(s, o.suite_file, p, devices, o.overrides, reg);
    if (o.shard.count) {
        ctx.shard = o.shard;
        ctx.plan_configs = plan.size();
        ctx.plan_digest = plan_digest(plan);
    }
    return ctx;
}

/// The ceilings the suite's families report against, with the per-working-set levels of each
/// (ceiling_for).
std::set<std::string> used_ceilings(const std::vector<config>& configs, const ceilings& c)
{
    std::set<std::string> used;
    for (const auto& cfg : configs) {
        const std::string& name = cfg.plug->fam->metric.ceiling;
        used.insert(name);
        for (const std::string& level : ceiling_levels(c, name)) used.insert(level);
    }
    return used;
}

/// Measures the configurations: a row of the table for each result as it comes, each result in the
/// journal, the results document rewritten now and then (report/results_journal.h). Stops early
/// after SIGINT or SIGTERM.
std::vector<result> measure_all(const run_options& o, runner& r, const std::vector<config>& configs, run_context& ctx,
                                const std::vector<std::unique_ptr<executor>>& execs, results_writer& writer)
{
    install_interrupt_handlers(); // from here on, SIGINT and SIGTERM stop after the current configuration
    console_table table(std::cout, configs, o.format, ctx.machine_ceilings, ctx.devices.size(), ctx.settings.counters);
    progress_line progress(std::cerr, configs, ::isatty(STDERR_FILENO));
    r.set_on_waiting([&](const result& res) { writer.add_waiting(res); });
    const auto results = r.run(
        configs, ctx.settings,
        [&](const std::vector<result>& all, size_t group_begin) {
            progress.clear(); // drawn again as the next configuration starts
            // Its row in the table of its configuration (after an interrupt on several devices,
            // results that came after a gap arrive at the end).
            const auto at = std::lower_bound(configs.begin(), configs.end(), all.back().plan_index,
                                             [](const config& c, size_t i) { return c.index < i; });
            table.row(size_t(at - configs.begin()), all.back());
            writer.add(all, group_begin, [&] {
                ctx.isolation = describe(execs);
                return results_document(ctx, all, false);
            });
        },
        [&](size_t index, const config&, int) { progress.start(index); });
    progress.clear();
    return results;
}

int run_command(const run_options& o)
{
    const platform_options& po = o.platform;
    const suite s = parse_suite_file(o.suite_file);           // suite_error: exit_bad_input
    if (!o.no_history && !o.shard.count) check_history(o.db); // refused or hostile: before anything is measured
    auto p = open_platform(po);
    plugin_registry reg(p->kind());
    ab_run ab(o.ab, p->kind()); // a bad --baseline-plugins: before anything loads
    const auto files = find_plugin_files(reg, po.plugin_dirs);
    const int warp = warp_size_to_ask(p->kind() == platform_kind::cpu, po.warp_size);
    const std::vector<run_device> devices =
        o.devices.empty() ? std::vector<run_device>{{po.device, p->device()}} : devices_of(*p, o.devices, warp);
    if (po.in_process && devices.size() > 1)
        throw std::invalid_argument("--in-process runs on one device: leave out --devices, or --in-process");
    std::vector<std::unique_ptr<executor>> execs;
    execs.push_back(open_executor(o.platform, p, devices[0].ordinal, files, reg));
    ab.load(*execs[0], po.in_process);
    warn_rejections(reg);

    std::vector<config> plan = plan_suite(s, reg, o.filter, o.max_configs);
    if (size_t n = p->kind() == platform_kind::amd ? skip_unbuilt_targets(plan, p->device().arch) : 0)
        std::cerr << "warning: " << n << " configurations skipped: their plugins have no code object for this GPU ("
                  << shown(p->device().arch, 64) << "); docs/amd.md says how to add its target\n";
    ab.pair(plan, s, reg, o.filter);
    const std::vector<config> configs = shard_of(plan, o.shard);
    if (o.dry_run) return print_plan(configs, o.suite_file, *p);
    for (size_t k = 1; k < devices.size(); ++k) { // a worker for each further device
        platform_options wpo = po;
        wpo.name = p->name();
        wpo.device = devices[k].ordinal;
        execs.push_back(std::make_unique<worker_executor>(wpo, static_cast<const worker_executor&>(*execs[0])));
    }
    const std::vector<ceilings> per_device = ceilings_per_device(o, p, devices, warp);
    std::vector<executor*> exec_list;
    for (auto& e : execs) exec_list.push_back(e.get());
    runner r(exec_list, per_device);
    r.set_amd_static(o.amd_static);

    run_context ctx = context_of(o, s, *p, devices, reg, plan);
    ctx.machine_ceilings = per_device[0];
    ctx.ab = ab.describe();
    ctx.isolation = describe(execs);
    warn_contradictions(ctx.settings, std::cerr);
    const auto clock_lock = lock_clocks_for(o.lock_clocks, *p, devices, ctx.clocks, std::cerr); // restored at exit
    const std::filesystem::path out = o.out.empty() ? default_out(s.name, p->name()) : o.out;
    std::vector<std::filesystem::path> inputs = files;
    if (o.suite_file != "-") inputs.emplace_back(o.suite_file);
    check_output(out, "--out", inputs);
    // Fails now, not after an hour of measuring; later a write that fails only warns.
    results_writer writer(out, results_document(ctx, {}, false), [](const std::string& w) { std::cerr << w << "\n"; });

    // With markdown, csv or json, stdout carries the table only; the rest goes to stderr.
    std::ostream& info = o.format == table_format::table ? std::cout : std::cerr;
    print_heading(info, ctx, configs.size(), used_ceilings(configs, ctx.machine_ceilings), *p);
    const auto results = measure_all(o, r, configs, ctx, execs, writer);
    const int sig = interrupted();
    if (sig) ctx.stopped_by = signal_name(sig);
    ctx.isolation = describe(execs);
    nlohmann::json doc = results_document(ctx, results, !sig);
    const int ab_status = ab.finish(doc, out.string(), info, o.format); // the comparison, into doc
    writer.finish(doc);
    // A shard is recorded once merged (wavebench merge): alone it is part of a run.
    const auto id =
        o.no_history || o.shard.count ? std::nullopt : record_run(o.db, doc, out.string()); // a failure only warns
    if (o.amd_static) print_amd_static(info, results);
    const int status = print_summary(info, results, configs.size(), out);
    print_wall_time(info, doc);
    if (id) info << "history: run " << *id << " (wavebench history lists the runs)\n";
    return sig ? 128 + sig : std::max(status, ab_status);
}

/// --format, --devices and --shard: how the table is written and where the suite runs.
void add_output_and_placement(CLI::App* run, run_options& ro)
{
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
}

} // namespace

void add_run_command(CLI::App& app, command_list& commands)
{
    auto o = std::make_shared<run_options>();
    run_options& ro = *o;
    auto* run = app.add_subcommand("run", "Run a TOML suite: every configuration measured and verified");
    run->add_option("suite", ro.suite_file, "suite file, e.g. suites/quick.toml (- reads standard input)")
        ->required()
        ->check(a_path);
    add_platform_options(run, ro.platform);
    add_in_process(run, ro.platform);
    run->add_option("--filter", ro.filter, "run only family/variant names matching this glob, e.g. 'reduce/tree*'");
    run->add_option("--out", ro.out,
                    "results JSON (each result is appended to FILE.journal as it comes, the file rewritten now and "
                    "then and at the end, when the journal is removed); "
                    "default wavebench-results/<suite>-<platform>-<time>.json; never the suite or a plugin")
        ->check(a_path);
    run->add_option("--max-configs", ro.max_configs,
                    "the most configurations the suite may expand to (a larger suite is refused before anything runs)")
        ->capture_default_str()
        ->check(integer(1, 1000000000000));
    add_settings_overrides(run, ro.overrides);
    add_telemetry_options(run, ro.overrides, ro.lock_clocks);
    run->add_flag("--dry-run", ro.dry_run,
                  "list the configurations the suite expands to on this platform, and run nothing");
    run->add_flag("--no-ceilings", ro.no_ceilings, "do not probe or report the fraction of the machine's ceiling");
    run->add_flag("--reprobe", ro.reprobe, "measure the machine's ceilings again instead of using the cached ones");
    run->add_flag("--amd-static", ro.amd_static,
                  "also give each kernel's AMD figures (registers, occupancy per target) at the launch it ran with, "
                  "from the plugin's amd build: no AMD GPU needed");
    add_output_and_placement(run, ro);
    add_ab_options(run, ro.ab);
    add_db_option(run, ro.db, "record the run in");
    run->add_flag("--no-history", ro.no_history, "do not record the run in the history");
    commands.push_back({run, [o] { return run_command(*o); }});
}

} // namespace wb
