// NVIDIA's sensors and clock lock through NVML, loaded at run time (telemetry/nvml_api.h).
#include "harness/common/files.h"
#include "harness/telemetry/clock_lock.h"
#include "harness/telemetry/nvml_api.h"
#include "harness/telemetry/sensors.h"

namespace wb {

namespace nvml {

const api* load(std::string& why)
{
    return load_once<api>(
        [](api& a) -> std::string {
            std::string failed;
            void* lib = open_runtime_library("WAVEBENCH_NVML_LIBRARY", "libnvidia-ml.so.1", failed);
            if (!lib) return failed;
            const char* missing = nullptr;
            auto need = [&](const char* name, auto& f) {
                if (!bind(lib, name, f) && !missing) missing = name;
            };
            need("nvmlInit_v2", a.init);
            need("nvmlShutdown", a.shutdown);
            need("nvmlErrorString", a.error_string);
            need("nvmlDeviceGetHandleByPciBusId_v2", a.handle_by_pci_bus_id);
            need("nvmlDeviceGetClockInfo", a.clock_info);
            need("nvmlDeviceGetPowerUsage", a.power_usage);
            need("nvmlDeviceGetCurrentClocksEventReasons", a.clocks_event_reasons);
            // Optional: an older driver lacks some; what is missing reads as unavailable.
            bind(lib, "nvmlDeviceGetClock", a.clock);
            bind(lib, "nvmlDeviceGetTemperatureV", a.temperature_v);
            bind(lib, "nvmlDeviceGetTotalEnergyConsumption", a.total_energy);
            bind(lib, "nvmlDeviceSetGpuLockedClocks", a.set_locked_clocks);
            bind(lib, "nvmlDeviceResetGpuLockedClocks", a.reset_locked_clocks);
            if (missing)
                return std::string("the NVML library has no ") + missing + " (a driver older than CUDA 12.2's?)";
            const ret r = a.init();
            return r == success ? "" : error(a, "nvmlInit_v2", r);
        },
        why);
}

device device_at(const api& a, const char* pci, std::string& why)
{
    device d = nullptr;
    if (!pci || !*pci) {
        why = "the platform gives no PCI bus id for the device, to find it in NVML by";
        return nullptr;
    }
    if (const ret r = a.handle_by_pci_bus_id(pci, &d); r != success) {
        why = error(a, ("finding the device at PCI bus id " + shown(pci, 31)).c_str(), r);
        return nullptr;
    }
    return d;
}

std::string error(const api& a, const char* what, ret r)
{
    const char* text = a.error_string ? a.error_string(r) : nullptr;
    return std::string("NVML: ") + what + ": " + (text ? shown(text, 200) : "error " + std::to_string(r));
}

} // namespace nvml

namespace {

class nvml_sensors : public device_sensors {
public:
    nvml_sensors(const nvml::api& a, nvml::device d) : a_(a), d_(d) {}
    std::string source() const override { return "nvml"; }
    reading read() override
    {
        reading r;
        unsigned v = 0;
        if (a_.clock_info(d_, nvml::clock_sm, &v) == nvml::success) r.sm_mhz = v;
        if (a_.clock_info(d_, nvml::clock_mem, &v) == nvml::success) r.mem_mhz = v;
        if (a_.power_usage(d_, &v) == nvml::success) r.power_w = v * 1e-3; // mW
        nvml::temperature_v1 t{nvml::temperature_version, nvml::temperature_gpu, 0};
        if (a_.temperature_v && a_.temperature_v(d_, &t) == nvml::success) r.temp_c = t.temperature;
        unsigned long long reasons = 0;
        if (a_.clocks_event_reasons(d_, &reasons) == nvml::success) {
            r.reasons = reasons;
            r.throttled = (reasons & ~(nvml::reason_gpu_idle | nvml::reason_app_clocks)) != 0;
        }
        return r;
    }
    std::optional<energy_reading> energy() override
    {
        unsigned long long mj = 0;
        if (!a_.total_energy || a_.total_energy(d_, &mj) != nvml::success) return std::nullopt;
        return energy_reading{double(mj) * 1e-3, 1e-3};
    }
    std::string energy_source() const override
    {
        return "NVML total energy consumption (nvmlDeviceGetTotalEnergyConsumption, mJ)";
    }
    std::string energy_unavailable() const override
    {
        unsigned long long mj = 0;
        if (!a_.total_energy) return "this driver's NVML has no nvmlDeviceGetTotalEnergyConsumption";
        const nvml::ret r = a_.total_energy(d_, &mj);
        return r == nvml::success ? "" : nvml::error(a_, "nvmlDeviceGetTotalEnergyConsumption", r);
    }
    std::string reasons_text(uint64_t reasons) const override
    {
        static const std::pair<uint64_t, const char*> names[] = {{nvml::reason_gpu_idle, "gpu_idle"},
                                                                 {nvml::reason_app_clocks, "applications_clocks"},
                                                                 {nvml::reason_sw_power_cap, "sw_power_cap"},
                                                                 {nvml::reason_hw_slowdown, "hw_slowdown"},
                                                                 {nvml::reason_sync_boost, "sync_boost"},
                                                                 {nvml::reason_sw_thermal, "sw_thermal_slowdown"},
                                                                 {nvml::reason_hw_thermal, "hw_thermal_slowdown"},
                                                                 {nvml::reason_hw_power_brake, "hw_power_brake"},
                                                                 {nvml::reason_display_clocks, "display_clocks"}};
        std::string out;
        for (const auto& [bit, name] : names)
            if (reasons & bit) out += (out.empty() ? "" : ", ") + std::string(name);
        return out;
    }

private:
    const nvml::api& a_;
    nvml::device d_;
};

class nvml_locker : public clock_locker {
public:
    nvml_locker(const nvml::api& a, nvml::device d) : a_(a), d_(d) {}
    std::string lock(unsigned sm_mhz) override
    {
        if (!a_.set_locked_clocks || !a_.reset_locked_clocks || !a_.clock)
            throw std::runtime_error("this driver's NVML cannot lock clocks (no nvmlDeviceSetGpuLockedClocks)");
        unsigned mhz = sm_mhz;
        if (const nvml::ret r = a_.clock(d_, nvml::clock_sm, nvml::clock_id_app_default, &mhz);
            sm_mhz == 0 && r != nvml::success)
            throw std::runtime_error(nvml::error(a_, "reading the default application SM clock", r));
        if (sm_mhz) mhz = sm_mhz;
        if (const nvml::ret r = a_.set_locked_clocks(d_, mhz, mhz); r != nvml::success)
            throw std::runtime_error(nvml::error(a_, "nvmlDeviceSetGpuLockedClocks", r) +
                                     (r == nvml::no_permission
                                          ? " (locking clocks needs root: run as root, or without --lock-clocks)"
                                          : ""));
        locked_ = true;
        return "SM clock locked at " + std::to_string(mhz) + " MHz (" +
               (sm_mhz ? "as asked" : "the default application clock") + "); memory clock not locked";
    }
    std::string restore() override
    {
        if (!locked_) return "";
        locked_ = false;
        const nvml::ret r = a_.reset_locked_clocks(d_);
        return r == nvml::success ? "" : nvml::error(a_, "nvmlDeviceResetGpuLockedClocks", r);
    }

private:
    const nvml::api& a_;
    nvml::device d_;
    bool locked_ = false;
};

} // namespace

std::unique_ptr<device_sensors> open_nvml_sensors(const wb_device_info& info, std::string& why)
{
    const nvml::api* a = nvml::load(why);
    nvml::device d = a ? nvml::device_at(*a, info.pci_bus_id, why) : nullptr;
    if (!d) return nullptr;
    return std::make_unique<nvml_sensors>(*a, d);
}

std::unique_ptr<clock_locker> nvml_locker_for(const std::string& pci, std::string& why)
{
    const nvml::api* a = nvml::load(why);
    nvml::device d = a ? nvml::device_at(*a, pci.c_str(), why) : nullptr;
    if (!d) return nullptr;
    return std::make_unique<nvml_locker>(*a, d);
}

} // namespace wb
