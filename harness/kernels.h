// A configuration's kernels as the platform sees them: the launch (block size, dynamic LDS), the
// resources (registers, static LDS, scratch) and the occupancy they allow, in the platform's own
// units, with what limits it; with --amd-static, the AMD figures of the same kernels at the same
// launch, read from the plugin's amd build.
#pragma once

#include "harness/amd_static.h"
#include "harness/plan.h"
#include "harness/platform.h"

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

class kernel_inspector {
public:
    explicit kernel_inspector(std::shared_ptr<platform> p) : platform_(std::move(p)) {}

    /// Also attach each kernel's AMD static figures (from the plugin's amd build).
    void set_amd_static(bool on) { amd_static_ = on; }

    /// The kernels of `c` that run at its tunables, as the plugin launches them with `args`.
    std::vector<kernel_report> kernels_of(const config& c, const wb_args& args) const;

private:
    void attach_amd_static(const config& c, std::vector<kernel_report>& kernels) const;

    std::shared_ptr<platform> platform_;
    bool amd_static_ = false;
    mutable std::map<std::string, std::vector<amd_kernel_figures>> amd_files_; // read once per file
};

} // namespace wb
