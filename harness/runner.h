// Running a planned suite: the configurations in groups that share their inputs, each measured
// in order, and each result set against the family's baseline and library at the same problem
// and against the machine's ceiling.
#pragma once

#include "harness/kernels.h"
#include "harness/plan.h"
#include "harness/platform.h"
#include "harness/plugins.h"
#include "harness/result.h"
#include "harness/settings.h"
#include "harness/suite.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace wb {

class runner {
public:
    runner(std::shared_ptr<platform> p, const plugin_registry& plugins, ceilings c)
        : platform_(p), plugins_(plugins), ceilings_(std::move(c)), kernels_(std::move(p))
    {
    }

    /// The suite's configurations with this runner's plugins (plan_suite).
    std::vector<config> plan(const suite& s, const std::string& filter = "") const
    {
        return plan_suite(s, plugins_, filter);
    }

    /// Sees each result as soon as it exists, with all the results so far.
    using on_result = std::function<void(const result&, const std::vector<result>&)>;

    /// Runs the configurations in order.
    std::vector<result> run(const std::vector<config>& configs, const run_settings& settings,
                            const on_result& done) const;

    const ceilings& machine_ceilings() const { return ceilings_; }

    /// Attach each kernel's AMD static figures (from the plugin's amd build) to the results.
    void set_amd_static(bool on) { kernels_.set_amd_static(on); }

private:
    void run_group(const std::vector<const config*>& group, const run_settings& settings, std::vector<result>& results,
                   const on_result& done) const;

    std::shared_ptr<platform> platform_;
    const plugin_registry& plugins_;
    ceilings ceilings_;
    kernel_inspector kernels_;
};

} // namespace wb
