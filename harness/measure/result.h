// What measuring a configuration yields (its status, times, metric, kernels), and the machine's
// ceilings a result's metric is set against.
#pragma once

#include "core/family.h"
#include "core/stats.h"
#include "harness/counters/counters.h"
#include "harness/measure/kernels.h"
#include "harness/measure/stage.h"
#include "harness/measure/status.h"
#include "harness/telemetry/record.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wb {

/// A measured ceiling of the machine (from `wavebench probe`).
struct ceiling {
    double value = 0;
    std::string unit;
    std::string what;     // "read-only kernel, 1 GiB"
    std::string measured; // ISO date
};
/// A ceiling with its name.
using named_ceiling = std::pair<std::string, ceiling>;

/// The levels of a ceiling that the caches raise (the cpu platform's read bandwidth), measured at
/// a configuration's own working set when a result first needs one (ceilings/levels.cpp), and kept.
class ceiling_levels_on_demand {
public:
    virtual ~ceiling_levels_on_demand() = default;
    /// The working set of the probe's own `<name>` (DRAM's): no level is measured at or above it.
    virtual int64_t max_bytes() const = 0;
    /// `name` at a working set of `bytes` (a level_bytes size), named level_name(name, bytes):
    /// measured now unless it was before. None when `name` is not measured per size, or failed.
    /// `reached`: what a result just read at this size; a level below it was measured while the
    /// host was disturbed (a disturbed read is only ever slower), and is measured once more, the
    /// higher kept.
    virtual std::optional<named_ceiling> level(const std::string& name, int64_t bytes, double reached) = 0;
    /// The levels level() has handed out in this process (the results' ceilings name them).
    virtual std::map<std::string, ceiling> handed_out() const = 0;
};

/// By name. A ceiling measured at several working-set sizes (the cpu platform's read bandwidth,
/// which its caches raise) also has an entry per size the probe measured, "<name>@<MiB>MiB", and
/// the levels measured on demand at other sizes (ceiling_for says which a result is set against).
struct ceilings : std::map<std::string, ceiling> {
    using std::map<std::string, ceiling>::map;
    std::shared_ptr<ceiling_levels_on_demand> on_demand; // shared by every copy; none: the map alone
};

/// The per-working-set entries of ceiling `name` in `c` ("<name>@..."), in the map's order.
std::vector<std::string> ceiling_levels(const ceilings& c, const std::string& name);
/// The size a level is measured at for a working set of `bytes`: the nearest 2^(k/16) MiB (sizes
/// 4.4% apart, so within 2.2% of it), at least 64 KiB. The probe's 1, 4, 16 and 64 MiB are such sizes.
int64_t level_bytes(int64_t bytes);
/// The name of `name`'s level at a working set of `bytes`: "<name>@<MiB, 3 digits>MiB" ("read_bandwidth@22.6MiB").
std::string level_name(const std::string& name, int64_t bytes);
/// The ceiling of `c` that a configuration with `working_set_bytes` of data is set against; none
/// when `c` has none. `name` itself unless `c` has levels of it; then the level at the working set's
/// own size (level_bytes) from `c` or measured on demand, unless the data is in DRAM, set against
/// `name`: a working set as large as the probe's own, or as a level of `c` that reads within 5% of
/// `name`, or whose own level does (or slower). Without levels on demand: the smallest level that
/// holds the working set. `reached`: the result's own rate (a level measured on demand below it is
/// measured again: ceiling_levels_on_demand::level).
std::optional<named_ceiling> ceiling_for(const ceilings& c, const std::string& name, int64_t working_set_bytes,
                                         double reached = 0);

/// Where a configuration's wall time went: milliseconds of host time, each part measured where it
/// happens (in the worker, or in the harness for `start`, `total` and `messages`). The parts do
/// not overlap and all fall inside `total`; what they leave of it is the harness's other work.
/// The group's inputs (inputs, reference, upload) are counted by the configuration that made them,
/// the first of its group on its device.
struct wall_time {
    double start = 0;        // when the harness asked for it, since the run started
    double total = 0;        // from asking the executor to having the result
    double inputs = 0;       // the datasets generated from the seed
    double reference = 0;    // their expected outputs computed by the family's reference
    double upload = 0;       // device memory for the inputs' copies and outputs, the copies uploaded
    double prepare = 0;      // the plugin's prepare and binds, until their device work is done
    double kernels = 0;      // the kernels' resources read (measure/kernels)
    double poison = 0;       // the outputs poisoned before each run
    double warmup = 0;       // the warm-up runs (host time around run and finish)
    double timed = 0;        // the measured runs (host time around run and finish)
    double verify = 0;       // the checked runs' outputs copied back, their guards and the comparison
    double energy = 0;       // --energy: the loop of runs between two moves of the energy counter
    double counters = 0;     // --counters: the profiled run (with its replays) and its verification
    double inputs_check = 0; // the input copies compared with their datasets afterwards
    double release = 0;      // the plugin's release
    double summary = 0;      // the times summarized, the metric and the models
    double messages = 0;     // with a worker: the round trip less the worker's own time
};

/// The parts of wall_time (all but start and total) by name, in the order the results show them.
inline constexpr std::pair<const char*, double wall_time::*> wall_time_parts[] = {
    {"inputs", &wall_time::inputs},   {"reference", &wall_time::reference}, {"upload", &wall_time::upload},
    {"prepare", &wall_time::prepare}, {"kernels", &wall_time::kernels},     {"poison", &wall_time::poison},
    {"warmup", &wall_time::warmup},   {"timed", &wall_time::timed},         {"verify", &wall_time::verify},
    {"energy", &wall_time::energy},   {"counters", &wall_time::counters},   {"inputs_check", &wall_time::inputs_check},
    {"release", &wall_time::release}, {"summary", &wall_time::summary},     {"messages", &wall_time::messages}};

/// Milliseconds since this process started (the clock of wall_time::start).
double ms_since_process_start();

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
    std::optional<double> model_simt;          // with --counters: the model's SIMT efficiency (beside the counter's)
    std::vector<kernel_report> kernels;
    bool noisy = false;                       // relative stddev of the kernel time over 2%
    telemetry_record telemetry;               // the device's state per measured run, and --energy's figures
    std::optional<counter_readings> counters; // --counters: the untimed pass's readings (or why none)
    // An A/B run (measure/ab.h): the base build's result of the same configuration, its samples
    // paired with these by position, and which build ran first in each block of runs ('B' base,
    // 'N' new); null and "" otherwise.
    std::shared_ptr<result> ab_base;
    std::string ab_order;
    wall_time wall; // where its wall time went
    // Its plugin's plugin::code_digest and device_code_digest, set by the runner in the harness,
    // whose registry digested the files (a worker knows none).
    std::string code_digest, device_code_digest;
};

} // namespace wb
