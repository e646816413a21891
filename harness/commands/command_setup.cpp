// What every command starts from besides the platform (platform/platform_options.h): that
// platform's plugins, and the line that names the device (commands/commands.h).
#include "harness/commands/commands.h"
#include "harness/common/utc_time.h"
#include "harness/worker/worker.h"

#include <ctime>
#include <iostream>

#include <unistd.h>

namespace wb {

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
    cmd->add_option("--warp-size", o.warp_size,
                    "cpu platform: wavefront width, 32 or 64 (default " + std::to_string(cpu_default_warp_size) + ")")
        ->check(one_of({32, 64}));
    cmd->add_option("--lane-order", o.lane_order,
                    "cpu platform: the order a wavefront's lanes run in between synchronization points: forward "
                    "(default), reverse, random or random:SEED; a result that changes with it is a race between "
                    "lanes, such as warp-synchronous code (sets WAVEBENCH_CPU_LANE_ORDER)")
        ->check(CLI::Validator(
            [](std::string& v) {
                return valid_lane_order(v) ? std::string()
                                           : "'" + v + "' is not forward, reverse, random or random:SEED";
            },
            "ORDER"));
}

void add_in_process(CLI::App* cmd, platform_options& o)
{
    cmd->add_flag("--in-process", o.in_process,
                  "load and run the plugins in this process, for debugging with gdb (by default they run in worker "
                  "processes, where a crash or a hang costs only its own result)");
}

std::vector<std::filesystem::path> find_plugin_files(plugin_registry& reg, const std::vector<std::string>& dirs)
{
    std::vector<std::filesystem::path> files;
    for (const auto& d : plugin_directories(to_string(reg.platform()), dirs))
        for (auto& f : plugin_files(d, reg)) files.push_back(std::move(f));
    return files;
}

std::unique_ptr<executor> open_executor(const platform_options& po, const std::shared_ptr<platform>& p, int device,
                                        const std::vector<std::filesystem::path>& files, plugin_registry& reg)
{
    if (po.in_process) {
        for (const auto& f : files) reg.add_file(f);
        return std::make_unique<local_executor>(p);
    }
    platform_options wpo = po;
    wpo.name = p->name();
    wpo.device = device;
    return std::make_unique<worker_executor>(wpo, files, reg);
}

void warn_rejections(const plugin_registry& reg)
{
    for (const auto& r : reg.rejections())
        std::cerr << "warning: plugin " << shown(r.path.string(), 400) << " " << r.reason << "\n";
}

std::string device_line(const platform& p)
{
    const auto& d = p.device();
    const char* units = p.kind() == platform_kind::cpu ? " workers" : " multiprocessors";
    return p.name() + ": " + d.name + " (" + d.arch + ", " + std::to_string(d.multiprocessors) + units + ", warp " +
           std::to_string(d.warp_size) + ")";
}

std::string host_name()
{
    char buf[256] = {};
    return gethostname(buf, sizeof buf - 1) == 0 ? std::string(buf) : std::string();
}

/// --repetitions, --warmup, --min-time, --verify-every, --timeout: the suite's settings overridden.
void add_settings_overrides(CLI::App* run, settings_overrides& so)
{
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

run_context context_of_run(const suite& s, const std::string& suite_file, const platform& p,
                           const std::vector<run_device>& devices, const settings_overrides& overrides,
                           const plugin_registry& reg)
{
    run_context ctx;
    ctx.command = command_line();
    ctx.platform = p.kind();
    ctx.devices = devices;
    ctx.host = host_name();
    ctx.warp_size = p.device().warp_size;
    if (p.kind() == platform_kind::cpu) ctx.lane_order = cpu_lane_order();
    ctx.suite_name = s.name;
    ctx.suite_file = suite_file;
    ctx.suite_description = s.description;
    ctx.settings = with_overrides(s.settings, overrides);
    ctx.rejected = reg.rejections();
    ctx.started = utc_now();
    return ctx;
}

} // namespace wb
