// wavebench: runs GPU kernel variants (plugins) from TOML suites, verifies every result against
// a CPU reference and reports time, throughput against the machine's ceiling, and resources.
#include "harness/inspect.h"
#include "harness/platform.h"
#include "harness/plugins.h"
#include "harness/probe.h"
#include "harness/report.h"
#include "harness/runner.h"
#include "harness/suite.h"

#include <CLI/CLI.hpp>

#include <array>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <set>

namespace wb {
extern const char* const tool_version;
}

namespace {

using namespace wb;
namespace fs = std::filesystem;

/// Exit statuses (also in --help).
enum exit_status { exit_ok = 0, exit_failures = 1, exit_bad_input = 2, exit_no_platform = 3, exit_no_device = 4 };

struct platform_options {
    std::string name = "auto";
    int device = 0;
    int warp_size = 0;
    std::vector<std::string> plugin_dirs;
};

void add_platform_options(CLI::App* cmd, platform_options& o, bool device_options = true)
{
    cmd->add_option("--platform", o.name, "cpu, amd, nvidia, or auto: the first of nvidia, amd, cpu with a device")
        ->capture_default_str();
    cmd->add_option("--plugins", o.plugin_dirs,
                    "another plugin directory (repeatable; DIR/<platform>/ is searched too); "
                    "WAVEBENCH_PLUGIN_PATH adds more");
    if (!device_options) return;
    cmd->add_option("--device", o.device, "device index")->capture_default_str();
    cmd->add_option("--warp-size", o.warp_size, "cpu platform: wavefront width, 32 or 64 (default 64)")
        ->check(CLI::IsMember({32, 64}));
}

/// Opens the platform asked for; with "auto" the best one built here that has a device.
std::shared_ptr<platform> open_platform(const platform_options& o)
{
    if (o.name != "auto") {
        auto p = platform::load(o.name);
        p->init(o.device, o.warp_size);
        return p;
    }
    std::string why;
    for (const auto& name : platform::built()) {
        try {
            auto p = platform::load(name);
            p->init(o.device, name == "cpu" ? o.warp_size : 0);
            return p;
        } catch (const platform_unavailable& e) {
            why += "\n  " + name + ": " + e.what();
        }
    }
    throw platform_unavailable("no platform could be started:" + why);
}

plugin_registry load_plugins(const std::string& platform, const std::vector<std::string>& dirs)
{
    plugin_registry reg(platform);
    for (const auto& d : plugin_directories(platform, dirs)) reg.add_directory(d);
    return reg;
}

void warn_rejections(const plugin_registry& reg)
{
    for (const auto& r : reg.rejections()) std::cerr << "warning: plugin " << r.path.string() << " " << r.reason << "\n";
}

std::string device_line(const platform& p)
{
    const auto& d = p.device();
    std::string s = p.name() + ": " + d.name + " (" + d.arch + ", " + std::to_string(d.multiprocessors) +
                    (p.name() == "cpu" ? " workers" : " multiprocessors") + ", warp " + std::to_string(d.warp_size) + ")";
    return s;
}

// ---- list -------------------------------------------------------------------------------------
int cmd_list(const platform_options& o, bool json)
{
    std::shared_ptr<platform> p;
    std::string device_problem;
    std::string name = o.name;
    try {
        p = open_platform(o);
        name = p->name();
    } catch (const platform_unavailable& e) {
        if (o.name == "auto") name = "cpu";
        device_problem = e.what();
    }
    const plugin_registry reg = load_plugins(name, o.plugin_dirs);
    if (json) {
        nlohmann::json plugins = nlohmann::json::array(), rejected = nlohmann::json::array();
        for (const auto& pl : reg.plugins()) {
            const wb_plugin& d = *pl.desc;
            nlohmann::json kernels = nlohmann::json::array(), tunables = nlohmann::json::array();
            for (uint32_t i = 0; i < d.n_kernels; ++i) kernels.push_back(d.kernels[i].name);
            for (uint32_t i = 0; i < d.n_tunables; ++i) {
                const wb_tunable& t = d.tunables[i];
                tunables.push_back({{"name", t.name},
                                    {"default", t.default_value},
                                    {"allowed", describe_allowed(t)},
                                    {"help", t.help ? t.help : ""}});
            }
            plugins.push_back({{"family", d.family},
                               {"variant", d.variant},
                               {"summary", d.summary ? d.summary : ""},
                               {"seed", d.seed ? d.seed : ""},
                               {"platform", d.platform},
                               {"path", pl.path.string()},
                               {"baseline", pl.fam->baseline == d.variant},
                               {"kernels", kernels},
                               {"tunables", tunables}});
        }
        for (const auto& r : reg.rejections()) rejected.push_back({{"path", r.path.string()}, {"reason", r.reason}});
        nlohmann::json doc{{"platform", name},
                           {"device", p ? device_json(p->device()) : nlohmann::json()},
                           {"device_problem", device_problem.empty() ? nlohmann::json() : nlohmann::json(device_problem)},
                           {"plugins", plugins},
                           {"rejected", rejected}};
        std::cout << doc.dump(2) << "\n";
        return exit_ok;
    }
    std::cout << "platform " << (p ? device_line(*p) : name + ": no device (" + device_problem + ")") << "\n\n";
    std::vector<std::array<std::string, 3>> rows{{"variant", "tunables (defaults)", "summary"}};
    for (const auto& pl : reg.plugins()) {
        const wb_plugin& d = *pl.desc;
        std::string tunables;
        for (uint32_t i = 0; i < d.n_tunables; ++i)
            tunables += (i ? " " : "") + std::string(d.tunables[i].name) + "=" + std::to_string(d.tunables[i].default_value);
        rows.push_back({pl.name() + (pl.fam->baseline == d.variant ? " *" : ""), tunables, d.summary ? d.summary : ""});
    }
    size_t w0 = 0, w1 = 0;
    for (const auto& r : rows) {
        w0 = std::max(w0, r[0].size());
        w1 = std::max(w1, r[1].size());
    }
    for (const auto& r : rows)
        std::cout << r[0] << std::string(w0 + 2 - r[0].size(), ' ') << r[1] << std::string(w1 + 2 - r[1].size(), ' ')
                  << r[2] << "\n";
    if (!reg.plugins().empty())
        std::cout << "\n* the family's baseline. --json shows each tunable's allowed values, the seed sections, "
                     "kernels and files.\n";
    if (reg.plugins().empty()) std::cout << "no plugins loaded\n";
    if (!reg.rejections().empty()) {
        std::cout << "\nnot loaded:\n";
        for (const auto& r : reg.rejections()) std::cout << "  " << r.path.string() << " " << r.reason << "\n";
    }
    return exit_ok;
}

// ---- ceilings ---------------------------------------------------------------------------------
ceilings get_ceilings(const std::shared_ptr<platform>& p, bool reprobe)
{
    if (!reprobe)
        if (auto c = load_ceilings(*p)) return *c;
    std::cerr << "measuring the ceilings of " << p->device().name << " (once; cached in "
              << ceiling_cache_path(*p).string() << ", --reprobe measures again)\n";
    try {
        probe_report r = probe(p, 0);
        save_ceilings(*p, r);
        return r.values;
    } catch (const std::exception& e) {
        std::cerr << "warning: no ceilings, so no fraction_of_ceiling: " << e.what() << "\n";
        return {};
    }
}

// ---- run --------------------------------------------------------------------------------------
struct run_options {
    std::string suite_file;
    std::string filter;
    std::string out;
    int repetitions = 0;
    int warmup = -1;
    double min_time_s = -1;
    int verify_every = 0;
    bool dry_run = false;
    bool no_ceilings = false;
    bool reprobe = false;
    bool amd_static = false;
};

std::string default_out(const std::string& suite, const std::string& platform)
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    return "wavebench-results/" + suite + "-" + platform + "-" + stamp + ".json";
}

