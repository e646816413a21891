// The run settings: how long each configuration is measured and how often its output is checked.
// This is their one definition, defaults included: a suite's [suite] table sets them
// (harness/suite.cpp) and the command line's overrides go on top (with_overrides).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>

namespace wb {

/// When to stop measuring a configuration: after `warmup` unmeasured runs, at least `repetitions`
/// samples and at least `min_time_s` of measured device time, but no more than `max_samples`
/// samples or `max_time_s` of wall time once `repetitions` are in. (Tests build it as an
/// aggregate: keep the order of the fields.)
struct run_settings {
    int repetitions = 20;
    int warmup = 3;
    uint64_t seed = 2009; // the inputs are generated from it
    double min_time_s = 0;
    int max_samples = 100000;
    double max_time_s = 60;
    int verify_every = 10; // after the first checks (warm-up, each input set twice), check every Nth run
};

/// What `run` may override on the command line; unset keeps the suite's value.
struct settings_overrides {
    std::optional<int> repetitions;   // --repetitions
    std::optional<int> warmup;        // --warmup
    std::optional<double> min_time_s; // --min-time
    std::optional<int> verify_every;  // --verify-every
};

/// The suite's settings with the command line's overrides applied.
run_settings with_overrides(run_settings s, const settings_overrides& o);

/// Warns on `err` about settings that contradict each other (measuring stops at the first limit).
void warn_contradictions(const run_settings& s, std::ostream& err);

} // namespace wb
