#include "harness/report/results_json.h"

#include "harness/ceilings/probe.h"

#include "harness/common/files.h"
#include "harness/common/json.h"
#include "harness/measure/ab.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iomanip>
#include <map>
#include <ostream>

namespace wb {

namespace {

nlohmann::json stats_json(const summary& s)
{
    return {{"min", s.min},   {"median", s.median},         {"max", s.max},
            {"mean", s.mean}, {"rel_stddev", s.rel_stddev}, {"samples", s.samples}};
}

nlohmann::json known(int64_t v) { return v >= 0 ? nlohmann::json(v) : nlohmann::json(); }

nlohmann::json kernel_json(const kernel_report& k)
{
    const auto& r = k.resources;
    nlohmann::json j{{"name", k.name},
                     {"block_size", k.block_size},
                     {"registers", known(r.registers)},
                     {"sgprs", nullptr},
                     {"agprs", nullptr},
                     {"lds_bytes", r.static_shared_bytes >= 0
                                       ? nlohmann::json(r.static_shared_bytes + k.dynamic_lds_bytes)
                                       : nlohmann::json()},
                     {"static_lds_bytes", known(r.static_shared_bytes)},
                     {"dynamic_lds_bytes", k.dynamic_lds_bytes},
                     {"max_threads_per_block", r.max_threads_per_block},
                     {"scratch_bytes", known(r.local_bytes)},
                     {"occupancy", nullptr},
                     {"limiter", nullptr}};
    j["amd_static"] = nullptr;
    if (k.amd) {
        nlohmann::json amd = nlohmann::json::array();
        for (const auto& a : *k.amd) amd.push_back(to_json(a));
        j["amd_static"] = amd;
    } else if (!k.amd_missing.empty()) {
        j["amd_static_missing"] = k.amd_missing;
    }
    if (k.occ) {
        j["occupancy"] = {{"value", k.occ->value},
                          {"max", k.occ->max},
                          {"unit", k.occ->unit},
                          {"percent", k.occ->max > 0 ? 100 * k.occ->value / k.occ->max : 0},
                          {"blocks", k.occ->blocks}};
        if (!k.occ->limiter.empty()) j["limiter"] = k.occ->limiter;
    }
    return j;
}

nlohmann::json result_json(const result& r, const std::string& unit, const std::string& metric_name)
{
    const nlohmann::json params = params_json(r.family_params, r.tunables);
    const bool measured = r.time_ms.samples > 0;
    nlohmann::json kernels = nlohmann::json::array();
    for (const auto& k : r.kernels) kernels.push_back(kernel_json(k));
    nlohmann::json row = {
        {"plan_index", r.plan_index},
        {"device_index", r.device_index},
        {"family", r.family},
        {"variant", r.variant},
        {"params", params},
        {"code_digest", r.code_digest.empty() ? nlohmann::json() : nlohmann::json(r.code_digest)},
        {"device_code_digest", r.device_code_digest.empty() ? nlohmann::json() : nlohmann::json(r.device_code_digest)},
        {"status", to_string(r.st)},
        {"verified", r.st == status::verified},
        {"error", r.st != status::verified && r.st != status::skipped ? nlohmann::json(r.message) : nlohmann::json()},
        {"stage", r.where != stage::none ? nlohmann::json(to_string(r.where)) : nlohmann::json()},
        {"skip_reason", r.st == status::skipped ? nlohmann::json(r.message) : nlohmann::json()},
        {"note", r.note.empty() ? nlohmann::json() : nlohmann::json(r.note)},
        {"seeds", r.seeds},
        {"input_sets", r.input_sets},
        {"working_set_bytes", r.working_set_bytes},
        {"runs", r.runs},
        {"runs_checked", r.runs_checked},
        {"time_ms", measured ? nlohmann::json(r.time_ms.median) : nlohmann::json()},
        {"time_ms_stats", measured ? stats_json(r.time_ms) : nlohmann::json()},
        {"wall_ms", measured ? nlohmann::json(r.wall_ms.median) : nlohmann::json()},
        {"wall_ms_stats", measured ? stats_json(r.wall_ms) : nlohmann::json()},
        {"samples_ms", r.samples_ms},
        {"wall_samples_ms", r.wall_samples_ms},
        {"prepare_ms", r.prepare_ms},
        {"noisy", r.noisy},
        {"metric", r.st == status::verified
                       ? nlohmann::json{{"name", metric_name}, {"value", r.metric_value}, {"unit", unit}}
                       : nlohmann::json()},
        {"fraction_of_ceiling", or_null(r.fraction_of_ceiling)},
        {"ceiling", r.ceiling.empty() ? nlohmann::json() : nlohmann::json(r.ceiling)},
        {"speedup_vs_baseline", or_null(r.speedup_vs_baseline)},
        {"speedup_vs_library", or_null(r.speedup_vs_library)},
        {"model_speedup", or_null(r.model_speedup)},
        {"model_issue_speedup", or_null(r.model_issue_speedup)},
        {"model_simt_efficiency", or_null(r.model_simt)},
        {"kernels", kernels},
        {"telemetry", telemetry_json(r.telemetry)},
        {"energy", energy_json(r.telemetry)},
        {"counters", r.counters ? counters_json(*r.counters) : nlohmann::json()},
        {"wall_time_ms", wall_time_json(r.wall)}};
    // An A/B run: the base build's result, its samples paired with these by position.
    row["ab"] = r.ab_base ? nlohmann::json{{"base", result_json(*r.ab_base, unit, metric_name)},
                                           {"order", r.ab_order},
                                           {"block", ab_block}}
                          : nlohmann::json();
    return row;
}

} // namespace

nlohmann::json device_json(const wb_device_info& d)
{
    return {{"name", d.name},
            {"arch", d.arch},
            {"spec_bandwidth_gbs", 2.0 * d.memory_clock_mhz * d.memory_bus_width / 8 / 1000},
            {"warp_size", d.warp_size},
            {"multiprocessors", d.multiprocessors},
            {"clock_mhz", d.clock_mhz},
            {"memory_clock_mhz", d.memory_clock_mhz},
            {"memory_bus_width", d.memory_bus_width},
            {"memory_bytes", d.total_memory},
            {"l2_cache_bytes", d.l2_cache_bytes},
            {"shared_per_block", d.shared_per_block},
            {"max_threads_per_block", d.max_threads_per_block}};
}

nlohmann::json result_row(const result& r)
{
    const family* f = find_family(r.family);
    return result_json(r, f ? f->metric.unit : "", f ? f->metric.name : "");
}

nlohmann::json results_document(const run_context& ctx, const std::vector<result>& results, bool complete)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : results) rows.push_back(result_row(r));
    nlohmann::json devices = nlohmann::json::array();
    for (size_t k = 0; k < ctx.devices.size(); ++k) {
        nlohmann::json d = device_json(ctx.devices[k].info);
        d["ordinal"] = ctx.devices[k].ordinal;
        d["host"] = ctx.host;
        const wb_device_info& info = ctx.devices[k].info;
        const std::string pci(info.pci_bus_id, strnlen(info.pci_bus_id, sizeof info.pci_bus_id));
        d["pci_bus_id"] = pci.empty() ? nlohmann::json() : nlohmann::json(shown(pci, 31));
        devices.push_back(std::move(d));
    }
    nlohmann::json doc = {
        {"schema_version", results_schema_version},
        {"tool_version", tool_version},
        {"started", ctx.started},
        {"complete", complete},
        {"stopped_by", ctx.stopped_by.empty() ? nlohmann::json() : nlohmann::json(ctx.stopped_by)},
        {"isolation", ctx.isolation},
        {"command", ctx.command},
        {"platform", to_string(ctx.platform)},
        {"platform_options",
         {{"warp_size", ctx.warp_size},
          {"lane_order", ctx.lane_order.empty() ? nlohmann::json() : nlohmann::json(ctx.lane_order)}}},
        {"toolchain", toolchain_of(to_string(ctx.platform))},
        {"device", device_json(ctx.devices.empty() ? wb_device_info{} : ctx.devices[0].info)},
        {"ceilings", ceilings_json(ctx.machine_ceilings)},
        {"suite",
         {{"name", ctx.suite_name},
          {"file", ctx.suite_file},
          {"description", ctx.suite_description},
          {"seed", ctx.settings.seed},
          {"repetitions", ctx.settings.repetitions},
          {"warmup", ctx.settings.warmup},
          {"min_time_s", ctx.settings.min_time_s},
          {"max_samples", ctx.settings.max_samples},
          {"max_time_s", ctx.settings.max_time_s},
          {"verify_every", ctx.settings.verify_every},
          {"timeout_s", timeout_of(ctx.settings)}}},
        {"plugins_rejected", rejections_json(ctx.rejected)},
        {"devices", devices},
        {"clocks", ctx.clocks.is_null() ? nlohmann::json{{"locked", false}} : ctx.clocks},
        {"results", rows}};
    doc["shard"] = ctx.shard.count ? nlohmann::json{{"index", ctx.shard.index},
                                                    {"count", ctx.shard.count},
                                                    {"plan_configs", ctx.plan_configs},
                                                    {"plan_digest", ctx.plan_digest}}
                                   : nlohmann::json(); // a whole run
    doc["ab"] = ctx.ab;                                // null but in an A/B run
    doc["wall_time_ms"] = run_wall_time_json(results, ctx.devices.size());
    return doc;
}