int cmd_run(const platform_options& po, const run_options& o, const std::string& command)
{
    const suite s = parse_suite_file(o.suite_file); // suite_error: exit_bad_input
    auto p = open_platform(po);
    const plugin_registry reg = load_plugins(p->name(), po.plugin_dirs);
    warn_rejections(reg);

    const ceilings c = o.no_ceilings || o.dry_run ? ceilings{} : get_ceilings(p, o.reprobe);
    runner r(p, reg, c);
    r.set_amd_static(o.amd_static);
    const std::vector<config> configs = r.plan(s, o.filter);
    if (o.dry_run) {
        size_t skips = 0;
        for (const auto& cfg : configs) {
            std::cout << cfg.plug->name() << " " << params_text(cfg.family_params, cfg.tunables)
                      << (cfg.skip.empty() ? "" : "  (skipped: " + cfg.skip + ")") << "\n";
            skips += !cfg.skip.empty();
        }
        std::cout << "\n" << configs.size() << " configurations (" << skips << " to be skipped) in " << o.suite_file
                  << " on " << p->name() << "; nothing run\n";
        return exit_ok;
    }

    run_context ctx;
    ctx.command = command;
    ctx.platform = p->name();
    ctx.device = p->device();
    ctx.warp_size = p->device().warp_size;
    ctx.machine_ceilings = c;
    ctx.suite_name = s.name;
    ctx.suite_file = o.suite_file;
    ctx.suite_description = s.description;
    ctx.settings = {o.repetitions > 0 ? o.repetitions : s.repetitions,
                    o.warmup >= 0 ? o.warmup : s.warmup,
                    s.seed,
                    o.min_time_s >= 0 ? o.min_time_s : s.min_time_s,
                    s.max_samples,
                    s.max_time_s,
                    o.verify_every > 0 ? o.verify_every : s.verify_every};
    ctx.rejected = reg.rejections();
    ctx.started = utc_now();
    const run_settings& st = ctx.settings;
    if (st.min_time_s > st.max_time_s)
        std::cerr << "warning: min_time_s " << st.min_time_s << " is more than max_time_s " << st.max_time_s
                  << ": measuring stops at max_time_s (after at least " << st.repetitions << " repetitions)\n";
    if (st.max_samples < st.repetitions)
        std::cerr << "warning: max_samples " << st.max_samples << " is below repetitions " << st.repetitions
                  << ": every configuration still gets " << st.repetitions << " samples\n";
    const fs::path out = o.out.empty() ? default_out(s.name, p->name()) : o.out;
    write_json(out, results_document(ctx, {}, false)); // fails now, not after an hour of measuring

    std::cout << "suite " << s.name << " (" << o.suite_file << "): " << configs.size() << " configurations, at least "
              << ctx.settings.repetitions << " repetitions"
              << (ctx.settings.min_time_s > 0 ? " and " + std::to_string(ctx.settings.min_time_s).substr(0, 4) + " s" : "")
              << " after " << ctx.settings.warmup << " warm-up, seed " << ctx.settings.seed << "\n"
              << "platform " << device_line(*p) << "\n";
    std::set<std::string> used; // the ceilings this suite's families report against
    for (const auto& cfg : configs) used.insert(cfg.plug->fam->metric.ceiling);
    for (const auto& [k, v] : c)
        if (used.count(k))
            std::cout << "ceiling " << k << " " << std::fixed << std::setprecision(2) << v.value << std::defaultfloat << " "
                      << v.unit << " (" << v.what << ", " << v.measured << ")\n";
    std::cout << "\n";

    console_table table(std::cout, configs);
    const auto results = r.run(configs, ctx.settings, [&](const result& res, const std::vector<result>& all) {
        table.row(res);
        try {
            write_json(out, results_document(ctx, all, false));
        } catch (const std::exception& e) { // keep measuring; the final write tries again
            std::cerr << "warning: " << e.what() << "\n";
        }
    });
    write_json(out, results_document(ctx, results, true));
    if (o.amd_static) print_amd_static(std::cout, results);

    size_t counts[4] = {};
    for (const auto& res : results) ++counts[int(res.st)];
    std::cout << "\n"
              << counts[int(status::verified)] << " verified, " << counts[int(status::failed)] << " failed verification, "
              << counts[int(status::error)] << " errors, " << counts[int(status::skipped)] << " skipped\n"
              << "results: " << out.string() << "\n";
    const bool bad = counts[int(status::failed)] + counts[int(status::error)] > 0;
    if (bad) {
        std::cout << "\nnot verified:\n";
        for (const auto& res : results)
            if (res.st == status::failed || res.st == status::error)
                std::cout << "  " << res.family << "/" << res.variant << " "
                          << params_text(res.family_params, res.tunables) << ": " << res.message << "\n";
    }
    return bad ? exit_failures : exit_ok;
}

