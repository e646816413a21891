// The CPU runtime's devices: the CPUs they are made of (WAVEBENCH_CPU_DEVICES shares them out),
// what the host tells of them (/proc/cpuinfo, sysfs) and the host API's device calls (peer access:
// peer.cpp).
#include "device_state.h"
#include "pool.h"
#include "runtime_common.h"
#include "scheduler.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sched.h>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {

/// The CPUs this thread may run on (taskset, a Slurm allocation, hipSetDevice), in order.
std::vector<int> allowed_cpus()
{
    std::vector<int> cpus;
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
        for (int c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
    return cpus;
}

/// Workers by default: one per CPU this thread may run on.
unsigned max_workers()
{
    const size_t n = allowed_cpus().size();
    return n ? unsigned(n) : std::max(1u, std::thread::hardware_concurrency());
}

namespace {

/// The CPU's devices: WAVEBENCH_CPU_DEVICES splits the CPUs the process may use into that many
/// devices of consecutive CPUs (at most one per CPU), for runs on several devices (--devices) on
/// one host; 1 by default.
/// The CPUs are those the process could use at start. A process started by a thread that
/// hipSetDevice narrowed (the harness's workers) inherits the narrowed affinity, so the list is
/// handed down in WAVEBENCH_CPU_DEVICE_CPUS, which the first process of a run sets.
std::vector<int> device_cpus(size_t devices)
{
    if (devices < 2) return allowed_cpus();
    std::vector<int> cpus;
    if (const char* v = std::getenv("WAVEBENCH_CPU_DEVICE_CPUS"); v && *v) {
        std::istringstream in(v);
        std::string item;
        while (std::getline(in, item, ',')) {
            char* end = nullptr;
            const long c = std::strtol(item.c_str(), &end, 10);
            if (item.empty() || *end || c < 0 || c >= CPU_SETSIZE) return allowed_cpus(); // not ours: ignore it
            cpus.push_back(int(c));
        }
        return cpus;
    }
    cpus = allowed_cpus();
    std::string list;
    for (int c : cpus) list += (list.empty() ? "" : ",") + std::to_string(c);
    setenv("WAVEBENCH_CPU_DEVICE_CPUS", list.c_str(), 0);
    return cpus;
}

struct cpu_devices {
    size_t asked = env_size("WAVEBENCH_CPU_DEVICES", 1);
    std::vector<int> cpus = device_cpus(asked);
    int count = int(std::clamp<size_t>(asked, 1, std::max<size_t>(cpus.size(), 1)));
    int current = -1; // none set yet: the process's own CPUs (hipSetDevice(0) narrows to device 0's)
    std::mutex flags_mutex;
    std::vector<unsigned> flags = std::vector<unsigned>(size_t(count), 0u); // hipSetDeviceFlags's, per device
};
cpu_devices& devices()
{
    static cpu_devices d;
    return d;
}

// ---- device description -------------------------------------------------------------------------------
std::string read_first_line(const std::string& path)
{
    std::ifstream f(path);
    std::string s;
    std::getline(f, s);
    return s;
}

std::string cpuinfo_field(const std::string& key)
{
    std::ifstream f("/proc/cpuinfo");
    for (std::string line; std::getline(f, line);)
        if (line.rfind(key, 0) == 0) {
            auto colon = line.find(':');
            if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
        }
    return {};
}

size_t last_level_cache_bytes()
{
    size_t best = 0;
    for (int i = 0; i < 8; ++i) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
        const std::string size = read_first_line(dir + "size");
        if (size.empty()) continue;
        size_t v = std::strtoull(size.c_str(), nullptr, 10);
        if (size.back() == 'K') v <<= 10;
        if (size.back() == 'M') v <<= 20;
        best = std::max(best, v);
    }
    return best;
}

} // namespace
} // namespace cpu_runtime
#pragma GCC visibility pop

using namespace cpu_runtime;

// The HIP API this runtime follows, by HIP's formula (major * 10000000 + minor * 100000 + patch).
constexpr int hip_api_version = 50200000;

