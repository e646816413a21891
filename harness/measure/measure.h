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

} // namespace wb
