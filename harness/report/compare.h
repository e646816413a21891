// Two runs' results matched configuration by configuration, each given a verdict from its samples
// (a two-sided Mann-Whitney U test and a minimum change of the medians), its verification status
// and its kernels' resources (report/compare.cpp), and the comparison printed (compare_print.cpp).
// The JSON it builds is what the console, markdown and JSON outputs print and what the report's
// compare view draws (docs/compare.md describes it); `wavebench compare` is commands/compare_command.cpp.
#pragma once

#include "harness/report/calibration.h"
#include "harness/report/results_reader.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

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
    // --ignore-code-digest: verdicts from the times even where both results name the same code
    // (same_code_verdicts), for studies of the noise between two copies of one build.
    bool ignore_code_digest = false;
    // An A/B run's samples, paired by position (measure/ab.h): the Wilcoxon signed-rank test of the
    // log ratio of each pair, and the change and its interval from the Walsh averages of those.
    bool paired = false;
    // --fdr Q: the significance of every tested configuration decided across the whole comparison
    // by the Benjamini-Hochberg procedure at level Q (q-value <= Q) in place of p < alpha, so that a
    // large suite's expected share of false `slower` and `faster` among those flagged stays under Q.
    std::optional<double> fdr;
    // --calibration FILE (report/calibration.h): each configuration the calibration holds is judged
    // at no less than its least threshold on this device, and says so.
    std::string calibration_file;
    std::shared_ptr<const calibration> calibrated; // read from it (with_fail_on, commands/compare_command.h)
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

/// A configuration both runs verified, as its test left it (report/compare.cpp): what its verdict is
/// decided from once every configuration is tested, since with --fdr whether one change is
/// significant depends on every p-value of the comparison.
struct tested_pair {
    size_t row = 0;                        // in the comparison's `configurations`
    double change = 0, p = 1, least_p = 1; // least_p: the smallest p-value samples of these sizes can give
    size_t base_samples = 0, new_samples = 0;
};
/// The verdicts of the tested configurations of `rows` (report/compare_verdicts.cpp): `slower` or
/// `faster` where the change is significant (p < alpha, or with --fdr a Benjamini-Hochberg q-value
/// over all of them of at most Q, written as each row's `q_value`: null where untested) and reaches
/// the threshold, else `same`, `noisy` or `untested`.
void decide_verdicts(nlohmann::json& rows, const std::vector<tested_pair>& tested, const compare_options& o);
/// With a calibration: refuses (std::invalid_argument) a NEW run on another device than the
/// calibration's, unless o.allow_device_change.
void check_calibration(const compare_options& o, const nlohmann::json& now_doc);
/// The comparison's `calibration`: the file, its device and date, and the rows judged above the
/// threshold asked; null without one.
nlohmann::json calibration_summary(const nlohmann::json& rows, const compare_options& o);
/// `warnings` with one more where the calibration judged rows above the threshold asked.
nlohmann::json calibration_warnings(nlohmann::json warnings, const nlohmann::json& rows, const compare_options& o);

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

/// A result's `code_digest` as a row of the comparison carries it in `base` and `new`: the digest
/// (hex digits), or null where it names none (report/compare_code.cpp).
nlohmann::json code_digest_field(const nlohmann::json& result);
/// Gives each row of `rows` (verdicts decided) whose `base` and `new` carry the same code digest the
/// verdict `same-code`, unless `o.ignore_code_digest`: where both verified, what the times said is
/// kept as `would_be`; where both were skipped, nothing was measured. A row that is `failed`,
/// `fixed` or `not verified`, or skipped in one run only, keeps its verdict: a status that changes,
/// or a kernel that does not verify, is news with the same code.
void same_code_verdicts(nlohmann::json& rows, const compare_options& o);
/// The `same-code` rows whose times alone say slower or faster: false alarms the digest prevented.
size_t same_code_false_alarms(const nlohmann::json& rows);

/// What configurations match by: family, variant and parameters, a number by its value (the
/// platform is the run's). compare and the calibration (report/calibration.h) key by it.
std::string match_key(const nlohmann::json& r, const results_reader& rd);

/// The comparison as a console table (`markdown`: a pull-request comment).
void print_comparison(std::ostream& os, const nlohmann::json& cmp, bool markdown);

/// "+12.3%"; `whole`: no decimals from 10% on ("+146%"), for the narrow interval column.
std::string percent_text(double x, bool sign = true, bool whole = false);
/// A p-value in two significant digits.
std::string p_text(double p);

} // namespace wb
