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

/// The ceilings as JSON ({name: {value, unit, what, measured}}): the cache, `probe --out` and the results.
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

/// Where the ceilings of this platform and device are cached.
std::filesystem::path ceiling_cache_path(const platform& p);
/// None when there is no cache, or one that cannot be read or is of another probe version.
std::optional<ceilings> load_ceilings(const platform& p);
/// Throws file_error (with the reason) when the cache cannot be written.
void save_ceilings(const platform& p, const probe_report& r);
/// Saves them, and says where on `os`; or, when they cannot be written, warns on stderr that
/// they were not cached, and why.
void cache_ceilings(const platform& p, const probe_report& r, std::ostream& os);

} // namespace wb