nlohmann::json merged_document(const nlohmann::json& first, const merged_run& m)
{
    nlohmann::json doc = first;
    doc["shard"] = nullptr;        // the whole run
    doc["wall_time_ms"] = nullptr; // the shards ran apart: each one's is in its own document
    doc["command"] = m.command;
    doc["started"] = m.started;
    doc["complete"] = m.complete;
    doc["devices"] = m.devices;
    if (!m.devices.empty()) {
        nlohmann::json d = m.devices[0];
        d.erase("ordinal");
        d.erase("host");
        doc["device"] = d;
    }
    doc["plugins_rejected"] = m.plugins_rejected;
    doc["merged_from"] = m.merged_from;
    doc["results"] = m.results;
    return doc;
}

std::string format_ms(double ms)
{
    char buf[32];
    if (ms < 1)
        std::snprintf(buf, sizeof buf, "%.2f us", ms * 1e3);
    else if (ms < 1000)
        std::snprintf(buf, sizeof buf, "%.3f ms", ms);
    else
        std::snprintf(buf, sizeof buf, "%.2f s", ms / 1e3);
    return buf;
}

void print_amd_static(std::ostream& os, const std::vector<result>& results)
{
    // One line per plugin, kernel and launch (block size, dynamic LDS), in the order they ran; a
    // column per AMD target: VGPRs and waves per SIMD.
    std::vector<std::string> targets;
    std::vector<std::pair<std::string, std::map<std::string, std::string>>> rows;
    std::string missing;
    for (const auto& r : results)
        for (const auto& k : r.kernels) {
            if (!k.amd_missing.empty()) missing = k.amd_missing;
            if (!k.amd) continue;
            const std::string row = r.family + "/" + r.variant + " " + k.name + " @" + std::to_string(k.block_size) +
                                    (k.dynamic_lds_bytes > 0 ? " +" + std::to_string(k.dynamic_lds_bytes) + " B" : "");
            auto it = std::find_if(rows.begin(), rows.end(), [&](const auto& x) { return x.first == row; });
            if (it == rows.end()) it = rows.insert(rows.end(), {row, {}});
            for (const auto& a : *k.amd) {
                if (std::find(targets.begin(), targets.end(), a.k.target) == targets.end())
                    targets.push_back(a.k.target);
                it->second[a.k.target] = std::to_string(a.k.vgprs) + "v " +
                                         (a.occupancy ? std::to_string(a.occupancy->waves) + "/" +
                                                            std::to_string(a.occupancy->max_waves) + "w"
                                                      : "?");
            }
        }
    if (rows.empty()) {
        if (!missing.empty()) os << "\nno AMD static figures: " << missing << "\n";
        return;
    }
    std::sort(targets.begin(), targets.end());
    size_t w = 6;
    for (const auto& [row, _] : rows) w = std::max(w, row.size());
    os << "\nAMD static figures (VGPRs, waves per SIMD over the maximum) at each launch (block size, + dynamic LDS):\n";
    os << std::string(w, ' ');
    for (const auto& t : targets) os << "  " << std::string(std::max<int>(0, 11 - int(t.size())), ' ') << t;
    os << "\n";
    for (const auto& [row, cells] : rows) {
        os << row << std::string(w - row.size(), ' ');
        for (const auto& t : targets) {
            const std::string c = cells.count(t) ? cells.at(t) : "-";
            os << "  " << std::string(std::max<int>(0, 11 - int(c.size())), ' ') << c;
        }
        os << "\n";
    }
}

} // namespace wb
