// The run settings: how long each configuration is measured and how often its output is checked.
// This is their one definition, defaults included: a suite's [suite] table sets them
// (harness/plan/suite.cpp) and the command line's overrides go on top (with_overrides).
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
    double timeout_s = 0;  // a configuration's limit, set-up included; 0: default_timeout_s
    bool energy = false;   // --energy: joules per run from the device's energy counter (telemetry/record.h)
    bool counters = false; // --counters: one more, untimed run read by the hardware counters (counters/counters.h)
};

/// The limit of a configuration when the suite sets none: measuring stops by max_time_s, and
/// generating the inputs, the reference's outputs and the plugin's set-up get as long again
/// and a minute more.
inline double default_timeout_s(const run_settings& s) { return 2 * s.max_time_s + 60; }
inline double timeout_of(const run_settings& s) { return s.timeout_s > 0 ? s.timeout_s : default_timeout_s(s); }

/// What `run` may override on the command line; unset keeps the suite's value.
struct settings_overrides {
    std::optional<int> repetitions;   // --repetitions
    std::optional<int> warmup;        // --warmup
    std::optional<double> min_time_s; // --min-time
    std::optional<int> verify_every;  // --verify-every
    std::optional<double> timeout_s;  // --timeout
    std::optional<bool> energy;       // --energy
    std::optional<bool> counters;     // --counters
};

/// The suite's settings with the command line's overrides applied.
run_settings with_overrides(run_settings s, const settings_overrides& o);

/// Warns on `err` about settings that contradict each other (measuring stops at the first limit).
void warn_contradictions(const run_settings& s, std::ostream& err);

} // namespace wb
