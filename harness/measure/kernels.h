// A configuration's kernels as the platform sees them: the launch (block size, dynamic LDS), the
// resources (registers, static LDS, scratch) and the occupancy they allow, in the platform's own
// units, with what limits it; with --amd-static, the AMD figures of the same kernels at the same
// launch, read from the plugin's amd build.
#pragma once

#include "harness/amd/amd_static.h"
#include "harness/counters/counters.h"
#include "harness/plan/plan.h"
#include "harness/platform/platform.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wb {

struct occupancy {
    double value = 0, max = 0;
    std::string unit;    // "warps per SM", "waves per SIMD", "blocks per worker"
    int blocks = 0;      // resident work-groups per multiprocessor (CU, SM, worker)
    std::string limiter; // "" when the platform cannot tell
};

struct kernel_report {
    std::string name;
    int block_size = 0;
    int64_t dynamic_lds_bytes = 0;
    wb_kernel_resources resources{};
    std::optional<occupancy> occ;
    std::optional<std::vector<amd_kernel_report>> amd; // with --amd-static: per AMD target, at this launch
    std::string amd_missing;                           // why there are none
};

/// The kernels of `c` that run at its tunables, as the plugin (loaded here) launches them with
/// `args`, with their resources and occupancy on `p`.
std::vector<kernel_report> kernels_of(const platform& p, const config& c, const wb_args& args);

/// --counters: names the readings' launches after `kernels` (those that run here) and, where a
/// launch's achieved occupancy falls short of its kernel's static figure, says why it likely does.
void describe_counters(counter_readings& c, const std::vector<kernel_report>& kernels, const wb_device_info& d);

/// With --amd-static: each kernel's AMD figures at its launch, read (as data) from the amd build
/// of the configuration's plugin, each file once.
class amd_static_figures {
public:
    void attach(const config& c, std::vector<kernel_report>& kernels);

private:
    std::map<std::string, std::vector<amd_kernel_figures>> files_;
};

} // namespace wb
