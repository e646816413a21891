// The few NVML functions, types and constants the harness uses, declared here (telemetry/README.md
// says why: NVML is loaded at run time from the driver's libnvidia-ml.so.1, never linked, and the
// build machine has no CUDA headers). The values are NVML's documented ABI.
#pragma once

#include <cstdint>
#include <string>

namespace wb::nvml {

using device = struct nvml_device_st*;
using ret = int;
constexpr ret success = 0, not_supported = 3, no_permission = 4;
constexpr unsigned clock_sm = 1, clock_mem = 2;                    // nvmlClockType_t
constexpr unsigned clock_id_current = 0, clock_id_app_default = 2; // nvmlClockId_t
constexpr unsigned temperature_gpu = 0;                            // nvmlTemperatureSensors_t
struct temperature_v1 {                                            // nvmlTemperature_v1_t
    unsigned version;
    unsigned sensor_type;
    int temperature;
};
constexpr unsigned temperature_version = unsigned(sizeof(temperature_v1)) | (1u << 24);

// nvmlClocksEventReason* bits: the first two are not throttling (an idle GPU, clocks an
// administrator set), the others hold the clocks down.
constexpr uint64_t reason_gpu_idle = 0x1, reason_app_clocks = 0x2, reason_sw_power_cap = 0x4, reason_hw_slowdown = 0x8,
                   reason_sync_boost = 0x10, reason_sw_thermal = 0x20, reason_hw_thermal = 0x40,
                   reason_hw_power_brake = 0x80, reason_display_clocks = 0x100;

struct api {
    ret (*init)();
    ret (*shutdown)();
    const char* (*error_string)(ret);
    ret (*handle_by_pci_bus_id)(const char*, device*);
    ret (*clock_info)(device, unsigned, unsigned*);
    ret (*clock)(device, unsigned, unsigned, unsigned*);
    ret (*temperature_v)(device, temperature_v1*);
    ret (*power_usage)(device, unsigned*);
    ret (*clocks_event_reasons)(device, unsigned long long*);
    ret (*total_energy)(device, unsigned long long*);
    ret (*set_locked_clocks)(device, unsigned, unsigned);
    ret (*reset_locked_clocks)(device);
};

/// NVML loaded (WAVEBENCH_NVML_LIBRARY, else libnvidia-ml.so.1) and initialized once per process;
/// null with `why` where it cannot be.
const api* load(std::string& why);
/// The NVML device at PCI bus id `pci` ("0000:1b:00.0"); null with `why`.
device device_at(const api& a, const char* pci, std::string& why);
/// "NVML: <what>: <NVML's message>".
std::string error(const api& a, const char* what, ret r);

} // namespace wb::nvml
