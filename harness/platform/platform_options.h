// What a command asks of the platform (--platform, --device, --warp-size, --lane-order, --plugins,
// --in-process), how the platform is opened from it, and the cpu platform's lane order: shared by
// the commands, the worker processes, measurement and the probe.
#pragma once

#include "harness/platform/platform.h"
#include "wavebench/warp_size.h"

#include <memory>
#include <string>
#include <vector>

namespace wb {

/// --platform's value that picks the best platform built here with a device.
inline constexpr const char* auto_platform = "auto";

struct platform_options {
    std::string name = auto_platform; // a platform's name, or auto_platform
    int device = 0;
    int warp_size = 0;      // 0: the platform's own
    std::string lane_order; // cpu: forward, reverse, random[:SEED]; empty: the environment's
    std::vector<std::string> plugin_dirs;
    bool in_process = false; // load and run plugins in this process (for gdb), not in workers
};

/// Opens the platform asked for; with auto_platform, the first of platform::built() that starts.
/// Throws no_device when the platform (with auto_platform: every one) has no such device, and
/// platform_unavailable when it cannot be started otherwise.
std::shared_ptr<platform> open_platform(const platform_options& o);

/// The cpu platform's lane order (WAVEBENCH_CPU_LANE_ORDER, which --lane-order sets): "forward"
/// when unset. Throws std::invalid_argument for a value the runtime does not know.
std::string cpu_lane_order();
/// Whether `order` is forward, reverse, random or random:SEED.
bool valid_lane_order(const std::string& order);

} // namespace wb
