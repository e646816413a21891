// Measuring one configuration: the plugin prepared, warm-up and repetitions timed with device
// events, every run from a poisoned output, the first runs and every verify_every-th compared
// with the reference, the inputs checked afterwards; the result's metric and model figure.
#pragma once

#include "harness/measure/inputs.h"
#include "harness/measure/kernels.h"
#include "harness/measure/result.h"
#include "harness/plan/plan.h"
#include "harness/plan/settings.h"

namespace wb {

/// A result naming `c` (family, variant, parameters), with nothing measured yet.
result result_for(const config& c);

/// Measures `c` on `pf` with the group's inputs `g`, with the plugin loaded in this process. What
/// goes wrong is the result's status, message and stage. The fraction of the ceiling and the
/// speedups are the runner's (they need other results).
result measure(const std::shared_ptr<platform>& pf, const config& c, group_inputs& g, const run_settings& settings);

class stopping_criterion;

/// A configuration measured in steps (A/B runs take turns, measure/ab.cpp; measure() in one): the
/// plugin prepared on construction, runs until each `repeat`'s criterion has enough (each going on
/// where the last stopped), then `finish` (released, the inputs checked, the times summed up).
class staged_measurement {
public:
    /// `stream`: the stream and events to run on (an A/B run's two builds share one); null for one of its own.
    staged_measurement(const std::shared_ptr<platform>& pf, const config& c, group_inputs& g,
                       const run_settings& settings, std::shared_ptr<timed_stream> stream = nullptr);
    ~staged_measurement();
    /// Prepared and every checked run verified so far: more runs may be made.
    bool running() const;
    /// Runs (the warm-up left first) until `enough` says so.
    void repeat(const stopping_criterion& enough);
    /// Up to `runs` of the warm-up runs left, and how many are left.
    void warm_up(int runs);
    int warm_left() const;
    /// The plugin released, then prepared again (with a warm-up again): what its prepare allocates
    /// changes place (an A/B run's second half swaps the builds' order, measure/ab.cpp).
    void release();
    void prepare_again();
    /// The measured runs so far (warm-up excluded).
    size_t samples() const;
    /// The device time of the first `n` measured runs.
    double measured_ms(size_t n) const;
    /// The result; call once, last.
    result finish();

private:
    struct state;
    std::unique_ptr<state> s_;
};

} // namespace wb
