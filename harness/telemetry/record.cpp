// A result's telemetry: sampled, its energy loop, and its forms (telemetry/record.h).
#include "harness/telemetry/record.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

namespace wb {

telemetry_sampler::telemetry_sampler(platform_kind kind, const wb_device_info& info, telemetry_record& rec) : rec_(rec)
{
    std::string why;
    sensors_ = sensors_for(kind, info, why);
    rec_.source = sensors_ ? sensors_->source() : "";
    rec_.unavailable = sensors_ ? "" : why;
}

void telemetry_sampler::after_run()
{
    if (!sensors_) return;
    const reading r = sensors_->read();
    if (r.throttled) {
        rec_.throttled.push_back(int(rec_.sm_mhz.size()));
        const std::string words = sensors_->reasons_text(r.reasons);
        if (rec_.throttle_reasons.find(words) == std::string::npos)
            rec_.throttle_reasons += (rec_.throttle_reasons.empty() ? "" : "; ") + words;
    }
    rec_.sm_mhz.push_back(r.sm_mhz);
    rec_.mem_mhz.push_back(r.mem_mhz);
    rec_.temp_c.push_back(r.temp_c);
    rec_.power_w.push_back(r.power_w);
    rec_.reasons.push_back(r.reasons);
}

namespace {

using clock = std::chrono::steady_clock;

double seconds_since(clock::time_point t0) { return std::chrono::duration<double>(clock::now() - t0).count(); }

/// Runs `run` until the counter moves from `from` (at most `cap_s`); the reading it moved to, and
/// how many runs that took.
std::optional<energy_reading> until_moved(device_sensors& s, double from, const std::function<void()>& run,
                                          double cap_s, int& runs)
{
    const auto t0 = clock::now();
    for (;;) {
        auto e = s.energy();
        if (!e || e->joules != from || seconds_since(t0) > cap_s) return e;
        if (run) {
            run();
            ++runs;
        } else {
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    }
}

} // namespace

void measure_energy(device_sensors* sensors, const std::function<void()>& run, double work, const std::string& unit,
                    telemetry_record& rec)
{
    rec.energy_asked = true;
    rec.work_unit = unit;
    auto start = sensors ? sensors->energy() : std::nullopt;
    if (!start) {
        rec.energy_unavailable = !sensors ? "no sensors: " + rec.unavailable : sensors->energy_unavailable();
        return;
    }
    rec.energy_source = sensors->energy_source();
    rec.energy_resolution_j = start->resolution_j;
    int idle = 0;
    start = until_moved(*sensors, start->joules, nullptr, 1.0, idle); // start just after the counter moved
    if (!start) {
        rec.energy_unavailable = sensors->energy_unavailable();
        return;
    }
    const auto t0 = clock::now();
    int runs = 0;
    while (seconds_since(t0) < energy_loop_s || runs < 3) {
        run();
        ++runs;
    }
    const auto end = until_moved(*sensors, sensors->energy().value_or(*start).joules, run, 1.0, runs);
    rec.energy_s = seconds_since(t0);
    rec.energy_runs = runs;
    if (!end || end->joules <= start->joules) {
        rec.energy_unavailable = "the energy counter did not move over " + std::to_string(rec.energy_s).substr(0, 4) +
                                 " s of runs (its resolution: " + std::to_string(start->resolution_j * 1e3) + " mJ)";
        return;
    }
    rec.energy_j = end->joules - start->joules;
    if (work > 0) rec.energy_per_unit_j = rec.energy_j / runs / work;
}

std::string work_unit(const std::string& metric_unit)
{
    std::string u = metric_unit.size() > 2 && metric_unit.substr(metric_unit.size() - 2) == "/s"
                        ? metric_unit.substr(0, metric_unit.size() - 2)
                        : metric_unit;
    if (u.size() > 1 && std::string("kMGT").find(u[0]) != std::string::npos) u = u.substr(1);
    return u;
}

} // namespace wb
