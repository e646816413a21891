// Running a planned suite: each configuration measured in order by an executor, and each result
// set against the family's baseline and library at the same problem and against the machine's
// ceiling. An interrupt (SIGINT, SIGTERM) stops it between configurations.
#pragma once

#include "harness/executor.h"
#include "harness/kernels.h"

#include <functional>
#include <vector>

namespace wb {

class runner {
public:
    runner(executor& e, ceilings c) : executor_(e), ceilings_(std::move(c)) {}

    /// Sees each result as soon as it exists, with all the results so far.
    using on_result = std::function<void(const result&, const std::vector<result>&)>;
    /// Sees each configuration (configs[index]) as it starts.
    using on_start = std::function<void(size_t index, const config&)>;

    /// Runs the configurations in order; fewer results than configurations when interrupted.
    std::vector<result> run(const std::vector<config>& configs, const run_settings& settings,
                            const on_result& done, const on_start& starting = {});

    /// Attach each kernel's AMD static figures (from the plugin's amd build) to the results.
    void set_amd_static(bool on) { amd_static_ = on; }

private:
    executor& executor_;
    ceilings ceilings_;
    bool amd_static_ = false;
    amd_static_figures amd_figures_;
};

} // namespace wb
