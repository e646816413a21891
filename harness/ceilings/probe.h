// `wavebench probe`: the machine's ceilings, which results are reported against. Cached per
// platform and device, so `run` measures them only once (or again with --reprobe).
#pragma once

#include "harness/platform/platform.h"
#include "harness/measure/result.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iosfwd>
#include <optional>

namespace wb {

struct platform_options;

struct probe_report {
    ceilings values;
    nlohmann::json details;           // every measurement, for the probe's JSON
    std::vector<std::string> summary; // the same, as lines for a person
};

/// Measures the platform's ceilings over `bytes` of memory (0: 256 MiB on cpu, 1 GiB on GPUs).
/// On cpu: read bandwidth of one thread and of all threads, copy bandwidth, and the xsimd
/// reference against the scalar oracle. On GPUs: a read-only kernel (its sum checked), a
/// device-to-device copy and the int32 multiply-add rate.
probe_report probe(const std::shared_ptr<platform>& p, size_t bytes);

/// What the platform's runtime costs per lane, measured in this process (the cpu platform's
/// scheduler: a lane without barriers, a barrier at work-groups of 64 to 1024, a wavefront
/// shuffle), in core nanoseconds per lane from the process's CPU time; each kernel's result is
/// checked. A JSON object of name -> value.
nlohmann::json measure_lane_costs(const std::shared_ptr<platform>& p);

/// measure_lane_costs in `processes` fresh worker processes, one after another (the costs of
/// one process differ from the next's: stacks, pages, thread placement): per cost, the median,
/// min, max and spread (max / min), and a line each for a person in `summary`.
nlohmann::json lane_costs_over_processes(const platform_options& po, int processes,
                                         std::vector<std::string>& summary);

/// Where the ceilings of this platform and device are cached.
std::filesystem::path ceiling_cache_path(const platform& p);
/// None when there is no cache, or one that cannot be read or is of another probe version.
std::optional<ceilings> load_ceilings(const platform& p);
/// Throws file_error (with the reason) when the cache cannot be written.
void save_ceilings(const platform& p, const probe_report& r);
/// Saves them, and says where on `os`; or, when they cannot be written, warns on stderr that
/// they were not cached, and why.
void cache_ceilings(const platform& p, const probe_report& r, std::ostream& os);

/// Now, as "2026-11-22T10:00:00Z".
std::string utc_now();

} // namespace wb
