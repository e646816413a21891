// What every command starts from: the platform it asks for (or the best one with a device), that
// platform's plugins, and the line that names the device (commands/commands.h).
#include "harness/commands/commands.h"

#include <cstdlib>
#include <iostream>
#include <stdexcept>

namespace wb {

bool valid_lane_order(const std::string& order)
{
    if (order == "forward" || order == "reverse" || order == "random") return true;
    const std::string seed = order.rfind("random:", 0) == 0 ? order.substr(7) : "";
    return !seed.empty() && seed.size() <= 19 && seed.find_first_not_of("0123456789") == std::string::npos;
}

std::string cpu_lane_order()
{
    const char* v = std::getenv("WAVEBENCH_CPU_LANE_ORDER");
    const std::string order = v && *v ? v : "forward";
    if (!valid_lane_order(order))
        throw std::invalid_argument("WAVEBENCH_CPU_LANE_ORDER='" + shown(order, 100) +
                                    "' is not forward, reverse, random or random:SEED");
    return order;
}

namespace {
std::shared_ptr<platform> open_any_platform(const platform_options& o)
{
    if (o.name != auto_platform) {
        auto p = platform::load(o.name);
        p->init(o.device, o.warp_size);
        return p;
    }
    std::string why;
    bool only_devices_missing = true;
    for (const platform_kind kind : platform::built()) {
        const std::string name = to_string(kind);
        try {
            auto p = platform::load(kind);
            p->init(o.device, p->kind() == platform_kind::cpu ? o.warp_size : 0);
            return p;
        } catch (const no_device& e) {
            why += "\n  " + name + ": " + e.what();
        } catch (const platform_unavailable& e) {
            why += "\n  " + name + ": " + e.what();
            only_devices_missing = false;
        }
    }
    if (only_devices_missing && !why.empty()) throw no_device("no platform has the device asked for:" + why);
    throw platform_unavailable("no platform could be started:" + why);
}
} // namespace

std::shared_ptr<platform> open_platform(const platform_options& o)
{
    // The runtime and the workers (which inherit the environment) read the lane order from there.
    if (!o.lane_order.empty()) ::setenv("WAVEBENCH_CPU_LANE_ORDER", o.lane_order.c_str(), 1);
    (void)cpu_lane_order(); // a bad value in the environment is refused before anything runs
    auto p = open_any_platform(o);
    if (!o.lane_order.empty() && p->kind() != platform_kind::cpu)
        throw std::invalid_argument("--lane-order is an option of the cpu platform, which runs a wavefront's lanes "
                                    "one after another; " + p->name() + " runs them in hardware");
    return p;
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
    for (const auto& r : reg.rejections()) std::cerr << "warning: plugin " << shown(r.path.string(), 400) << " " << r.reason << "\n";
}

std::string device_line(const platform& p)
{
    const auto& d = p.device();
    const char* units = p.kind() == platform_kind::cpu ? " workers" : " multiprocessors";
    return p.name() + ": " + d.name + " (" + d.arch + ", " + std::to_string(d.multiprocessors) + units + ", warp " +
           std::to_string(d.warp_size) + ")";
}

} // namespace wb
