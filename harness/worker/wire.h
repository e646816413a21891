// What the harness and a worker process send each other, one JSON document a line: plugin
// declarations, configurations and settings one way, results the other. Every field a result
// has travels; nothing is recomputed on the other side. Every message is built and read here.
#pragma once

#include "harness/measure/result.h"
#include "harness/plan/plan.h"
#include "harness/plan/settings.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

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

// ---- requests, harness to worker -------------------------------------------------------------

/// What a request asks of the worker.
enum class request_kind { load, lane_costs, measure };
/// Throws std::out_of_range (nlohmann's) for a request of no kind.
request_kind kind_of(const nlohmann::json& request);

/// Load these plugin files, and answer with their catalog; `base`: those of an A/B run's base build
/// (--baseline-plugins), which the worker keeps apart.
nlohmann::json load_request(const std::vector<std::filesystem::path>& files, bool base = false);
std::vector<std::string> files_of_load(const nlohmann::json& request);

/// Measure the runtime's costs per lane (`wavebench probe` on cpu).
nlohmann::json lane_costs_request();

/// Measure one configuration with these settings. The worker finds the plugin by name.
nlohmann::json measure_request(const config& c, const run_settings& s);
struct measure_order {
    std::string plugin; // "family/variant"
    config c;           // without its plugin (c.plug): the worker's own
    run_settings settings;
    bool ab = false; // an A/B run: also the base build's plugin of the name (measure/ab.h)
};
measure_order measure_order_from(const nlohmann::json& request);

// ---- answers, worker to harness --------------------------------------------------------------

/// The plugins a load request declared, and the files rejected with why.
nlohmann::json catalog_answer(const plugin_registry& reg);
/// A measured result, and the milliseconds the worker was busy with it (the rest of the round trip
/// is the overhead of isolation).
nlohmann::json result_answer(const result& r, double busy_ms);
/// The runtime's costs per lane.
nlohmann::json lane_costs_answer(const nlohmann::json& costs);
/// The worker cannot go on (it could not start the platform, say): why.
nlohmann::json fatal_answer(const std::string& why);

} // namespace wb::wire
