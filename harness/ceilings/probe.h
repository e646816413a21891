// The machine's ceilings, which results are reported against (`wavebench probe` prints them).
// Cached per platform and device, so `run` measures them only once (or again with --reprobe).
#pragma once

#include "harness/measure/result.h"
#include "harness/platform/platform.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iosfwd>
#include <optional>

namespace wb {

/// Each rate is the median of this many timed runs (this noisy host needs at least 9).
inline constexpr int probe_samples = 9;
/// The version of the ceilings' cache: one of another version is measured again.
/// 2: imad_rate on cpu too; 3: the cpu's read bandwidth per working-set size, and the GPUs' read
/// kernel at its best work-group size. (Its levels_on_demand, the cpu's read bandwidth at the
/// working sets `run` needed, came later: a cache without them has none yet.)
inline constexpr int probe_version = 3;

/// The ceilings as JSON ({name: {value, unit, what, measured}}): `probe --out` and the results;
/// with the levels measured on demand that results were set against (ceilings::on_demand).
nlohmann::json ceilings_json(const ceilings& c);

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
/// The two halves of probe: the cpu's (ceilings/cpu_ceilings.cpp) and the GPUs' (gpu_ceilings.cpp).
probe_report probe_cpu(size_t bytes);
probe_report probe_gpu(const std::shared_ptr<platform>& p, size_t bytes);

/// The cpu's read bandwidth in GB/s, every thread reading its share of a working set of `size`
/// bytes over and over, at least `total` bytes of reads per timed run: the best of `rounds` medians
/// of probe_samples runs.
double cpu_read_bandwidth(size_t size, size_t total, int rounds = 1);
/// The cpu's read bandwidth at the working sets results need (ceilings/levels.cpp): `known`, those
/// measured before, and any other measured when first asked (below `max_bytes`, the probe's own
/// working set) and added to the cache at `cache` (its levels_on_demand) while that is still the
/// probe's whose read_bandwidth was measured at `stamp`.
std::shared_ptr<ceiling_levels_on_demand> cpu_levels_on_demand(std::filesystem::path cache, std::string stamp,
                                                               int64_t max_bytes, std::map<std::string, ceiling> known);

/// Where the ceilings of this platform and device are cached.
std::filesystem::path ceiling_cache_path(const platform& p);
/// None when there is no cache, or one that cannot be read or is of another probe version. On cpu
/// with the read bandwidth's levels on demand (those in the cache, and more when needed).
std::optional<ceilings> load_ceilings(const platform& p);
/// Throws file_error (with the reason) when the cache cannot be written.
void save_ceilings(const platform& p, const probe_report& r);
/// Saves them, and says where on `os`; or, when they cannot be written, warns on stderr that
/// they were not cached, and why.
void cache_ceilings(const platform& p, const probe_report& r, std::ostream& os);

} // namespace wb
