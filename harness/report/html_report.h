// What `wavebench report` (commands/report_command.cpp) writes: one self-contained HTML page of
// one or more runs (results files or runs of the history). Per family, each variant's throughput, speedups and fraction
// of the ceiling across sizes; converge's measured speedup against the model; AMD static figures per target; for two
// runs the compare view, for several the trend. The charts are Vega-Lite, built into the binary
// with the page's template (harness/report/report_page.html, cmake/report_assets.cmake); the page makes
// no request and reads the results only as data.
#pragma once

#include "harness/report/compare.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace wb {

/// The trend of several runs, built one run at a time: each run's document is checked and reduced
/// to what the trend draws as it is added, so that a trend of thousands of runs never holds more
/// than one document (`report --trend` streams the history through it).
class trend_builder {
public:
    /// Adds run `in`; std::invalid_argument names it for results that are not as
    /// docs/results-schema.md says.
    void add(const run_input& in);
    size_t size() const { return runs_.size(); }
    /// The runs oldest first (by their start, stable), and each verified configuration's kernel-time
    /// spread (median, quartiles, extremes) in each: report_data's `trend`. Moves what was kept.
    nlohmann::json finish() &&;

private:
    struct run {
        std::string started;
        nlohmann::json header;              // the run's header, as report_data's `runs`
        std::vector<nlohmann::json> points; // without their run's index
    };
    std::vector<run> runs_;
};

/// What the page draws, as the JSON its script reads: `runs` (each input's header, in order),
/// `newest` (the index of the input that started last: its results are `results`, checked and
/// trimmed to what the page shows), `compare` (two inputs: compare_runs of the first and the
/// second, or {"error"} with why they cannot be compared), `trend` (trend_builder::finish(), where
/// `trend` is not null). Throws std::invalid_argument naming the input for results that are not as
/// docs/results-schema.md says.
nlohmann::json report_data(const std::vector<run_input>& inputs, nlohmann::json trend, const compare_options& o);

/// The page: the template with the vendored scripts and `data` inlined (every '<' of the data
/// escaped, so nothing in it can end its <script>).
std::string report_page(const nlohmann::json& data);

} // namespace wb
