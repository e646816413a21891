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

/// What the page draws, as the JSON its script reads: `runs` (each input's header, in order),
/// `newest` (the index of the input that started last: its results are `results`, checked and
/// trimmed to what the page shows), `compare` (two inputs: compare_runs of the first and the
/// second, or {"error"} with why they cannot be compared), `trend` (`trend` holds two runs or
/// more: the median, quartiles and extremes of each configuration's kernel time per run). Throws
/// std::invalid_argument naming the input for results that are not as docs/results-schema.md says.
nlohmann::json report_data(const std::vector<run_input>& inputs, const std::vector<run_input>& trend,
                           const compare_options& o);

/// The page: the template with the vendored scripts and `data` inlined (every '<' of the data
/// escaped, so nothing in it can end its <script>).
std::string report_page(const nlohmann::json& data);

} // namespace wb
