// What a run reports: the results JSON (docs/results-schema.md); the console table is report/console.h.
#pragma once

#include "harness/common/build_info.h"
#include "harness/measure/result.h"
#include "harness/plan/plan.h"
#include "harness/plan/settings.h"
#include "harness/plugins/plugins.h"
#include "harness/report/wall_time.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iosfwd>
#include <string_view>

namespace wb {

/// The results JSON's layout (docs/results-schema.md); 3 added the samples and `toolchain`; 4 the
/// devices, each result's `plan_index` and `device_index`, and shards (`shard`, `merged_from`).
inline constexpr int results_schema_version = 4;

/// A device a run measured on.
struct run_device {
    int ordinal = 0; // the platform's index of it (--device, --devices)
    wb_device_info info{};
};

struct run_context {
    std::string command;
    platform_kind platform = platform_kind::cpu;
    std::vector<run_device> devices; // the first is the results' "device"
    std::string host;                // the machine's name (shards of one suite may run on several)
    int warp_size = 0;
    std::string lane_order; // cpu only: how a wavefront's lanes were ordered (empty elsewhere)
    ceilings machine_ceilings;
    std::string suite_name, suite_file, suite_description;
    run_settings settings;
    std::vector<rejection> rejected;
    std::string started;
    nlohmann::json isolation; // how the plugins ran (executor::describe)
    std::string stopped_by;   // the signal that interrupted the run, or ""
    shard_spec shard;         // --shard: which part of the plan this run is
    size_t plan_configs = 0;  // with a shard: the whole plan's configurations, and its digest
    std::string plan_digest;
    nlohmann::json ab;     // an A/B run (--baseline-plugins): the document's `ab` (docs/results-schema.md); else null
    nlohmann::json clocks; // what --lock-clocks locked (commands/telemetry_options.h)
};

nlohmann::json results_document(const run_context& ctx, const std::vector<result>& results, bool complete);

/// One result as the document's `results` array holds it.
nlohmann::json result_row(const result& r);

/// What joining the shards of a run found (commands/merge_command.cpp).
struct merged_run {
    std::string command, started;
    bool complete = true;
    nlohmann::json devices, results, merged_from, plugins_rejected; // arrays
};

/// The results document of a run merged from its shards: the first shard's document `first` (they
/// share its suite, settings and platform) with what merging found in place of its own; a whole
/// run, no shard, whose device is its first device.
nlohmann::json merged_document(const nlohmann::json& first, const merged_run& m);

nlohmann::json device_json(const wb_device_info& d);

/// "12.3 us", "4.56 ms", "1.20 s"
std::string format_ms(double ms);

/// With --amd-static: each plugin kernel's AMD figures per target, after the table.
void print_amd_static(std::ostream& os, const std::vector<result>& results);

} // namespace wb
