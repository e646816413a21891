// `wavebench report`: the results of the runs given, checked and trimmed to what the page draws,
// inlined as JSON into the page's template with the vendored Vega scripts (both built into the
// binary: cmake/report_assets.cmake). The page itself (harness/report/report_page.html) lays out and
// draws everything; this file decides what data it gets: the newest run's results (and its searches,
// for a tune run), the comparison of two runs, the kernel-time spread of each configuration per run
// for the trend.
#include "harness/report/html_report.h"

#include "harness/common/files.h"
#include "harness/common/utc_time.h"
#include "harness/report/results_json.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

// The page's template and the vendored scripts (the generated report_assets.cpp).
extern "C" {
[[gnu::visibility("hidden")]] extern const char wb_report_page[], wb_report_page_end[];
[[gnu::visibility("hidden")]] extern const char wb_report_vega[], wb_report_vega_end[];
[[gnu::visibility("hidden")]] extern const char wb_report_vega_lite[], wb_report_vega_lite_end[];
[[gnu::visibility("hidden")]] extern const char wb_report_vega_embed[], wb_report_vega_embed_end[];
[[gnu::visibility("hidden")]] extern const char wb_report_licenses[], wb_report_licenses_end[];
}

namespace wb {

namespace {

using json = nlohmann::json;

std::string_view asset(const char* begin, const char* end)
{
    return {begin, size_t(reinterpret_cast<uintptr_t>(end) - reinterpret_cast<uintptr_t>(begin))};
}

using checker = results_reader; // every error names the input and the result

/// A kernel's AMD figures on one target, as the page shows them.
json amd_target_json(const json& t, const checker& c, const std::string& where)
{
    if (!t.is_object()) c.fail(where, ": an 'amd_static' entry is not an object");
    json out{{"target", c.name(t, "target", where)}};
    for (const char* k : {"vgprs", "agprs", "sgprs", "lds_bytes", "scratch_bytes", "vgpr_spills", "sgpr_spills"})
        out[k] = c.number(t, k, where);
    const json& occ = c.object(t, "occupancy", where);
    out["waves_per_simd"] = occ.is_object() ? c.number(occ, "waves_per_simd", where) : json();
    out["max_waves"] = occ.is_object() ? c.number(occ, "max", where) : json();
    out["limiter"] = occ.is_object() ? c.text(occ, "limiter", where) : json();
    return out;
}

json kernel_json(const json& k, const checker& c, const std::string& where)
{
    if (!k.is_object()) c.fail(where, ": a kernel is not an object");
    json out{{"name", c.name(k, "name", where)},
             {"block_size", c.number(k, "block_size", where)},
             {"registers", c.number(k, "registers", where)},
             {"amd_static_missing", c.text(k, "amd_static_missing", where)},
             {"amd_static", nullptr}};
    if (const json& occ = c.object(k, "occupancy", where); occ.is_object())
        out["occupancy"] = {{"value", c.number(occ, "value", where)},
                            {"max", c.number(occ, "max", where)},
                            {"unit", c.text(occ, "unit", where)}};
    const json& amd = c.field(k, "amd_static");
    if (!amd.is_null() && !amd.is_array()) c.fail(where, ": 'amd_static' is not an array");
    if (amd.is_array()) {
        out["amd_static"] = json::array();
        for (const json& t : amd) out["amd_static"].push_back(amd_target_json(t, c, where));
    }
    return out;
}

/// The kernel time's spread in one result: from its samples (schema 3), else its summary.
json spread_json(const json& r, const checker& c, const std::string& where)
{
    std::vector<double> x; // samples_ms of another type: none, as before schema 3
    if (c.field(r, "samples_ms").is_array()) x = *c.samples(r, where);
    if (x.empty()) {
        const json& st = c.object(r, "time_ms_stats", where);
        const json median = c.number(r, "time_ms", where);
        if (!median.is_number()) return nullptr;
        return {{"median", median},
                {"min", st.is_object() ? c.number(st, "min", where) : json()},
                {"max", st.is_object() ? c.number(st, "max", where) : json()},
                {"q1", nullptr},
                {"q3", nullptr},
                {"samples", st.is_object() ? c.number(st, "samples", where) : json()}};
    }
    std::sort(x.begin(), x.end());
    auto quantile = [&](double p) {
        const double at = p * double(x.size() - 1);
        const size_t i = size_t(at);
        return i + 1 < x.size() ? x[i] + (at - double(i)) * (x[i + 1] - x[i]) : x[i];
    };
    return {{"median", quantile(0.5)}, {"min", x.front()},     {"max", x.back()},
            {"q1", quantile(0.25)},    {"q3", quantile(0.75)}, {"samples", x.size()}};
}

/// One result as the page uses it.
json result_json(const json& r, const checker& c, size_t index)
{
    const std::string where = result_place(index);
    if (!r.is_object()) c.fail(where, " is not an object");
    json out{{"family", c.name(r, "family", where)}, {"variant", c.name(r, "variant", where)}};
    const std::string st = c.name(r, "status", where);
    try {
        out["status"] = to_string(status_from_string(st));
    } catch (const std::invalid_argument& e) {
        c.fail(where, std::string(": ") + e.what());
    }
    const json& params = c.field(r, "params");
    if (!params.is_object()) c.fail(where, ": no 'params' object");
    out["params"] = json::object();
    for (const auto& [k, v] : params.items())
        out["params"][k] = v.is_primitive() ? v : json(v.dump(-1, ' ', false, json::error_handler_t::replace));
    for (const char* k : {"stage", "error", "skip_reason", "note"}) out[k] = c.text(r, k, where);
    for (const char* k : {"time_ms", "fraction_of_ceiling", "speedup_vs_baseline", "speedup_vs_library",
                          "model_speedup", "model_issue_speedup"})
        out[k] = c.number(r, k, where);
    const json& noisy = c.field(r, "noisy");
    out["noisy"] = noisy.is_boolean() && noisy.get<bool>();
    out["metric"] = nullptr;
    if (const json& m = c.object(r, "metric", where); m.is_object())
        out["metric"] = {{"name", c.text(m, "name", where)},
                         {"unit", c.text(m, "unit", where)},
                         {"value", c.number(m, "value", where)}};
    out["spread"] = spread_json(r, c, where);
    out["kernels"] = json::array();
    const json& kernels = c.field(r, "kernels");
    if (!kernels.is_null() && !kernels.is_array()) c.fail(where, ": 'kernels' is not an array");
    if (kernels.is_array())
        for (const json& k : kernels) out["kernels"].push_back(kernel_json(k, c, where));
    return out;
}

/// Every result of one input, checked.
std::vector<json> results_of(const run_input& in)
{
    const checker c{in.label};
    const json& results = c.results(in.doc);
    std::vector<json> out;
    for (size_t i = 0; i < results.size(); ++i) out.push_back(result_json(results[i], c, i));
    return out;
}

/// A candidate's tunables as one text ("block_size=1024 items=16"); null where there are none.
json tunables_text(const json& t)
{
    if (!t.is_object()) return nullptr;
    std::string text;
    for (const auto& [k, v] : t.items())
        text += (text.empty() ? "" : " ") + k + "=" +
                (v.is_string() ? v.get<std::string>() : v.dump(-1, ' ', false, json::error_handler_t::replace));
    return text;
}

/// One of a problem's final candidates (the best found, the variant's default) as the page shows it.
json final_json(const checker& c, const json& fin, const char* key, const std::string& where)
{
    const json& x = c.object(fin, key, where); // null where `fin` is none
    if (!x.is_object()) return nullptr;
    return {{"time_ms", c.number(x, "time_ms", where)},
            {"joules_per_run", c.number(x, "joules_per_run", where)},
            {"status", c.text(x, "status", where)},
            {"tunables", tunables_text(c.field(x, "tunables"))}};
}

/// The searches of a `wavebench tune` run, each with every evaluation (the page draws their
/// convergence); null for a run that tuned nothing.
json tune_json(const run_input& in)
{
    const checker c{in.label};
    const json& tune = c.object(in.doc, "tune", "");
    if (!tune.is_object()) return nullptr;
    const json& problems = c.field(tune, "problems");
    if (!problems.is_array()) c.fail("tune", ": no 'problems' array");
    json out = json::array();
    for (size_t i = 0; i < problems.size(); ++i) {
        const json& p = problems[i];
        const std::string where = "tune problem " + std::to_string(i + 1);
        const json& steps = c.field(p, "steps");
        if (!steps.is_array()) c.fail(where, ": no 'steps' array");
        json rows = json::array();
        const bool energy = c.field(p, "objective") == json("energy"); // else the kernel time
        for (const json& s : steps) {
            if (!s.is_object()) c.fail(where, ": a step is not an object");
            rows.push_back({{"evaluation", c.number(s, "evaluation", where)},
                            {"status", c.text(s, "status", where)},
                            {"value", c.number(s, energy ? "joules_per_run" : "time_ms", where)},
                            {"best", c.number(s, energy ? "best_so_far_j" : "best_so_far_ms", where)},
                            {"cached", c.field(s, "cached") == json(true)},
                            {"tunables", tunables_text(c.field(s, "tunables"))}});
        }
        const json& params = c.object(p, "params", where);
        const json& fin = c.object(p, "final", where);
        const json& cmp = c.object(fin, "comparison", where);
        out.push_back({{"family", c.name(p, "family", where)},
                       {"variant", c.name(p, "variant", where)},
                       {"params", tunables_text(params)},
                       {"strategy", c.text(p, "strategy", where)},
                       {"objective", energy ? "energy" : "time"},
                       {"energy_change", c.number(fin, "energy_change", where)},
                       {"budget", c.number(p, "budget", where)},
                       {"points", c.number(p, "allowed_points", where)},
                       {"steps", std::move(rows)},
                       {"best", final_json(c, fin, "best", where)},
                       {"default", final_json(c, fin, "default", where)},
                       {"change", c.number(cmp, "change", where)},
                       {"p_value", c.number(cmp, "p_value", where)},
                       {"verdict", c.text(cmp, "verdict", where)}});
    }
    return {{"strategy", c.text(tune, "strategy", "tune")},
            {"seed", c.number(tune, "seed", "tune")},
            {"problems", std::move(out)}};
}

/// A run over several devices or hosts (--devices, merged shards): "0 NAME on HOST, 1 NAME on HOST";
/// null for one device.
json devices_text(const checker& c, const json& d)
{
    const json& devices = c.field(d, "devices");
    if (!devices.is_array() || devices.size() < 2) return json();
    std::string text;
    for (const json& dev : devices) {
        if (!dev.is_object()) c.fail("devices", ": an entry is not an object");
        const json ordinal = c.number(dev, "ordinal", "devices"), name = c.text(dev, "name", "devices"),
                   host = c.text(dev, "host", "devices");
        text += (text.empty() ? "" : ", ") + (ordinal.is_number() ? ordinal.dump() + " " : std::string()) +
                (name.is_string() ? name.get<std::string>() : "?") +
                (host.is_string() ? " on " + host.get<std::string>() : std::string());
    }
    return shown(std::to_string(devices.size()) + " devices: " + text, 600);
}

/// An input's header: where and when it ran, and how many results of each status it has.
json run_json(const run_input& in, const std::vector<json>& results)
{
    const checker c{in.label};
    const json& d = in.doc;
    const json& suite = c.object(d, "suite", "");
    const json& device = c.object(d, "device", "");
    const json& po = c.object(d, "platform_options", "");
    json counts = json::object();
    for (const json& r : results)
        counts[r["status"].get<std::string>()] = counts.value(r["status"].get<std::string>(), 0) + 1;
    return {{"label", in.label},
            {"id", in.id ? json(*in.id) : json()},
            {"suite", suite.is_object() ? c.text(suite, "name", "suite") : json()},
            {"suite_file", suite.is_object() ? c.text(suite, "file", "suite") : json()},
            {"description", suite.is_object() ? c.text(suite, "description", "suite") : json()},
            {"platform", c.text(d, "platform", "")},
            {"device", device.is_object() ? c.text(device, "name", "device") : json()},
            {"arch", device.is_object() ? c.text(device, "arch", "device") : json()},
            {"devices", devices_text(c, d)},
            {"warp_size", po.is_object() ? c.number(po, "warp_size", "platform_options") : json()},
            {"toolchain", c.text(d, "toolchain", "")},
            {"tool_version", c.text(d, "tool_version", "")},
            {"started", c.text(d, "started", "")},
            {"complete", c.field(d, "complete").is_boolean() ? c.field(d, "complete") : json()},
            {"stopped_by", c.text(d, "stopped_by", "")},
            {"command", c.text(d, "command", "")},
            {"schema_version", c.number(d, "schema_version", "")},
            {"results", results.size()},
            {"counts", counts}};
}

/// JSON as a <script type="application/json"> holds it: '<' as \u003c, so no "</script>" or
/// "<!--" in any string can end or change the script. And the line and paragraph separators
/// (U+2028, U+2029) as the text "\u2028" and "\u2029", shown as escaped as the console shows
/// them: Vega writes names and titles into its expressions as string literals, which such a
/// character ends (the chart is not drawn), whatever the JSON around it.
std::string script_json(const json& j)
{
    const std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i)
        if (text[i] == '<') {
            out += "\\u003c";
        } else if (text.compare(i, 2, "\xE2\x80") == 0 && i + 2 < text.size() &&
                   (text[i + 2] == '\xA8' || text[i + 2] == '\xA9')) {
            out += text[i + 2] == '\xA8' ? "\\\\u2028" : "\\\\u2029";
            i += 2;
        } else {
            out += text[i];
        }
    return out;
}

} // namespace

