// What the harness's tests of comparisons build results documents with: a run of the given
// results, as `run` writes one (the fields compare and the calibration read).
#pragma once

#include "harness/report/results_reader.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace wb_test {

/// A complete run of `results` on device `device` of `platform`, labelled `label`.
inline wb::run_input results_run(const std::string& label, const std::vector<nlohmann::json>& results,
                                 const std::string& device = "Test CPU", const std::string& platform = "cpu")
{
    nlohmann::json doc{{"schema_version", 4},
                       {"platform", platform},
                       {"toolchain", "c++ 12"},
                       {"platform_options", {{"warp_size", 32}}},
                       {"suite", {{"name", "quick"}}},
                       {"device", {{"name", device}, {"arch", "x86_64"}}},
                       {"complete", true},
                       {"results", results}};
    return {label, doc, std::nullopt};
}

} // namespace wb_test
