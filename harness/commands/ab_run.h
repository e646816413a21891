// `run --baseline-plugins DIR`: an A/B run of two builds (measure/ab.h). Its options, the base
// build's plugins loaded and checked against the change's, each configuration paired with its
// variant in the base build, and at the end the run compared with itself as `compare` compares two
// runs (report/compare.h), with paired samples. docs/compare.md describes the mode.
#pragma once

#include "harness/commands/commands.h"
#include "harness/measure/executor.h"
#include "harness/plan/suite.h"
#include "harness/report/compare.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace wb {

struct ab_options {
    std::string baseline_plugins; // --baseline-plugins DIR: "" for no A/B run
    compare_options compare;      // --alpha, --threshold, --ignore-code-digest
    std::vector<std::string> fail_on;
    bool skip_same_code = false; // --skip-same-code: variants of the same code in both builds not measured
};

/// Why a configuration of the same code in both builds is skipped (--skip-same-code), on both sides.
inline constexpr const char* same_code_skip = "same code in both builds (--skip-same-code): not measured";

/// Adds --baseline-plugins, --alpha, --threshold, --ignore-code-digest, --skip-same-code and --fail-on to `run`.
void add_ab_options(CLI::App* run, ab_options& o);

class ab_run {
public:
    /// Checks the options; a DIR that is missing, no directory or holds no plugin file of the platform
    /// is std::invalid_argument (exit status 2), before anything loads.
    ab_run(const ab_options& o, platform_kind platform);
    bool on() const { return !o_.baseline_plugins.empty(); }

    /// Loads the base build's plugins in `first` (a worker_executor) or here (`in_process`).
    void load(executor& first, bool in_process);
    /// Sets each configuration's base plugin (config::base_plug), the same variant in the base
    /// build, and with --skip-same-code marks those whose base has the same code (config::same_code);
    /// notes the configurations only the base build has (planned from `s`). Refuses
    /// (std::invalid_argument) a variant whose builds declare other tunables or another SDK, or
    /// whose base is the change's own file.
    void pair(std::vector<config>& plan, const suite& s, const plugin_registry& now, const std::string& filter);
    /// The results document's `ab` (docs/results-schema.md), without the comparison.
    nlohmann::json describe() const;
    /// The run compared (its `ab.comparison` in `doc`) and printed as `compare` prints: 1 when it
    /// regressed under --fail-on, else 0.
    int finish(nlohmann::json& doc, const std::string& label, std::ostream& os, table_format format) const;

private:
    ab_options o_;
    plugin_registry base_;
    std::vector<std::filesystem::path> files_;
    nlohmann::json missing_ = nlohmann::json::array();
};

} // namespace wb
