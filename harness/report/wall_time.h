// Where a run's wall time went: each result's parts (measure/result.h's wall_time) as the results
// JSON holds them, their totals over the run, and the lines the console summary gives of them.
#pragma once

#include "harness/measure/result.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <vector>

namespace wb {

/// A result's `wall_time_ms`: start, total, every part, and `other` (what the parts leave of total).
nlohmann::json wall_time_json(const wall_time& w);

/// The document's `wall_time_ms`: the run's wall time so far, the time before its first
/// configuration, the configurations' total, each part summed over the results, and the time
/// between and after the configurations (null with several devices, whose configurations overlap).
nlohmann::json run_wall_time_json(const std::vector<result>& results, size_t devices);

/// The console summary's lines of a document's `wall_time_ms`; nothing when it has none.
void print_wall_time(std::ostream& os, const nlohmann::json& doc);

} // namespace wb