void trend_builder::add(const run_input& in)
{
    const auto results = results_of(in);
    run r{started_of(in), run_json(in, results), {}};
    std::map<std::string, int> seen; // a configuration a suite repeats: numbered in order
    for (const json& x : results) {
        if (status_of(x) != status::verified || x["spread"].is_null()) continue;
        const std::string key =
            x["family"].get<std::string>() + "/" + x["variant"].get<std::string>() + " " + x["params"].dump();
        json p = x["spread"];
        p["family"] = x["family"];
        p["variant"] = x["variant"];
        p["params"] = x["params"];
        p["repeat"] = seen[key]++;
        r.points.push_back(std::move(p));
    }
    runs_.push_back(std::move(r));
}

json trend_builder::finish() &&
{
    std::vector<run*> order;
    for (run& r : runs_) order.push_back(&r);
    std::stable_sort(order.begin(), order.end(), [](const run* a, const run* b) { return a->started < b->started; });
    nlohmann::json out{{"runs", nlohmann::json::array()}, {"points", nlohmann::json::array()}};
    for (size_t i = 0; i < order.size(); ++i) {
        out["runs"].push_back(std::move(order[i]->header));
        for (nlohmann::json& p : order[i]->points) {
            p["run"] = i;
            out["points"].push_back(std::move(p));
        }
        order[i]->points = {};
    }
    runs_.clear();
    return out;
}

