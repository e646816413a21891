// The references, one per family: how the expected outputs of a configuration are computed (and,
// where a family has one, the analytic model of its variants). A family's definition
// (core/families/<family>.cpp) says what the problem is; its reference (reference/<family>.cpp)
// computes the answer. Each reference/<family>.cpp defines `wb::ref::reference_<family>()`; the
// table below is generated from the families there are (reference/CMakeLists.txt).
#pragma once

#include "core/family.h"

#include <optional>
#include <string_view>
#include <vector>

namespace wb {

struct family_reference {
    /// Computes the expected outputs (already shaped) from the inputs.
    void (*compute)(const param_map&, const std::vector<host_buffer>& inputs, std::vector<host_buffer>& expected);
    /// Optional: a model's predicted speedup of `variant` over the family's baseline on these
    /// inputs, from the family parameters and the variant's tunables, on wavefronts of `warp_size`
    /// lanes.
    std::optional<double> (*model)(const param_map&, std::string_view variant, const std::vector<host_buffer>& inputs,
                                   unsigned warp_size) = nullptr;
    /// Optional: a second model's prediction, one that needs the device's architecture as the
    /// harness reports it (wb_device_info.arch, e.g. "sm_90"); nullopt where it has nothing for it.
    std::optional<double> (*model_issue)(const param_map&, std::string_view variant,
                                         const std::vector<host_buffer>& inputs, unsigned warp_size,
                                         std::string_view arch) = nullptr;
    /// Optional: the model's SIMT efficiency of `variant` (useful lane-instructions over the
    /// instructions its wavefronts execute times their width), set beside the hardware's
    /// counter (run --counters).
    std::optional<double> (*model_simt)(const param_map&, std::string_view variant,
                                        const std::vector<host_buffer>& inputs, unsigned warp_size,
                                        std::string_view arch) = nullptr;
};

/// The reference of a family; throws std::logic_error for a family without one.
const family_reference& reference_of(const family& f);

} // namespace wb
