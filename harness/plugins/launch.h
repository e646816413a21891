// A kernel's launch in a configuration (block size and dynamic LDS): the one place the harness
// works it out, for the resource report of a run and for the AMD static figures alike.
#pragma once

#include "harness/plugins/plugins.h"

#include <cstdint>
#include <string>

namespace wb {

struct kernel_launch {
    int block_size = 0;
    int64_t dynamic_lds = 0;
    std::string from; // how the block size was chosen: "block_size=512", "block_size=256 (default)", "fixed 64"
};

/// Kernel `index` of `p` with the tunables `tunables` (those not given: their defaults). Where the
/// plugin's code is loaded here and `args` holds the configuration, the plugin answers
/// (wb_plugin::launch). Otherwise, for a plugin of SDK 2.0 or one a worker declared, the launch
/// follows from its declaration: the block size tunable's value or the fixed size, times
/// lds_bytes_per_thread of dynamic LDS, or what the plugin's dynamic_lds gives where it has one.
kernel_launch resolve_launch(const plugin& p, size_t index, const param_map& tunables, const wb_args* args = nullptr);

} // namespace wb