// ---- probe ------------------------------------------------------------------------------------
int cmd_probe(const platform_options& po, const std::string& out, int mib)
{
    auto p = open_platform(po);
    std::cout << "probing " << device_line(*p) << "\n\n";
    const probe_report r = probe(p, size_t(mib) << 20);
    save_ceilings(*p, r);
    for (const auto& line : r.summary) std::cout << "  " << line << "\n";
    std::cout << "\ncached in " << ceiling_cache_path(*p).string() << "\n";
    if (!out.empty()) {
        write_json(out, {{"tool_version", tool_version},
                         {"measured", utc_now()},
                         {"platform", p->name()},
                         {"device", device_json(p->device())},
                         {"ceilings", ceilings_json(r.values)},
                         {"details", r.details}});
        std::cout << "written to " << out << "\n";
    }
    return exit_ok;
}

} // namespace

int main(int argc, char** argv)
{
    CLI::App app{"wavebench: GPU kernel variants as plugins, verified against a CPU reference and measured.\n"
                 "Exit status: 0 all verified (or skipped), 1 a configuration failed verification or errored\n"
                 "(inspect: a resource regression), 2 bad input (arguments, suite, filter), 3 the platform is\n"
                 "unknown or not built here, 4 the platform is built but finds no device (an AMD or NVIDIA GPU)."};
    app.set_version_flag("--version", std::string("wavebench ") + tool_version);
    app.require_subcommand(1);

    platform_options po;
    bool json = false;
    auto* list = app.add_subcommand("list", "List the plugins of a platform, and those that could not be loaded");
    add_platform_options(list, po);
    list->add_flag("--json", json, "print JSON");

    run_options ro;
    auto* run = app.add_subcommand("run", "Run a TOML suite: every configuration measured and verified");
    run->add_option("suite", ro.suite_file, "suite file, e.g. suites/quick.toml")->required();
    add_platform_options(run, po);
    run->add_option("--filter", ro.filter, "run only family/variant names matching this glob, e.g. 'reduce/tree*'");
    run->add_option("--out", ro.out,
                    "results JSON (rewritten after every configuration); "
                    "default wavebench-results/<suite>-<platform>-<time>.json");
    run->add_option("--repetitions", ro.repetitions, "measured runs per configuration, at least (overrides the suite)")
        ->check(CLI::Range(1, 1000000));
    run->add_option("--warmup", ro.warmup, "unmeasured runs first (overrides the suite)")->check(CLI::Range(0, 1000000));
    run->add_option("--min-time", ro.min_time_s,
                    "keep measuring until this many seconds of device time are in (overrides the suite's min_time_s)")
        ->check(CLI::Range(0.0, 3600.0));
    run->add_option("--verify-every", ro.verify_every,
                    "after the first runs (warm-up, each input copy twice), compare every Nth run's output with the "
                    "reference; 1 checks every run (overrides the suite's verify_every, default 10)")
        ->check(CLI::Range(1, 1000000));
    run->add_flag("--dry-run", ro.dry_run, "list the configurations the suite expands to on this platform, and run nothing");
    run->add_flag("--no-ceilings", ro.no_ceilings, "do not probe or report the fraction of the machine's ceiling");
    run->add_flag("--reprobe", ro.reprobe, "measure the machine's ceilings again instead of using the cached ones");
    run->add_flag("--amd-static", ro.amd_static,
                  "also give each kernel's AMD figures (registers, occupancy per target) at the launch it ran with, "
                  "from the plugin's amd build: no AMD GPU needed");

    std::string probe_out;
    int probe_mib = 0;
    auto* probe = app.add_subcommand("probe", "Measure the machine's ceilings (memory bandwidth; the reference's speed)");
    add_platform_options(probe, po);
    probe->add_option("--out", probe_out, "also write the measurements to this JSON file");
    probe->add_option("--mib", probe_mib, "memory to stream over, in MiB (default 256 on cpu, 1024 on GPUs)")
        ->check(CLI::Range(16, 65536));

    inspect_options io;
    auto* inspect = app.add_subcommand(
        "inspect", "AMD static figures of hipcc-built .so files, no GPU needed: registers, LDS, scratch, spills, "
                   "occupancy per target");
    inspect->add_option("files", io.files, "plugin or any HIP .so files (default: every plugin of the amd platform)");
    inspect->add_option("--platform", po.name, "amd: every plugin of the amd platform (the default without files)");
    inspect->add_option("--plugins", io.plugin_dirs, "another plugin directory (repeatable)");
    inspect->add_option("--target", io.targets, "only these targets, e.g. gfx90a (repeatable)");
    inspect->add_flag("--json", io.json, "print JSON");
    inspect->add_option("--block-size", io.block_size,
                        "block size for kernels no plugin declares (default: their max flat workgroup size)")
        ->check(CLI::Range(1, 1024));
    inspect->add_option("--compare", io.compare,
                        "compare with a resource baseline; exit status 1 on a regression (more registers, LDS, "
                        "scratch or spills, fewer waves)");
    inspect->add_option("--write-baseline", io.write_baseline, "write the figures as a baseline (make amd-baseline)");
    inspect->add_flag("--isa", io.isa,
                      "also disassemble each kernel and count its instructions by class (VALU, SALU, VMEM, SMEM, LDS, "
                      "branch, waitcnt, other; exec-mask writes; total)");
    inspect->add_option("--pair", io.pair, "two plugins, e.g. --pair reduce/atomic reduce/tree: their instruction mixes "
                                           "per target side by side, with the difference")
        ->expected(2);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? exit_ok : exit_bad_input;
    }

    std::string command;
    for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
    try {
        if (*list) return cmd_list(po, json);
        if (*run) return cmd_run(po, ro, command);
        if (*probe) return cmd_probe(po, probe_out, probe_mib);
        if (*inspect) {
            if (po.name != "auto" && po.name != "amd")
                throw std::invalid_argument("inspect reads AMD code objects: --platform amd, or name .so files");
            return inspect_command(io, std::cout, std::cerr);
        }
    } catch (const suite_error& e) {
        std::cerr << "error: " << e.what() << "\n";
        return exit_bad_input;
    } catch (const no_device& e) {
        std::cerr << "error: " << e.what() << "\n";
        return exit_no_device;
    } catch (const platform_unavailable& e) {
        std::cerr << "error: " << e.what() << "\n";
        return exit_no_platform;
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return exit_bad_input;
    }
    return exit_ok;
}
