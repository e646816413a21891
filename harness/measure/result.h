// What measuring a configuration yields (its status, times, metric, kernels), and the machine's
// ceilings a result's metric is set against.
#pragma once

#include "core/family.h"
#include "core/stats.h"
#include "harness/measure/kernels.h"
#include "harness/measure/stage.h"
#include "harness/measure/status.h"
#include "harness/telemetry/record.h"

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
/// By name. A ceiling measured at several working-set sizes (the cpu platform's read bandwidth,
/// which its caches raise) also has an entry per size, "<name>@<MiB>MiB"; a result is set against
/// the smallest that holds its working set (ceiling_for).
using ceilings = std::map<std::string, ceiling>;

/// The per-working-set entries of ceiling `name` in `c` ("<name>@..."), in the map's order.
std::vector<std::string> ceiling_levels(const ceilings& c, const std::string& name);
/// The name of the ceiling of `c` that a configuration with `working_set_bytes` of data is set
/// against: `name`, or the smallest "<name>@<N>MiB" of at least that size; "" when `c` has none.
std::string ceiling_for(const ceilings& c, const std::string& name, int64_t working_set_bytes);

struct result {
    size_t plan_index = 0; // its configuration's place in the suite's plan (config::index)
    int device_index = 0;  // the device it ran on: an index into the run's devices
    std::string family, variant;
    param_map family_params, tunables;
    status st = status::error;
    std::string message;         // what failed or why skipped
    stage where = stage::none;   // where it failed, errored, crashed or timed out
    std::string note;            // what the plugin resolved itself
    std::vector<uint64_t> seeds; // of the datasets the runs alternate between
    int input_sets = 1;
    int64_t working_set_bytes = 0;  // the inputs' copies the runs rotate through, and the outputs
    std::string ceiling;            // the ceiling fraction_of_ceiling is against (ceiling_for)
    int runs = 0, runs_checked = 0; // runs made (warm-up included), and those compared with the reference
    summary time_ms, wall_ms;
    std::vector<double> samples_ms, wall_samples_ms; // every measured run, in order (warm-up excluded)
    double prepare_ms = 0;
    double metric_value = 0;
    std::optional<double> fraction_of_ceiling, speedup_vs_baseline, speedup_vs_library;
    std::optional<double> model_speedup;       // the family's model's prediction of speedup_vs_baseline
    std::optional<double> model_issue_speedup; // its second model's (one that needs the device's architecture)
    std::vector<kernel_report> kernels;
    bool noisy = false;         // relative stddev of the kernel time over 2%
    telemetry_record telemetry; // the device's state per measured run, and --energy's figures
    // An A/B run (measure/ab.h): the base build's result of the same configuration, its samples
    // paired with these by position, and which build ran first in each block of runs ('B' base,
    // 'N' new); null and "" otherwise.
    std::shared_ptr<result> ab_base;
    std::string ab_order;
};

} // namespace wb
