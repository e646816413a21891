// Opening the platform a command asks for, or the best one with a device; the cpu platform's lane
// order (platform/platform_options.h).
#include "harness/platform/platform_options.h"

#include "harness/common/files.h"

#include <cstdlib>
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
            p->init(o.device, warp_size_to_ask(p->kind() == platform_kind::cpu, o.warp_size));
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
                                    "one after another; " +
                                    p->name() + " runs them in hardware");
    return p;
}

} // namespace wb
