// How the two results of a compared configuration ran (report/compare.h): the SM clock and the
// throttled runs their telemetry recorded, and with --energy in both the energy per run.
#include "harness/report/compare.h"
#include "harness/telemetry/record.h"

#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <limits>

namespace wb {

using json = nlohmann::json;

namespace {

/// The number at r[k0][k1]... (objects all the way), or NaN where there is none (an older results
/// file, no telemetry, no --energy).
double number_at(const json& r, std::initializer_list<const char*> path)
{
    const json* x = &r;
    for (const char* k : path) {
        if (!x->is_object() || !x->contains(k)) return std::numeric_limits<double>::quiet_NaN();
        x = &(*x)[k];
    }
    return x->is_number() ? x->get<double>() : std::numeric_limits<double>::quiet_NaN();
}

} // namespace

json run_conditions(const json& base, const json& now, double threshold)
{
    json c = json::object();
    const double mb = number_at(base, {"telemetry", "sm_mhz", "median"}),
                 mn = number_at(now, {"telemetry", "sm_mhz", "median"});
    if (std::isfinite(mb) && std::isfinite(mn)) {
        c["sm_mhz"] = {mb, mn};
        c["clocks_differ"] = std::abs(mn - mb) > clock_margin * std::max(mb, mn);
    }
    const double tb = number_at(base, {"telemetry", "throttled"}), tn = number_at(now, {"telemetry", "throttled"});
    if (std::isfinite(tb) && std::isfinite(tn)) c["throttled_runs"] = {int64_t(tb), int64_t(tn)};
    const double eb = number_at(base, {"energy", "joules_per_run"}), en = number_at(now, {"energy", "joules_per_run"});
    if (std::isfinite(eb) && std::isfinite(en) && eb > 0) {
        const double change = en / eb - 1;
        c["energy"] = {{"base_j", eb}, {"new_j", en}, {"change", change}, {"large", std::abs(change) >= threshold}};
    }
    return c;
}

std::string conditions_text(const json& c)
{
    std::string s;
    auto add = [&](const std::string& x) { s += (s.empty() ? "" : "; ") + x; };
    if (c.value("clocks_differ", false)) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "ran at other clocks: SM %.0f MHz in BASE, %.0f MHz in NEW (medians)",
                      c["sm_mhz"][0].get<double>(), c["sm_mhz"][1].get<double>());
        add(buf);
    }
    if (c.contains("throttled_runs") && (c["throttled_runs"][0] > 0 || c["throttled_runs"][1] > 0))
        add("throttled runs: " + std::to_string(c["throttled_runs"][0].get<int>()) + " in BASE, " +
            std::to_string(c["throttled_runs"][1].get<int>()) + " in NEW");
    if (c.contains("energy") && c["energy"]["large"].get<bool>())
        add("energy per run " + percent_text(c["energy"]["change"].get<double>()) + " (" +
            joules_text(c["energy"]["base_j"].get<double>()) + " in BASE, " +
            joules_text(c["energy"]["new_j"].get<double>()) + " in NEW)");
    return s;
}

} // namespace wb
