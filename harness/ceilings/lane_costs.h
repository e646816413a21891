// What the cpu platform's runtime costs per lane (a lane, a barrier, a wavefront shuffle):
// measured in one process, and summed up over several (`wavebench probe` on cpu).
#pragma once

#include "harness/platform/platform.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace wb {

/// What the platform's runtime costs per lane, measured in this process (the cpu platform's
/// scheduler: a lane without barriers, a barrier at work-groups of 64 to 1024, a wavefront
/// shuffle), in core nanoseconds per lane from the process's CPU time; each kernel's result is
/// checked. A JSON object of name -> value.
nlohmann::json measure_lane_costs(const std::shared_ptr<platform>& p);

/// The costs measured in several processes, one measure_lane_costs object each (the costs of
/// one process differ from the next's: stacks, pages, thread placement): per cost, the median,
/// min, max and spread (max / min), and a line each for a person in `summary`.
nlohmann::json summarize_lane_costs(const std::vector<nlohmann::json>& per_process, std::vector<std::string>& summary);

} // namespace wb
