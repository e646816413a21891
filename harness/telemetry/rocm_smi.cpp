// AMD's sensors and clock lock through ROCm SMI (librocm_smi64), loaded at run time. The few
// functions and types are declared here (telemetry/README.md): rocm_smi.h of ROCm SMI 5.2 (Debian's
// librocm-smi-dev) is their source; rsmi_frequencies_t is that release's layout.
#include "harness/common/files.h"
#include "harness/telemetry/clock_lock.h"
#include "harness/telemetry/sensors.h"

#include <cstdio>

namespace wb {

namespace {

namespace rsmi {
using ret = int;
constexpr ret success = 0, permission = 4;        // RSMI_STATUS_SUCCESS, RSMI_STATUS_PERMISSION
constexpr int clk_sys = 0, clk_mem = 4;           // RSMI_CLK_TYPE_SYS, RSMI_CLK_TYPE_MEM
constexpr int temp_edge = 0, temp_current = 0;    // RSMI_TEMP_TYPE_EDGE, RSMI_TEMP_CURRENT
constexpr int perf_auto = 0, perf_stable_std = 4; // RSMI_DEV_PERF_LEVEL_AUTO, _STABLE_STD
struct frequencies {
    uint32_t num_supported, current;
    uint64_t frequency[32]; // Hz
};
struct api {
    ret (*init)(uint64_t);
    ret (*num_devices)(uint32_t*);
    ret (*pci_id)(uint32_t, uint64_t*);
    ret (*clk_freq)(uint32_t, int, frequencies*);
    ret (*temp_metric)(uint32_t, uint32_t, int, int64_t*);
    ret (*power_ave)(uint32_t, uint32_t, uint64_t*);
    ret (*energy_count)(uint32_t, uint64_t*, float*, uint64_t*);
    ret (*perf_level_set)(int32_t, int);
};

const api* load(std::string& why)
{
    return load_once<api>(
        [](api& a) -> std::string {
            std::string failed;
            void* lib = open_runtime_library("WAVEBENCH_ROCM_SMI_LIBRARY", "librocm_smi64.so.1", failed);
            if (!lib) return failed;
            auto bind = [&](const char* name, auto& f) {
                f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(symbol_of(lib, name));
                if (!f && failed.empty()) failed = std::string("the ROCm SMI library has no ") + name;
            };
            bind("rsmi_init", a.init);
            bind("rsmi_num_monitor_devices", a.num_devices);
            bind("rsmi_dev_pci_id_get", a.pci_id);
            bind("rsmi_dev_gpu_clk_freq_get", a.clk_freq);
            bind("rsmi_dev_temp_metric_get", a.temp_metric);
            bind("rsmi_dev_power_ave_get", a.power_ave);
            bind("rsmi_dev_energy_count_get", a.energy_count);
            bind("rsmi_dev_perf_level_set", a.perf_level_set);
            if (!failed.empty()) return failed;
            const ret r = a.init(0);
            return r == success ? "" : "ROCm SMI: rsmi_init failed (status " + std::to_string(r) + ")";
        },
        why);
}

/// ROCm SMI's index of the device at `pci` ("0000:03:00.0"), or -1 with `why`.
int index_of(const api& a, const std::string& pci, std::string& why)
{
    unsigned domain = 0, bus = 0, dev = 0, fn = 0;
    if (std::sscanf(pci.c_str(), "%x:%x:%x.%x", &domain, &bus, &dev, &fn) != 4) {
        why = "the platform gives no PCI bus id for the device ('" + shown(pci, 31) + "'), to find it in ROCm SMI by";
        return -1;
    }
    const uint64_t want = (uint64_t(domain) << 32) | (bus << 8) | (dev << 3) | fn;
    uint32_t n = 0;
    if (a.num_devices(&n) == success)
        for (uint32_t k = 0; k < n; ++k) {
            uint64_t id = 0;
            if (a.pci_id(k, &id) == success && (id & 0xffffffff0000ffffull) == want) return int(k);
        }
    why = "ROCm SMI has no device at PCI bus id " + shown(pci, 31);
    return -1;
}
} // namespace rsmi

class rocm_smi_sensors : public device_sensors {
public:
    rocm_smi_sensors(const rsmi::api& a, uint32_t dv) : a_(a), dv_(dv) {}
    std::string source() const override { return "rocm-smi"; }
    reading read() override
    {
        reading r;
        rsmi::frequencies f{};
        if (a_.clk_freq(dv_, rsmi::clk_sys, &f) == rsmi::success && f.current < 32)
            r.sm_mhz = f.frequency[f.current] * 1e-6;
        if (a_.clk_freq(dv_, rsmi::clk_mem, &f) == rsmi::success && f.current < 32)
            r.mem_mhz = f.frequency[f.current] * 1e-6;
        int64_t mc = 0;
        if (a_.temp_metric(dv_, rsmi::temp_edge, rsmi::temp_current, &mc) == rsmi::success)
            r.temp_c = double(mc) * 1e-3;
        uint64_t uw = 0;
        if (a_.power_ave(dv_, 0, &uw) == rsmi::success) r.power_w = double(uw) * 1e-6;
        return r; // ROCm SMI 5.2 gives no throttle status outside gpu_metrics, whose layout varies
    }
    std::optional<energy_reading> energy() override
    {
        uint64_t count = 0, stamp = 0;
        float resolution = 0;
        if (a_.energy_count(dv_, &count, &resolution, &stamp) != rsmi::success) return std::nullopt;
        return energy_reading{double(count) * resolution * 1e-6, resolution * 1e-6}; // uJ per count
    }
    std::string energy_source() const override { return "ROCm SMI energy counter (rsmi_dev_energy_count_get)"; }
    std::string energy_unavailable() const override { return "ROCm SMI gives no energy counter for this device"; }

private:
    const rsmi::api& a_;
    uint32_t dv_;
};

class rocm_smi_locker : public clock_locker {
public:
    rocm_smi_locker(const rsmi::api& a, uint32_t dv) : a_(a), dv_(dv) {}
    std::string lock(unsigned sm_mhz) override
    {
        if (sm_mhz)
            throw std::runtime_error("--sm-clock is for NVIDIA GPUs; on amd --lock-clocks sets the stable_std "
                                     "performance level: run without --sm-clock");
        if (const rsmi::ret r = a_.perf_level_set(int32_t(dv_), rsmi::perf_stable_std); r != rsmi::success)
            throw std::runtime_error("ROCm SMI: setting the performance level to stable_std failed (status " +
                                     std::to_string(r) + ")" +
                                     (r == rsmi::permission ? ": it needs root (write access to the device's "
                                                              "power_dpm_force_performance_level)"
                                                            : ""));
        locked_ = true;
        return "performance level stable_std (the profiling clocks, SM and memory)";
    }
    std::string restore() override
    {
        if (!locked_) return "";
        locked_ = false;
        const rsmi::ret r = a_.perf_level_set(int32_t(dv_), rsmi::perf_auto);
        return r == rsmi::success
                   ? ""
                   : "ROCm SMI: setting the performance level back to auto failed (status " + std::to_string(r) + ")";
    }

private:
    const rsmi::api& a_;
    uint32_t dv_;
    bool locked_ = false;
};

} // namespace

std::unique_ptr<device_sensors> open_rocm_smi_sensors(const wb_device_info& info, std::string& why)
{
    const rsmi::api* a = rsmi::load(why);
    const int dv = a ? rsmi::index_of(*a, info.pci_bus_id, why) : -1;
    if (dv < 0) return nullptr;
    return std::make_unique<rocm_smi_sensors>(*a, uint32_t(dv));
}

std::unique_ptr<clock_locker> rocm_smi_locker_for(const std::string& pci, std::string& why)
{
    const rsmi::api* a = rsmi::load(why);
    const int dv = a ? rsmi::index_of(*a, pci, why) : -1;
    if (dv < 0) return nullptr;
    return std::make_unique<rocm_smi_locker>(*a, uint32_t(dv));
}

} // namespace wb
