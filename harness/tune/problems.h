// What `wavebench tune` searches: a suite turned into problems, each a variant at one set of family
// parameters with the space of its tunables (the suite's values where it lists some, else every
// value the plugin allows), and the constraints the plugin declares between them.
#pragma once

#include "harness/plan/plan.h"
#include "harness/tune/search.h"

#include <string>
#include <vector>

namespace wb {

/// A tunable with more values than this must be narrowed in the suite (a range of 1..2^20, say).
inline constexpr size_t max_tunable_values = 4096;

struct tune_problem {
    size_t benchmark = 0; // index in the suite
    size_t group = 0;     // problems with the same family parameters share inputs
    const plugin* plug = nullptr;
    param_map family_params;
    tune::space space; // its dimensions are the plugin's tunables, in its order

    /// The tunables at point `p`.
    param_map tunables_at(const tune::point& p) const;
    /// The plugin's own defaults.
    param_map defaults() const;
    /// The configuration that measures these tunables (its index in the tune's results: `index`).
    config config_with(const param_map& tunables, size_t index) const;
};

/// The problems of the suite: for each benchmark, each problem (family parameters) and each variant
/// its globs select (that passes `filter`, a glob over "family/variant"), in plan order. Throws
/// suite_error as plan_suite does, and for a tunable whose values are too many to search
/// (max_tunable_values): narrow it in the suite.
std::vector<tune_problem> tune_problems(const suite& s, const plugin_registry& plugins, const std::string& filter);

/// Every value a tunable allows, ascending: its list, or its range (powers of two where it says).
/// Throws std::invalid_argument past `limit` values.
std::vector<int64_t> tunable_values(const tunable_decl& t, size_t limit);

} // namespace wb
