// Planning a suite against the loaded plugins, and measuring each configuration: seeded inputs,
// poisoned outputs, warm-up, repetitions timed with device events, every run verified.
#pragma once

#include "core/stats.h"
#include "harness/amd_static.h"
#include "harness/platform.h"
#include "harness/plugins.h"
#include "harness/suite.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wb {

/// A measured ceiling of the machine (from `wavebench probe`).
struct ceiling {
    double value = 0;
    std::string unit;
    std::string what;     // "read-only kernel, 1 GiB"
    std::string measured; // ISO date
};
using ceilings = std::map<std::string, ceiling>;

/// One configuration: a plugin with all its parameters resolved.
struct config {
    size_t benchmark = 0;   // index in the suite
    size_t group = 0;       // configurations sharing family parameters share inputs
    const plugin* plug = nullptr;
    param_map family_params;
    param_map tunables;     // every tunable of the plugin (suite values or defaults)
    std::string skip;       // why it will not run (a value the plugin does not allow), or ""
};

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

enum class status { verified, failed, error, skipped };
const char* to_string(status s);

struct result {
    std::string family, variant;
    param_map family_params, tunables;
    status st = status::error;
    std::string message;     // what failed or why skipped
    std::string note;        // what the plugin resolved itself
    std::vector<uint64_t> seeds; // of the datasets the runs alternate between
    int input_sets = 1;
    int runs = 0, runs_checked = 0; // runs made (warm-up included), and those compared with the reference
    summary time_ms, wall_ms;
    double prepare_ms = 0;
    double metric_value = 0;
    std::optional<double> fraction_of_ceiling, speedup_vs_baseline, speedup_vs_library;
    std::optional<double> model_speedup; // the family's model's prediction of speedup_vs_baseline
    std::vector<kernel_report> kernels;
    bool noisy = false;      // relative stddev of the kernel time over 2%
};

/// When to stop measuring a configuration: after `warmup` unmeasured runs, at least `repetitions`
/// samples and at least `min_time_s` of measured device time, but no more than `max_samples`
/// samples or `max_time_s` of wall time once `repetitions` are in.
struct run_settings {
    int repetitions = 20;
    int warmup = 3;
    uint64_t seed = 2009;
    double min_time_s = 0;
    int max_samples = 100000;
    double max_time_s = 60;
    int verify_every = 10; // after the first checks (warm-up, each input set twice), check every Nth run
};

class runner {
public:
    runner(std::shared_ptr<platform> p, const plugin_registry& plugins, ceilings c)
        : platform_(std::move(p)), plugins_(plugins), ceilings_(std::move(c))
    {
    }

    /// Expands the suite into configurations. Throws suite_error for names or values that do not
    /// fit the plugins, and std::runtime_error when `filter` matches nothing.
    std::vector<config> plan(const suite& s, const std::string& filter = "") const;

    /// Runs the configurations in order; `done` sees each result as soon as it exists.
    std::vector<result> run(const std::vector<config>& configs, const run_settings& settings,
                            const std::function<void(const result&, const std::vector<result>&)>& done) const;

    const ceilings& machine_ceilings() const { return ceilings_; }

    /// Attach each kernel's AMD static figures (from the plugin's amd build) to the results.
    void set_amd_static(bool on) { amd_static_ = on; }

private:
    struct group_data;
    void run_group(const std::vector<const config*>& group, const run_settings& settings,
                   std::vector<result>& results,
                   const std::function<void(const result&, const std::vector<result>&)>& done) const;
    result run_config(const config& c, group_data& g, const run_settings& settings) const;
    std::vector<kernel_report> kernels_of(const config& c, const wb_args& args) const;
    struct memory_plan {
        size_t sets = 1;     // copies of the inputs on the device, rotated through
        size_t datasets = 1; // different inputs (seeds) among them: 2 where memory allows
    };
    /// How many input copies and datasets fit; throws when even one does not.
    memory_plan plan_memory(size_t in_bytes, size_t out_bytes) const;
    void upload(group_data& g, size_t set) const;
    /// Compares every input copy on the device with its dataset; re-uploads the damaged ones.
    /// Returns what changed, or "".
    std::string check_inputs(group_data& g, const family& fam, const param_map& params) const;

    void attach_amd_static(const config& c, std::vector<kernel_report>& kernels) const;

    std::shared_ptr<platform> platform_;
    const plugin_registry& plugins_;
    ceilings ceilings_;
    bool amd_static_ = false;
    mutable std::map<std::string, std::vector<amd_kernel_figures>> amd_files_; // read once per file
};

/// "n=1048576 block_size=256": family parameters, then tunables.
std::string params_text(const param_map& family_params, const param_map& tunables);

} // namespace wb
