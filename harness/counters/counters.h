// What the hardware counted while a configuration's kernels ran (`run --counters`): one extra,
// untimed pass of the plugin's run after its timed and verified ones, read per kernel launch by the
// platform's provider (CUPTI's range profiler on nvidia, the cpu runtime's own counts on cpu;
// counters/cupti.cpp, counters/cpu_counters.cpp), or the reason there are none. docs/counters.md
// says what each counter means and how it is computed on each platform.
#pragma once

#include "harness/platform/platform.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wb {

/// A counter of ours: its name in the results, its unit, and what it means.
struct counter_info {
    const char* name;
    const char* unit;
    const char* meaning;
};

/// Every counter a provider may report, in the order the results list them (one home: the JSON,
/// the console's legend and docs/counters.md use these words).
inline constexpr counter_info counter_infos[] = {
    {"simt_efficiency", "fraction",
     "active lanes per executed instruction over the wavefront width (1: no lane idle in a divergent branch)"},
    {"branch_uniformity", "fraction", "branches whose active lanes all went the same way, of all branches executed"},
    {"achieved_occupancy", "fraction",
     "resident wavefronts per multiprocessor while it was active, over the most it can hold"},
    {"dram_read_bytes", "bytes", "bytes read from device memory"},
    {"dram_write_bytes", "bytes", "bytes written to device memory"},
    {"l2_hit_rate", "fraction", "L2 sector lookups that hit, of all lookups"},
    {"instructions", "count", "wavefront-level instructions executed"},
    {"wavefronts", "count", "wavefronts launched"},
    {"blocks", "count", "blocks (work-groups) launched"},
    {"duration_ns", "ns", "the kernel's duration under the profiler (not a timed sample)"},
    {"collectives", "count", "wavefront collectives completed (ballots, shuffles; cpu runtime)"},
    {"collective_lanes", "fraction",
     "lanes taking part in each wavefront collective over the wavefront width (cpu runtime)"},
};

/// One kernel launch of the profiled run, in launch order.
struct launch_counters {
    std::string kernel;                   // the plugin's name for it, the symbol's, or "launch N"
    std::map<std::string, double> values; // by counter_infos name; a counter not measured is absent
    std::string note;                     // e.g. why achieved occupancy is below the static figure
};

/// The counters of one configuration's run.
struct counter_readings {
    std::string provider; // "cupti 13 range profiler", "cpu runtime"; "" when none were read
    std::string skipped;  // why there are none (or fewer than asked), when they were asked for
    int passes = 0;       // replays of each kernel the provider needed (0: it counts without replay)
    std::vector<launch_counters> launches;
    bool fresh_worker = false; // the provider stays in the process and changes its later timings: replace it
    double work = 0;           // what the family counts of one run (its metric's work: bytes, MACs...)
    std::string work_unit;     // "B", "MAC"...
};

/// Reads counters on one device: start() before the run, stop() after it (once the device is idle).
class counter_provider {
public:
    virtual ~counter_provider() = default;
    virtual void start() = 0;
    virtual counter_readings stop() = 0;
};

/// A provider for platform `p`'s device (for one pass: what is costly to set up, a provider keeps
/// per process), or null with `why` ("CUPTI is not available: cannot load libcupti.so.13 ...").
std::unique_ptr<counter_provider> counter_provider_for(const platform& p, std::string& why);

/// The counters of one call of `run` (the plugin's run, waited for) on `p`: a stated skip, never
/// an exception, when the provider cannot read them; what `run` throws goes on to the caller.
counter_readings read_counters(const platform& p, const std::function<void()>& run);

/// Over all launches: SIMT efficiency weighted by instructions (as the hardware's own ratio
/// would be over the whole run), achieved occupancy weighted by duration; none when not measured.
std::optional<double> overall_simt(const counter_readings& c);
std::optional<double> overall_occupancy(const counter_readings& c);
/// A counter summed over the launches (bytes, instructions), or none when no launch has it.
std::optional<double> total_of(const counter_readings& c, const std::string& name);

/// Names each launch after the plugin's kernels (`kernel_names`: those that run in this
/// configuration) where the provider could not, or matched by the symbol's base name.
void name_launches(counter_readings& c, const std::vector<std::string>& kernel_names);

/// When the measured occupancy of launch `l` falls short of the static figure by more than
/// `occupancy_margin`, a note with the likely reason: a launch too small to fill the machine, a
/// tail of a last partial wave of blocks, or the kernel's own imbalance (`limiter`: what limits
/// the static figure).
inline constexpr double occupancy_margin = 0.10;
void explain_occupancy(launch_counters& l, double static_fraction, int blocks_per_multiprocessor, int multiprocessors,
                       const std::string& limiter);

/// One line for the console: the provider, DRAM traffic against the work the family counts, L2
/// hits, instructions per unit of work, the occupancy notes; or why there are no readings.
/// `model_simt`: a model's SIMT efficiency of the same kernels, shown beside the measured one.
std::string counters_line(const counter_readings& c, std::optional<double> model_simt = std::nullopt);

/// The readings in the results JSON and on the wire (the same document), and back.
nlohmann::json counters_json(const counter_readings& c);
counter_readings counters_from_json(const nlohmann::json& j);

} // namespace wb
