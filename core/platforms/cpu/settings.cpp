// The CPU runtime's settings from the environment: counts (WAVEBENCH_CPU_THREADS and the like)
// and the lane order (WAVEBENCH_CPU_LANE_ORDER), which hipCpuSetLaneOrder changes later.
#include "runtime_common.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {

size_t env_size(const char* name, size_t fallback)
{
    const char* v = std::getenv(name);
    if (!v || !*v) return fallback;
    char* end = nullptr;
    unsigned long long x = std::strtoull(v, &end, 10);
    return (end && *end == 0 && x > 0) ? size_t(x) : fallback;
}

namespace {

/// WAVEBENCH_CPU_LANE_ORDER: forward, reverse, random or random:SEED (a bad value is an error on
/// stderr and the default, forward).
lane_order_setting lane_order_from_environment()
{
    lane_order_setting s;
    const char* v = std::getenv("WAVEBENCH_CPU_LANE_ORDER");
    if (!v || !*v) return s;
    const std::string text = v;
    char* end = nullptr;
    if (text == "forward") return s;
    if (text == "reverse") {
        s.order = hipCpuLaneOrderReverse;
        return s;
    }
    if (text == "random") {
        s.order = hipCpuLaneOrderRandom;
        return s;
    }
    if (text.rfind("random:", 0) == 0 && text.size() > 7 && std::isdigit(static_cast<unsigned char>(text[7]))) {
        s.seed = std::strtoull(text.c_str() + 7, &end, 10);
        if (end && *end == 0) {
            s.order = hipCpuLaneOrderRandom;
            return s;
        }
    }
    std::fprintf(stderr,
                 "wavebench cpu runtime: WAVEBENCH_CPU_LANE_ORDER='%s' is not forward, reverse, random or "
                 "random:SEED; lanes run forward\n",
                 v);
    return lane_order_setting{};
}

} // namespace

lane_order_setting& lane_order()
{
    static lane_order_setting s = lane_order_from_environment();
    return s;
}

} // namespace cpu_runtime
#pragma GCC visibility pop
