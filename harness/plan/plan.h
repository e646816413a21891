// Planning: a suite expanded, against the loaded plugins, into configurations (a plugin with
// every parameter resolved). Variant globs, tunables and values that fit no selected plugin are
// errors naming the file, line and column.
#pragma once

#include "harness/common/json.h" // params_text
#include "harness/plan/suite.h"
#include "harness/plugins/plugins.h"

#include <string>
#include <vector>

namespace wb {

/// The most configurations a suite may expand to unless --max-configs says more.
inline constexpr uint64_t default_max_configs = 100000;

/// One configuration: a plugin with all its parameters resolved.
struct config {
    size_t index = 0;     // its place in the whole suite's plan (the same in every shard)
    size_t benchmark = 0; // index in the suite
    size_t group = 0;     // configurations sharing family parameters share inputs
    const plugin* plug = nullptr;
    param_map family_params;
    param_map tunables; // every tunable of the plugin (suite values or defaults)
    std::string skip;   // why it will not run (a value the plugin does not allow), or ""
    // An A/B run (--baseline-plugins): the same variant of the base build, measured interleaved
    // with `plug` (measure/ab.h); null when there is none (or no A/B run).
    const plugin* base_plug = nullptr;
    // --skip-same-code: `base_plug` has the same code as `plug` (plugin::code_digest), so neither is
    // measured: the runner makes both results skipped, `skip` saying why, without the executor.
    bool same_code = false;
};

/// Why plugin `p` cannot run these tunables: a value outside a tunable's domain, else a constraint
/// between them it breaks; "" when it can.
std::string skip_reason(const plugin& p, const param_map& tunables);

/// The plugins a benchmark's variant globs select, the family's baseline and library first; its
/// tunable axes checked against them. Throws suite_error naming the glob or value that fits none.
std::vector<const plugin*> plan_variants(const benchmark_spec& b, const plugin_registry& plugins);

/// Expands the suite into configurations, the family's baseline and library first at each problem.
/// Throws suite_error for names or values that do not fit the plugins, and std::runtime_error
/// when `filter` (a glob over "family/variant") matches nothing.
/// More than `max_configs` configurations is a suite_error that says how many, before any is made.
std::vector<config> plan_suite(const suite& s, const plugin_registry& plugins, const std::string& filter = "",
                               uint64_t max_configs = default_max_configs);

/// The most parts --shard splits a suite into.
inline constexpr unsigned max_shards = 10000;

/// `--shard I/N`: part `index` (1-based) of `count`.
struct shard_spec {
    unsigned index = 0, count = 0; // count 0: the whole suite
};

/// Parses "I/N" (1 <= I <= N <= max_shards); throws std::invalid_argument saying what is wrong.
shard_spec parse_shard(const std::string& text);

/// The configurations of shard `s`: whole groups (every variant of one problem together, so that
/// speedups stay within a shard), dealt out largest first to the shard with the fewest
/// configurations so far (ties to the lowest index). Depends only on the plan: every shard of a
/// suite computes the same split, and the shards together hold each configuration once.
std::vector<config> shard_of(const std::vector<config>& plan, shard_spec s);

/// A digest of the plan (every configuration's plugin and parameters, in order): shards of one
/// suite, planned against the same plugins, share it; `merge` refuses shards that do not.
std::string plan_digest(const std::vector<config>& plan);

} // namespace wb
