// What a result records of its device's state: a reading after each measured run (clocks,
// temperature, power, the reasons the clocks were held down), how many runs were throttled, and
// with --energy the joules per run from the energy counter over a loop of back-to-back runs. It
// travels from the worker whole; the results JSON holds a summary (docs/telemetry.md).
#pragma once

#include "harness/telemetry/sensors.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace wb {

struct telemetry_record {
    std::string source;                                   // "nvml", "rocm-smi", "cpufreq", "proc-cpuinfo"; "" when none
    std::string unavailable;                              // why there are no readings
    std::vector<double> sm_mhz, mem_mhz, temp_c, power_w; // one per measured run; negative: not given
    std::vector<uint64_t> reasons;                        // the device's reason bits, per measured run
    std::vector<int> throttled;                           // the measured runs (0-based) that were throttled
    std::string throttle_reasons;                         // the reasons seen on them, as words
    // --energy
    bool energy_asked = false;
    double energy_j = -1; // over the loop; negative: not measured (energy_unavailable says why)
    int energy_runs = 0;
    double energy_s = 0, energy_resolution_j = 0, energy_per_unit_j = -1;
    std::string energy_source, energy_unavailable, work_unit;
};

/// How long the energy loop runs at least (then until the counter next moves).
inline constexpr double energy_loop_s = 0.5;

/// Reads the device's sensors into a record after each measured run.
class telemetry_sampler {
public:
    telemetry_sampler(platform_kind kind, const wb_device_info& info, telemetry_record& rec);
    /// A reading after a measured run (outside the timed region).
    void after_run();
    device_sensors* sensors() const { return sensors_; }

private:
    device_sensors* sensors_;
    telemetry_record& rec_;
};

/// --energy: `run` repeated back to back for energy_loop_s and then until the counter moves, the
/// counter read where it has just moved before and after; joules per run, and per unit of work
/// (`work` units a run, `unit` its name: "B", "MAC").
void measure_energy(device_sensors* sensors, const std::function<void()>& run, double work, const std::string& unit,
                    telemetry_record& rec);

/// "B" of "GB/s", "MAC" of "GMAC/s": the unit a family's work is counted in.
std::string work_unit(const std::string& metric_unit);

/// The wire's form (whole) and back; a missing or malformed one reads as no telemetry.
nlohmann::json telemetry_wire(const telemetry_record& t);
telemetry_record telemetry_from_wire(const nlohmann::json& j);

/// The results JSON's "telemetry" and "energy" of a result: min, median and max of each figure,
/// the throttled runs; per-run arrays where there are at most 64 runs.
nlohmann::json telemetry_json(const telemetry_record& t);
nlohmann::json energy_json(const telemetry_record& t);

/// The console's marker: "throttled 3/20" where runs were throttled, else "".
std::string throttle_marker(const telemetry_record& t);
/// "12.3 pJ/B", or "" without an energy figure.
std::string energy_text(const telemetry_record& t);
/// Joules in three digits with the prefix that fits: "4.1 mJ", "12.3 pJ".
std::string joules_text(double joules);
/// The console's line under a result's row: "throttled 3/20 runs (sw_power_cap)", "energy 12.3
/// pJ/B (4.5 J over 900 runs)", or both; "" when there is neither.
std::string telemetry_line(const telemetry_record& t);

} // namespace wb
