// What every command starts from besides the platform (platform/platform_options.h): that
// platform's plugins, and the line that names the device (commands/commands.h).
#include "harness/commands/commands.h"

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

} // namespace wb
