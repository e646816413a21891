// The steps of measuring a configuration that come before and after its runs: what a result says of
// its group's inputs, the inputs checked intact afterwards, and the times summarized. measure.cpp's
// measurement runs between them.
#pragma once

#include "harness/measure/inputs.h"
#include "harness/measure/result.h"
#include "harness/plan/plan.h"
#include "harness/platform/platform.h"

#include <vector>

namespace wb {

/// What the result says of the group's inputs before anything runs; false (the result says why)
/// when nothing will: the configuration is skipped or its inputs could not be made.
bool describe_inputs(const config& c, const group_inputs& g, result& r);

/// After the plugin is released: inputs it wrote into fail the result (and do not spoil the next
/// one's run).
void check_inputs_intact(group_inputs& g, result& r);

/// The times' summaries, and for a verified result its metric, noise and model figures.
void summarize_result(const platform& pf, const config& c, const group_inputs& g, std::vector<double> times,
                      std::vector<double> walls, result& r);

} // namespace wb
