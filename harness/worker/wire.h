// What the harness and a worker process send each other, one JSON document a line: plugin
// declarations, configurations and settings one way, results the other. Every field a result
// has travels; nothing is recomputed on the other side.
#pragma once

#include "harness/plan/plan.h"
#include "harness/measure/result.h"
#include "harness/plan/settings.h"

#include <nlohmann/json.hpp>

namespace wb::wire {

nlohmann::json to_json(const plugin& p);
/// Throws std::runtime_error for a family this harness does not know.
plugin plugin_from(const nlohmann::json& j);

nlohmann::json to_json(const param_map& m);
param_map params_from(const nlohmann::json& j);

nlohmann::json to_json(const run_settings& s);
run_settings settings_from(const nlohmann::json& j);

nlohmann::json to_json(const result& r);
result result_from(const nlohmann::json& j);

} // namespace wb::wire