extern "C" {

hipError_t hipGetDeviceCount(int* count)
{
    if (!count) return fail(hipErrorInvalidValue);
    *count = devices().count;
    return hipSuccess;
}

hipError_t hipGetDevice(int* device)
{
    if (!device) return fail(hipErrorInvalidValue);
    *device = std::max(devices().current, 0);
    return hipSuccess;
}

hipError_t hipSetDevice(int device)
{
    cpu_devices& d = devices();
    if (device < 0 || device >= d.count) return fail(hipErrorInvalidDevice);
    if (tl_worker()) return fail(hipErrorNotSupported);
    if (d.count == 1 || device == d.current) return hipSuccess;
    // Device k: the k-th share of the CPUs. The launching thread moves there, and the pool is made
    // again on those CPUs.
    const size_t n = d.cpus.size(), first = n * size_t(device) / size_t(d.count),
                 last = n * size_t(device + 1) / size_t(d.count);
    cpu_set_t share;
    CPU_ZERO(&share);
    for (size_t i = first; i < last; ++i) CPU_SET(d.cpus[i], &share);
    std::lock_guard lock(launch_mutex());
    if (sched_setaffinity(0, sizeof share, &share) != 0) return fail(hipErrorInvalidDevice);
    d.current = device;
    the_pool().resize(unsigned(env_size("WAVEBENCH_CPU_THREADS", last - first)));
    return hipSuccess;
}

hipError_t hipDeviceGetPCIBusId(char* id, int length, int device)
{
    if (!id || length <= 0) return fail(hipErrorInvalidValue);
    if (device < 0 || device >= devices().count) return fail(hipErrorInvalidDevice);
    id[0] = 0;
    return fail(hipErrorNotSupported);
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t* p, int device)
{
    if (!p) return fail(hipErrorInvalidValue);
    if (device < 0 || device >= devices().count) return fail(hipErrorInvalidDevice);
    *p = hipDeviceProp_t{};
    std::string name = cpuinfo_field("model name");
    if (name.empty()) name = "CPU";
    std::snprintf(p->name, sizeof p->name, "%s", name.c_str());
    std::snprintf(p->gcnArchName, sizeof p->gcnArchName, "cpu");
    p->totalGlobalMem = size_t(sysconf(_SC_PHYS_PAGES)) * size_t(sysconf(_SC_PAGESIZE));
    p->sharedMemPerBlock = max_shared_bytes;
    p->maxSharedMemoryPerMultiProcessor = max_shared_bytes;
    p->warpSize = hip_cpu_warp_size;
    p->maxThreadsPerBlock = max_block_threads;
    p->maxThreadsPerMultiProcessor = max_block_threads;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = max_block_threads;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 0x7fffffff;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    const std::string khz = read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
    p->clockRate = !khz.empty() ? std::atoi(khz.c_str()) : int(std::atof(cpuinfo_field("cpu MHz").c_str()) * 1000);
    const cpu_devices& d = devices();
    p->multiProcessorCount = device == std::max(d.current, 0)
                                 ? int(the_pool().size())
                                 : int(d.cpus.size() * size_t(device + 1) / size_t(d.count) -
                                       d.cpus.size() * size_t(device) / size_t(d.count));
    p->maxBlocksPerMultiProcessor = 1; // a worker runs one block at a time
    p->cooperativeLaunch = 1;
    p->l2CacheSize = int(last_level_cache_bytes());
    return hipSuccess;
}

hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attribute, int device)
{
    if (!value) return fail(hipErrorInvalidValue);
    hipDeviceProp_t p;
    if (const hipError_t e = hipGetDeviceProperties(&p, device); e != hipSuccess) return e;
    switch (attribute) {
    case hipDeviceAttributeMaxThreadsPerBlock:
        *value = p.maxThreadsPerBlock;
        break;
    case hipDeviceAttributeWarpSize:
        *value = p.warpSize;
        break;
    case hipDeviceAttributeMultiprocessorCount:
        *value = p.multiProcessorCount;
        break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock:
        *value = int(p.sharedMemPerBlock);
        break;
    case hipDeviceAttributeCooperativeLaunch:
        *value = p.cooperativeLaunch;
        break;
    case hipDeviceAttributeComputeCapabilityMajor:
        *value = p.major;
        break;
    case hipDeviceAttributeComputeCapabilityMinor:
        *value = p.minor;
        break;
    case hipDeviceAttributeClockRate:
        *value = p.clockRate;
        break;
    case hipDeviceAttributeL2CacheSize:
        *value = p.l2CacheSize;
        break;
    case hipDeviceAttributeMaxBlockDimX:
        *value = p.maxThreadsDim[0];
        break;
    case hipDeviceAttributeMaxGridDimX:
        *value = p.maxGridSize[0];
        break;
    case hipDeviceAttributeConcurrentManagedAccess: // managed memory is host memory: nothing to migrate
        *value = 1;
        break;
    default:
        return fail(hipErrorInvalidValue);
    }
    return hipSuccess;
}

hipError_t hipGetDeviceFlags(unsigned* flags)
{
    if (!flags) return fail(hipErrorInvalidValue);
    cpu_devices& d = devices();
    std::lock_guard lock(d.flags_mutex);
    *flags = d.flags[size_t(std::max(d.current, 0))] | hipDeviceMapHost;
    return hipSuccess;
}

hipError_t hipSetDeviceFlags(unsigned flags)
{
    const unsigned schedule = flags & hipDeviceScheduleMask;
    if ((flags & ~unsigned(hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax)) ||
        (schedule != hipDeviceScheduleAuto && schedule != hipDeviceScheduleSpin && schedule != hipDeviceScheduleYield &&
         schedule != hipDeviceScheduleBlockingSync))
        return fail(hipErrorInvalidValue);
    cpu_devices& d = devices();
    std::lock_guard lock(d.flags_mutex);
    d.flags[size_t(std::max(d.current, 0))] = flags;
    return hipSuccess;
}

hipError_t hipDriverGetVersion(int* version)
{
    if (!version) return fail(hipErrorInvalidValue);
    *version = hip_api_version;
    return hipSuccess;
}

hipError_t hipRuntimeGetVersion(int* version)
{
    if (!version) return fail(hipErrorInvalidValue);
    *version = hip_api_version;
    return hipSuccess;
}

hipError_t hipDeviceReset(void)
{
    if (tl_worker()) return fail(hipErrorNotSupported);
    cpu_devices& d = devices();
    const int device = std::max(d.current, 0);
    free_device_allocations(device);
    reset_peer_access(device);
    std::lock_guard lock(d.flags_mutex);
    d.flags[size_t(device)] = 0;
    return hipSuccess;
}

} // extern "C"
