// Where a run's wall time went (report/wall_time.h).
#include "harness/report/wall_time.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <string>

namespace wb {

namespace {

double parts_sum(const wall_time& w)
{
    double sum = 0;
    for (const auto& [name, part] : wall_time_parts) sum += w.*part;
    return sum;
}

/// "12.3 s" or "850 ms".
std::string seconds(double ms)
{
    char text[32];
    if (ms >= 1000)
        std::snprintf(text, sizeof text, "%.1f s", ms / 1000);
    else
        std::snprintf(text, sizeof text, "%.0f ms", ms);
    return text;
}

} // namespace

nlohmann::json wall_time_json(const wall_time& w)
{
    nlohmann::ordered_json j = {{"start", w.start}, {"total", w.total}};
    for (const auto& [name, part] : wall_time_parts) j[name] = w.*part;
    j["other"] = std::max(w.total - parts_sum(w), 0.0);
    return nlohmann::json(j);
}

nlohmann::json run_wall_time_json(const std::vector<result>& results, size_t devices)
{
    const double run = ms_since_process_start();
    double first = results.empty() ? run : results.front().wall.start, configurations = 0, other = 0;
    nlohmann::json parts = nlohmann::json::object();
    for (const auto& [name, part] : wall_time_parts) parts[name] = 0.0;
    for (const auto& r : results) {
        first = std::min(first, r.wall.start);
        configurations += r.wall.total;
        other += std::max(r.wall.total - parts_sum(r.wall), 0.0);
        for (const auto& [name, part] : wall_time_parts) parts[name] = parts[name].get<double>() + r.wall.*part;
    }
    parts["other"] = other;
    const nlohmann::json between =
        devices > 1 ? nlohmann::json() : nlohmann::json(std::max(run - first - configurations, 0.0));
    return {{"run", run},
            {"before_configurations", first},
            {"configurations", configurations},
            {"between_configurations", between},
            {"parts", parts}};
}

void print_wall_time(std::ostream& os, const nlohmann::json& doc)
{
    const nlohmann::json w = doc.value("wall_time_ms", nlohmann::json());
    if (!w.is_object() || !w.contains("parts")) return;
    const double run = w.value("run", 0.0);
    os << "wall time " << seconds(run) << ": " << seconds(w.value("before_configurations", 0.0))
       << " starting (platform, plugins, ceilings), " << seconds(w.value("configurations", 0.0))
       << " in the configurations";
    if (w["between_configurations"].is_number())
        os << ", " << seconds(w["between_configurations"].get<double>()) << " between them (table, results files)";
    std::vector<std::pair<double, std::string>> parts;
    for (const auto& [name, ms] : w["parts"].items())
        if (ms.is_number()) parts.emplace_back(ms.get<double>(), name);
    std::stable_sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    os << "\n  in the configurations:";
    size_t shown = 0;
    for (const auto& [ms, name] : parts) {
        if (shown && ms < 0.005 * run) break; // the large ones: what is left is under 0.5% each
        char pct[16];
        std::snprintf(pct, sizeof pct, "%.0f%%", run > 0 ? 100 * ms / run : 0.0);
        os << (shown++ ? ", " : " ") << name << " " << seconds(ms) << " (" << pct << ")";
    }
    os << "\n";
}

} // namespace wb