json report_data(const std::vector<run_input>& inputs, json trend, const compare_options& o)
{
    if (inputs.empty()) throw std::invalid_argument("report: no input");
    json data{{"generated", utc_now()},
              {"tool_version", tool_version},
              {"runs", json::array()},
              {"compare", nullptr},
              {"trend", nullptr}};
    size_t newest = 0;
    std::vector<std::vector<json>> results;
    for (size_t i = 0; i < inputs.size(); ++i) {
        results.push_back(results_of(inputs[i]));
        data["runs"].push_back(run_json(inputs[i], results.back()));
        if (started_of(inputs[i]) >= started_of(inputs[newest])) newest = i;
    }
    data["newest"] = newest;
    data["results"] = results[newest];
    data["tune"] = tune_json(inputs[newest]);
    if (inputs.size() == 1 && inputs[0].doc.contains("ab") && inputs[0].doc["ab"].is_object()) {
        try { // an A/B run: the base build against the change, as a compare of two runs
            data["compare"] = compare_ab(inputs[0], o);
        } catch (const std::invalid_argument& e) {
            data["compare"] = {
                {"error", e.what()}, {"base", inputs[0].label + ", base build"}, {"new", inputs[0].label}};
        }
    }
    if (inputs.size() == 2) {
        try {
            data["compare"] = compare_runs(inputs[0], inputs[1], o);
        } catch (const std::invalid_argument& e) {
            data["compare"] = {{"error", e.what()}, {"base", inputs[0].label}, {"new", inputs[1].label}};
        }
    }
    data["trend"] = std::move(trend);
    return data;
}

std::string report_page(const json& data)
{
    const std::map<std::string_view, std::string> slots{
        {"vega", std::string(asset(wb_report_vega, wb_report_vega_end))},
        {"vega-lite", std::string(asset(wb_report_vega_lite, wb_report_vega_lite_end))},
        {"vega-embed", std::string(asset(wb_report_vega_embed, wb_report_vega_embed_end))},
        {"licenses", script_json(std::string(asset(wb_report_licenses, wb_report_licenses_end)))},
        {"data", script_json(data)}};
    // The template's slots are @@name@@; what fills them is not searched again.
    const std::string_view page = asset(wb_report_page, wb_report_page_end);
    std::string out;
    size_t at = 0;
    for (size_t open; (open = page.find("@@", at)) != std::string_view::npos;) {
        const size_t close = page.find("@@", open + 2);
        const auto slot =
            close == std::string_view::npos ? slots.end() : slots.find(page.substr(open + 2, close - open - 2));
        if (slot == slots.end())
            throw std::logic_error("report page template: an unknown slot at byte " + std::to_string(open));
        out.append(page.substr(at, open - at)).append(slot->second);
        at = close + 2;
    }
    return out.append(page.substr(at));
}

} // namespace wb
