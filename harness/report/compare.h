// `wavebench compare BASE NEW`: two runs' results matched configuration by configuration, each
// given a verdict from its samples (a two-sided Mann-Whitney U test and a minimum change of the
// medians), its verification status and its kernels' resources. The JSON it builds is what the
// console, markdown and JSON outputs print and what the report's compare view draws
// (docs/compare.md describes it).
#pragma once

#include "harness/history/history.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <set>
#include <string>

namespace wb {

/// What fails a comparison (--fail-on): slower, failed (verified in BASE, not in NEW),
/// resources (a kernel with more registers, LDS, scratch or spills, or less occupancy), missing
/// (a configuration of BASE absent from NEW); any: all four; none: nothing.
inline const std::set<std::string> fail_on_names{"slower", "failed", "resources", "missing", "any", "none"};

struct compare_options {
    double alpha = 0.01;     // the test's significance level
    double threshold = 0.05; // the smallest change of the medians that counts, as a fraction
    std::set<std::string> fail_on{"slower", "failed", "resources"};
    bool allow_device_change = false;
};

/// --alpha, --threshold (in %) and --allow-device-change into `o`, as compare and report take them.
void add_compare_options(CLI::App* cmd, compare_options& o);

/// Compares NEW with BASE. Throws std::invalid_argument when they cannot be compared: a results
/// document without samples (schema 2), or a different platform, device, wavefront width or
/// toolchain without allow_device_change (the difference named).
nlohmann::json compare_runs(const run_input& base, const run_input& now, const compare_options& o);

/// The comparison as a console table (`markdown`: a pull-request comment).
void print_comparison(std::ostream& os, const nlohmann::json& cmp, bool markdown);

/// Registers `wavebench compare`.
void add_compare_command(CLI::App& app, command_list& commands);

} // namespace wb
