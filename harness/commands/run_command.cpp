// `wavebench run`: a suite planned on the platform (or only listed, with --dry-run), measured
// configuration by configuration into the console table and the results JSON, then summed up.
#include "harness/commands/commands.h"
#include "harness/common/files.h"
#include "harness/history/history.h"
#include "harness/ceilings/probe.h"
#include "harness/report/results_json.h"
#include "harness/measure/interrupt.h"
#include "harness/measure/runner.h"
#include "harness/worker/worker.h"

#include <algorithm>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <set>

#include <unistd.h>

namespace wb {

namespace {

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

std::string default_out(const std::string& suite, const std::string& platform)
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    return "wavebench-results/" + suite + "-" + platform + "-" + stamp + ".json";
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

std::string host_name()
{
    char buf[256] = {};
    return gethostname(buf, sizeof buf - 1) == 0 ? std::string(buf) : std::string();
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
    std::cout << "\n" << configs.size() << " configurations (" << skips << " to be skipped) in " << suite_file << " on "
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
            os << "ceiling " << k << " " << std::fixed << std::setprecision(2) << v.value << std::defaultfloat << " "
               << v.unit << " (" << v.what << ", " << v.measured << ")\n";
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

} // namespace

int run_command(const platform_options& po, const run_options& o, const std::string& command)
{
    const suite s = parse_suite_file(o.suite_file); // suite_error: exit_bad_input
    auto p = open_platform(po);
    plugin_registry reg(p->kind());
    const auto files = find_plugin_files(reg, po.plugin_dirs);
    const int warp = p->kind() == platform_kind::cpu ? po.warp_size : 0;
    const std::vector<run_device> devices =
        o.devices.empty() ? std::vector<run_device>{{po.device, p->device()}} : devices_of(*p, o.devices, warp);
    if (po.in_process && devices.size() > 1)
        throw std::invalid_argument("--in-process runs on one device: leave out --devices, or --in-process");
    std::vector<std::unique_ptr<executor>> execs;
    if (po.in_process) {
        for (const auto& f : files) reg.add_file(f);
        execs.push_back(std::make_unique<local_executor>(p));
    } else {
        platform_options wpo = po;
        wpo.name = p->name();
        wpo.device = devices[0].ordinal;
        execs.push_back(std::make_unique<worker_executor>(wpo, files, reg));
    }
    warn_rejections(reg);

    const std::vector<config> plan = plan_suite(s, reg, o.filter, o.max_configs);
    const std::vector<config> configs = shard_of(plan, o.shard);
    if (o.dry_run) return print_plan(configs, o.suite_file, *p);
    for (size_t k = 1; k < devices.size(); ++k) { // a worker for each further device
        platform_options wpo = po;
        wpo.name = p->name();
        wpo.device = devices[k].ordinal;
        execs.push_back(std::make_unique<worker_executor>(wpo, static_cast<const worker_executor&>(*execs[0])));
    }
    // Each device's ceilings: measured (or read from the cache) once per device model.
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
    const ceilings& c = per_device[0];
    std::vector<executor*> exec_list;
    for (auto& e : execs) exec_list.push_back(e.get());
    runner r(exec_list, per_device);
    r.set_amd_static(o.amd_static);
    auto describe = [&] {
        if (execs.size() == 1) return execs[0]->describe();
        nlohmann::json d = execs[0]->describe();
        d["per_device"] = nlohmann::json::array();
        for (auto& e : execs) d["per_device"].push_back(e->describe());
        return d;
    };

    run_context ctx;
    ctx.command = command;
    ctx.platform = p->kind();
    ctx.devices = devices;
    ctx.host = host_name();
    ctx.warp_size = p->device().warp_size;
    if (p->kind() == platform_kind::cpu) ctx.lane_order = cpu_lane_order();
    ctx.machine_ceilings = c;
    ctx.suite_name = s.name;
    ctx.suite_file = o.suite_file;
    ctx.suite_description = s.description;
    ctx.settings = with_overrides(s.settings, o.overrides);
    ctx.rejected = reg.rejections();
    ctx.started = utc_now();
    ctx.isolation = describe();
    if (o.shard.count) {
        ctx.shard = o.shard;
        ctx.plan_configs = plan.size();
        ctx.plan_digest = plan_digest(plan);
    }
    warn_contradictions(ctx.settings, std::cerr);
    const std::filesystem::path out = o.out.empty() ? default_out(s.name, p->name()) : o.out;
    std::vector<std::filesystem::path> inputs = files;
    if (o.suite_file != "-") inputs.emplace_back(o.suite_file);
    check_output(out, "--out", inputs);
    write_json(out, results_document(ctx, {}, false)); // fails now, not after an hour of measuring

    // With markdown, csv or json, stdout carries the table only; the rest goes to stderr.
    std::ostream& info = o.format == table_format::table ? std::cout : std::cerr;
    std::set<std::string> used; // the ceilings this suite's families report against
    for (const auto& cfg : configs) { // with the per-working-set levels of a ceiling (ceiling_for)
        const std::string& name = cfg.plug->fam->metric.ceiling;
        used.insert(name);
        for (const std::string& level : ceiling_levels(c, name)) used.insert(level);
    }
    print_heading(info, ctx, configs.size(), used, *p);

    install_interrupt_handlers(); // from here on, SIGINT and SIGTERM stop after the current configuration
    console_table table(std::cout, configs, o.format, c, devices.size());
    progress_line progress(std::cerr, configs, ::isatty(STDERR_FILENO));
    const auto results = r.run(
        configs, ctx.settings,
        [&](const result& res, const std::vector<result>& all) {
            progress.clear(); // drawn again as the next configuration starts
            // Its row in the table of its configuration (after an interrupt on several devices,
            // results that came after a gap arrive at the end).
            const auto at = std::lower_bound(configs.begin(), configs.end(), res.plan_index,
                                             [](const config& c, size_t i) { return c.index < i; });
            table.row(size_t(at - configs.begin()), res);
            ctx.isolation = describe();
            try {
                write_json(out, results_document(ctx, all, false));
            } catch (const std::exception& e) { // keep measuring; the final write tries again
                std::cerr << "warning: " << e.what() << "\n";
            }
        },
        [&](size_t index, const config&, int) { progress.start(index); });
    progress.clear();
    const int sig = interrupted();
    if (sig) ctx.stopped_by = signal_name(sig);
    ctx.isolation = describe();
    const nlohmann::json doc = results_document(ctx, results, !sig);
    write_json(out, doc);
    // A shard is recorded once merged (wavebench merge): alone it is part of a run.
    const auto id = o.no_history || o.shard.count ? std::nullopt : record_run(o.db, doc, out.string()); // a failure only warns
    if (o.amd_static) print_amd_static(info, results);
    const int status = print_summary(info, results, configs.size(), out);
    if (id) info << "history: run " << *id << " (wavebench history lists the runs)\n";
    return sig ? 128 + sig : status;
}

} // namespace wb
