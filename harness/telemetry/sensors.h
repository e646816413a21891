// A device's sensors, read around each measured run outside the timed region: its clocks,
// temperature, power and the reasons its clocks are held down, and its energy counter. Each
// platform reads its own: NVML on nvidia and ROCm SMI on amd (both loaded at run time with dlopen,
// never linked: telemetry/README.md), Linux's cpufreq and RAPL files on cpu. What cannot be read
// is a stated reason, never a failed run.
#pragma once

#include "harness/platform/platform_kind.h"
#include "wavebench/platform_abi.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace wb {

/// One reading; a figure the device does not give is negative.
struct reading {
    double sm_mhz = -1, mem_mhz = -1, temp_c = -1, power_w = -1;
    uint64_t reasons = 0;   // the device's own bits of why its clocks are held (NVML's clock-event reasons)
    bool throttled = false; // held down by anything but idleness or the clocks an administrator set
};

/// The energy counter: joules consumed since some origin, and the counter's resolution.
struct energy_reading {
    double joules = 0;
    double resolution_j = 0;
};

class device_sensors {
public:
    virtual ~device_sensors() = default;
    /// "nvml", "rocm-smi", "cpufreq", "proc-cpuinfo".
    virtual std::string source() const = 0;
    /// Now; what is not available stays negative.
    virtual reading read() = 0;
    /// The energy counter now, or none (energy_unavailable() says why).
    virtual std::optional<energy_reading> energy() = 0;
    /// Where the energy counter is read from ("nvml total energy"), or why there is none.
    virtual std::string energy_source() const = 0;
    virtual std::string energy_unavailable() const = 0;
    /// The reason bits as words ("sw_power_cap, hw_thermal_slowdown"); "" for none.
    virtual std::string reasons_text(uint64_t reasons) const
    {
        (void)reasons;
        return "";
    }
};

/// The sensors of the device `info` on platform `kind`, opened once per process and device; null
/// when there are none, with `why` ("NVML is not available: cannot load libnvidia-ml.so.1: ...").
device_sensors* sensors_for(platform_kind kind, const wb_device_info& info, std::string& why);

/// The platforms' own sensors (sensors_for picks one).
std::unique_ptr<device_sensors> open_nvml_sensors(const wb_device_info& info, std::string& why);
std::unique_ptr<device_sensors> open_rocm_smi_sensors(const wb_device_info& info, std::string& why);
std::unique_ptr<device_sensors> open_cpu_sensors(std::string& why);

/// A library loaded at run time: `env`'s value when set (tests point it at a fake or a missing
/// file), else `file`. Null with `why` when it cannot be loaded.
void* open_runtime_library(const char* env, const char* file, std::string& why);
/// A symbol of `lib`, or null.
void* symbol_of(void* lib, const char* name);
/// `f` pointed at `lib`'s function `name`; false where the library has none.
template <class F> bool bind(void* lib, const char* name, F& f)
{
    f = reinterpret_cast<F>(symbol_of(lib, name));
    return f != nullptr;
}

/// A library's table of functions, filled once per process by `fill` (which returns "" or why it
/// could not be); the table, or null with `why`.
template <class Table, class Fill> const Table* load_once(Fill fill, std::string& why)
{
    static Table table{};
    static const std::string failed = fill(table); // thread-safe, once
    why = failed;
    return failed.empty() ? &table : nullptr;
}

/// Where Linux's files are: WAVEBENCH_TELEMETRY_ROOT (tests give a folder of fake files) before
/// "/sys/..." and "/proc/...".
std::string system_path(const std::string& path);

} // namespace wb
