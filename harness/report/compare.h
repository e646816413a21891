// Two runs' results matched configuration by configuration, each given a verdict from its samples
// (a two-sided Mann-Whitney U test and a minimum change of the medians), its verification status
// and its kernels' resources (report/compare.cpp), and the comparison printed (compare_print.cpp).
// The JSON it builds is what the console, markdown and JSON outputs print and what the report's
// compare view draws (docs/compare.md describes it); `wavebench compare` is commands/compare_command.cpp.
#pragma once

#include "harness/report/results_reader.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <set>
#include <string>

namespace wb {

/// What fails a comparison (--fail-on): slower, failed (verified in BASE, not in NEW), untested
/// (verified in both, but too few samples in NEW to test a slowdown of the threshold or more),
/// resources (a kernel with more registers, LDS, scratch or spills, or less occupancy; with counters in
/// both runs, a measured SIMT efficiency or achieved occupancy lower by more than 1 or 5 points), missing
/// (a configuration of BASE absent from NEW), incomplete (NEW's run stopped early: `complete` is
/// false), unmatched (no configuration in both runs); any: all seven (the default); none: nothing.
inline const std::set<std::string> fail_on_names{"slower",     "failed",    "untested", "resources", "missing",
                                                 "incomplete", "unmatched", "any",      "none"};

struct compare_options {
    double alpha = 0.01;     // the test's significance level
    double threshold = 0.05; // the smallest change of the medians that counts, as a fraction
    std::set<std::string> fail_on{"any"};
    bool allow_device_change = false;
    // An A/B run's samples, paired by position (measure/ab.h): the Wilcoxon signed-rank test of the
    // log ratio of each pair, and the change and its interval from the Walsh averages of those.
    bool paired = false;
};

/// Compares NEW with BASE. Throws std::invalid_argument when they cannot be compared: a results
/// document without samples (schema 2) or without `complete`, a result without family, variant or
/// params, or a different platform, device, wavefront width or toolchain without
/// allow_device_change (the difference named). An input that stopped early and nothing matched are
/// `warnings` (and fail under `incomplete`, `unmatched`).
nlohmann::json compare_runs(const run_input& base, const run_input& now, const compare_options& o);

/// An A/B run's results document (`ab` in the document, each result's base build in its `ab.base`)
/// compared as compare_runs compares two runs, with paired samples: BASE the base build's results
/// (and `ab.missing`, the configurations only the base build has), NEW the change's. Throws
/// std::invalid_argument for a document that is no A/B run.
nlohmann::json compare_ab(const run_input& run, compare_options o);

/// The kernels' resources of two results (compare's `resources`), kernel by kernel (by name), AMD
/// targets included: each figure that changed, and whether for the worse.
nlohmann::json resource_changes(const nlohmann::json& base, const nlohmann::json& now);

/// How two results of a configuration ran (compare's `conditions`, report/compare_conditions.cpp):
/// `sm_mhz` [BASE, NEW] (median SM clocks) and `clocks_differ` (by more than clock_margin of the
/// higher), `throttled_runs` [BASE, NEW], and where both measured energy `energy` {base_j, new_j
/// (per run), change, large (by `threshold` or more)}; each only where both results have it.
nlohmann::json run_conditions(const nlohmann::json& base, const nlohmann::json& now, double threshold);
/// Clocks that differ by more than this share are flagged: a change of the kernel's time of that
/// size may be the clock's.
inline constexpr double clock_margin = 0.01;
/// The conditions worth a note ("ran at other clocks: ...; energy per run +6.1% (...)"), or "".
std::string conditions_text(const nlohmann::json& conditions);

/// The comparison as a console table (`markdown`: a pull-request comment).
void print_comparison(std::ostream& os, const nlohmann::json& cmp, bool markdown);

/// "+12.3%"; `whole`: no decimals from 10% on ("+146%"), for the narrow interval column.
std::string percent_text(double x, bool sign = true, bool whole = false);
/// A p-value in two significant digits.
std::string p_text(double p);

} // namespace wb
