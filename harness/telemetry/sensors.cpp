// Opening a device's sensors, once per process and device; the cpu platform's (telemetry/sensors.h).
#include "harness/telemetry/sensors.h"

#include "harness/common/files.h"

#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <map>
#include <mutex>
#include <sched.h>

namespace wb {

void* open_runtime_library(const char* env, const char* file, std::string& why)
{
    const char* v = std::getenv(env);
    const std::string path = v && *v ? v : file;
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char* err = dlerror();
        why = "cannot load " + shown(path, 200) + ": " + (err ? shown(err, 300) : "unknown reason") +
              (v && *v ? std::string(" (") + env + ")" : "");
    }
    return lib;
}

void* symbol_of(void* lib, const char* name) { return dlsym(lib, name); }

std::string system_path(const std::string& path)
{
    const char* root = std::getenv("WAVEBENCH_TELEMETRY_ROOT");
    return (root && *root ? std::string(root) : std::string()) + path;
}

namespace {

/// The first number in the file, or none.
std::optional<double> number_in(const std::string& path)
{
    std::ifstream f(path);
    double v;
    if (f >> v) return v;
    return std::nullopt;
}

/// The cpu: the frequency Linux gives for the core this thread is on (cpufreq's scaling_cur_freq,
/// else /proc/cpuinfo's "cpu MHz"), and RAPL's package energy counter where it is readable.
class cpu_sensors : public device_sensors {
public:
    explicit cpu_sensors(bool cpufreq) : cpufreq_(cpufreq)
    {
        rapl_ = system_path("/sys/class/powercap/intel-rapl:0/energy_uj");
        if (!number_in(rapl_))
            energy_why_ = "RAPL's package energy counter (" + rapl_ +
                          ") is not readable here (no Intel or AMD RAPL driver, a virtual machine, or "
                          "root-only since Linux 5.10: ask an administrator to make it readable)";
    }
    std::string source() const override { return cpufreq_ ? "cpufreq" : "proc-cpuinfo"; }
    reading read() override
    {
        reading r;
        const int cpu = sched_getcpu();
        if (cpufreq_) {
            const std::string p = system_path("/sys/devices/system/cpu/cpu" + std::to_string(cpu < 0 ? 0 : cpu) +
                                              "/cpufreq/scaling_cur_freq");
            if (auto khz = number_in(p)) r.sm_mhz = *khz / 1000;
            return r;
        }
        std::ifstream f(system_path("/proc/cpuinfo"));
        std::string line;
        int at = -1;
        while (std::getline(f, line)) {
            if (line.rfind("processor", 0) == 0) ++at;
            if (line.rfind("cpu MHz", 0) == 0 && (at == cpu || r.sm_mhz < 0)) {
                const auto colon = line.find(':');
                if (colon != std::string::npos) r.sm_mhz = std::atof(line.c_str() + colon + 1);
                if (at == cpu) break;
            }
        }
        return r;
    }
    std::optional<energy_reading> energy() override
    {
        auto uj = energy_why_.empty() ? number_in(rapl_) : std::nullopt;
        if (!uj) return std::nullopt;
        return energy_reading{*uj * 1e-6, 1e-6};
    }
    std::string energy_source() const override { return "RAPL package energy (" + rapl_ + ", uJ)"; }
    std::string energy_unavailable() const override { return energy_why_; }

private:
    bool cpufreq_;
    std::string rapl_, energy_why_;
};

} // namespace

std::unique_ptr<device_sensors> open_cpu_sensors(std::string& why)
{
    if (number_in(system_path("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq")))
        return std::make_unique<cpu_sensors>(true);
    std::ifstream f(system_path("/proc/cpuinfo"));
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("cpu MHz", 0) == 0) return std::make_unique<cpu_sensors>(false);
    why = "Linux gives no frequency for this cpu (no cpufreq driver under /sys/devices/system/cpu/cpu0/cpufreq, "
          "and /proc/cpuinfo has no 'cpu MHz')";
    return nullptr;
}

device_sensors* sensors_for(platform_kind kind, const wb_device_info& info, std::string& why)
{
    struct opened {
        std::unique_ptr<device_sensors> sensors;
        std::string why;
    };
    static std::mutex m;
    static std::map<std::string, opened> cache;
    const std::lock_guard<std::mutex> lock(m);
    const std::string key = std::string(to_string(kind)) + "/" + info.pci_bus_id;
    auto it = cache.find(key);
    if (it == cache.end()) {
        opened o;
        if (kind == platform_kind::nvidia)
            o.sensors = open_nvml_sensors(info, o.why);
        else if (kind == platform_kind::amd)
            o.sensors = open_rocm_smi_sensors(info, o.why);
        else
            o.sensors = open_cpu_sensors(o.why);
        it = cache.emplace(key, std::move(o)).first;
    }
    why = it->second.why;
    return it->second.sensors.get();
}

} // namespace wb
