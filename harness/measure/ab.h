// A/B runs (`run --baseline-plugins DIR`): one configuration measured with two builds of its
// variant, the base build's (config::base_plug) and the change's (config::plug), in the same
// process on the same device with the same inputs, their runs interleaved in blocks so that drift
// (clocks, temperature, other tenants) falls on both alike. docs/compare.md describes the mode.
#pragma once

#include "harness/measure/measure.h"

#include <string>

namespace wb {

/// Measured runs per block: each build makes this many runs in a row, then the other.
inline constexpr int ab_block = 5;

/// Which build goes first in each block ('B' base, 'N' new): blocks in counterbalanced pairs
/// ("BN" or "NB"), a coin per pair from the suite's seed and the configuration, so that the same
/// run makes the same order.
std::string ab_block_order(const config& c, const run_settings& settings, size_t blocks);

/// Measures `c` (c.base_plug set) with both builds, interleaved: the change's result, with the
/// base's in result::ab_base and the order of each block in result::ab_order. Both are verified
/// against the reference; each stops where it fails, and the other goes on alone. Where both
/// measure, they have the same number of samples, paired by position.
result measure_ab(const std::shared_ptr<platform>& pf, const config& c, group_inputs& g, const run_settings& settings);

} // namespace wb
