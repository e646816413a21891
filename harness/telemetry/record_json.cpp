// A result's telemetry on the wire, in the results JSON and on the console (telemetry/record.h).
#include "harness/telemetry/record.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace wb {

using nlohmann::json;

namespace {

/// Per-run arrays go into the results JSON up to this many runs.
constexpr size_t max_listed_runs = 64;

json or_null(const std::string& s) { return s.empty() ? json() : json(s); }

/// {min, median, max} of the values given (negative: not given), or null.
json spread(std::vector<double> v)
{
    v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return x < 0; }), v.end());
    if (v.empty()) return json();
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    const double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return {{"min", v.front()}, {"median", median}, {"max", v.back()}};
}

} // namespace

json telemetry_wire(const telemetry_record& t)
{
    return {{"source", t.source},
            {"unavailable", t.unavailable},
            {"readings", {t.sm_mhz, t.mem_mhz, t.temp_c, t.power_w}},
            {"reasons", t.reasons},
            {"throttled", t.throttled},
            {"throttle_reasons", t.throttle_reasons},
            {"energy",
             {t.energy_asked, t.energy_j, t.energy_runs, t.energy_s, t.energy_resolution_j, t.energy_per_unit_j,
              t.energy_source, t.energy_unavailable, t.work_unit}}};
}

telemetry_record telemetry_from_wire(const json& j)
{
    telemetry_record t;
    if (!j.is_object()) return t;
    try {
        t.source = j.at("source");
        t.unavailable = j.at("unavailable");
        const json& r = j.at("readings");
        t.sm_mhz = r.at(0).get<std::vector<double>>();
        t.mem_mhz = r.at(1).get<std::vector<double>>();
        t.temp_c = r.at(2).get<std::vector<double>>();
        t.power_w = r.at(3).get<std::vector<double>>();
        t.reasons = j.at("reasons").get<std::vector<uint64_t>>();
        t.throttled = j.at("throttled").get<std::vector<int>>();
        t.throttle_reasons = j.at("throttle_reasons");
        const json& e = j.at("energy");
        t.energy_asked = e.at(0);
        t.energy_j = e.at(1);
        t.energy_runs = e.at(2);
        t.energy_s = e.at(3);
        t.energy_resolution_j = e.at(4);
        t.energy_per_unit_j = e.at(5);
        t.energy_source = e.at(6);
        t.energy_unavailable = e.at(7);
        t.work_unit = e.at(8);
    } catch (const json::exception& e) {
        t = telemetry_record{};
        t.unavailable = std::string("the worker's telemetry could not be read: ") + e.what();
    }
    return t;
}

json telemetry_json(const telemetry_record& t)
{
    if (t.source.empty()) return {{"source", json()}, {"unavailable", or_null(t.unavailable)}};
    json j = {{"source", t.source},
              {"samples", t.sm_mhz.size()},
              {"sm_mhz", spread(t.sm_mhz)},
              {"mem_mhz", spread(t.mem_mhz)},
              {"temp_c", spread(t.temp_c)},
              {"power_w", spread(t.power_w)},
              {"throttled", t.throttled.size()},
              {"throttle_reasons", or_null(t.throttle_reasons)}};
    if (t.sm_mhz.size() <= max_listed_runs) {
        j["per_run"] = {{"sm_mhz", t.sm_mhz}, {"throttled_runs", t.throttled}};
    }
    return j;
}

json energy_json(const telemetry_record& t)
{
    if (!t.energy_asked) return json();
    if (t.energy_j < 0) return {{"joules", json()}, {"unavailable", or_null(t.energy_unavailable)}};
    return {{"joules", t.energy_j},
            {"runs", t.energy_runs},
            {"seconds", t.energy_s},
            {"joules_per_run", t.energy_j / std::max(t.energy_runs, 1)},
            {"average_power_w", t.energy_s > 0 ? t.energy_j / t.energy_s : 0.0},
            {"per_unit_j", t.energy_per_unit_j >= 0 ? json(t.energy_per_unit_j) : json()},
            {"unit", t.work_unit},
            {"counter", t.energy_source},
            {"resolution_j", t.energy_resolution_j}};
}

std::string throttle_marker(const telemetry_record& t)
{
    if (t.throttled.empty()) return "";
    return "throttled " + std::to_string(t.throttled.size()) + "/" + std::to_string(t.sm_mhz.size());
}

std::string telemetry_line(const telemetry_record& t)
{
    std::string line;
    if (const std::string m = throttle_marker(t); !m.empty())
        line = m + " runs" + (t.throttle_reasons.empty() ? "" : " (" + t.throttle_reasons + ")");
    if (const std::string e = energy_text(t); !e.empty()) {
        char over[96];
        std::snprintf(over, sizeof over, " (%.3g J over %d runs)", t.energy_j, t.energy_runs);
        line += (line.empty() ? "energy " : "; energy ") + e + over;
    }
    return line;
}

std::string energy_text(const telemetry_record& t)
{
    return t.energy_per_unit_j < 0 ? "" : joules_text(t.energy_per_unit_j) + "/" + t.work_unit;
}

std::string joules_text(double joules)
{
    static const std::pair<double, const char*> prefixes[] = {{1, "J"},     {1e-3, "mJ"},  {1e-6, "uJ"},
                                                              {1e-9, "nJ"}, {1e-12, "pJ"}, {1e-15, "fJ"}};
    const auto* p = &prefixes[0];
    for (const auto& q : prefixes) {
        p = &q;
        if (std::abs(joules) >= q.first) break;
    }
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3g %s", joules / p->first, p->second);
    return buf;
}

} // namespace wb
