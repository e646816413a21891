// What the CPU runtime's parts share: the launch limits, the last-error slot, the settings read
// from the environment (sizes, the lane order) and the CPUs this thread may run on.
#pragma once

#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {

constexpr unsigned max_block_threads = 1024;
constexpr size_t max_shared_bytes = 64 * 1024;

/// Records `e` as the thread's last error (hipGetLastError) unless it is hipSuccess; returns it.
hipError_t fail(hipError_t e);

/// The environment variable `name` as a count above 0; `fallback` when it is unset or not one.
size_t env_size(const char* name, size_t fallback);

// ---- lane order (settings.cpp) ----------------------------------------------------------------------
struct lane_order_setting {
    hipCpuLaneOrder order = hipCpuLaneOrderForward;
    unsigned long long seed = 0;
};

/// The lane order of the launches to come: WAVEBENCH_CPU_LANE_ORDER's at first, then
/// hipCpuSetLaneOrder's. Read and written under launch_mutex().
lane_order_setting& lane_order();

/// splitmix64: the random lane order's generator (a fixed sequence for a seed, on any host).
inline uint64_t mix(uint64_t& state)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// ---- CPU sets (devices.cpp) ---------------------------------------------------------------------------
/// The CPUs this thread may run on (taskset, a Slurm allocation, hipSetDevice), in order.
std::vector<int> allowed_cpus();

/// Workers by default: one per CPU this thread may run on.
unsigned max_workers();

// ---- launches (pool.cpp) ------------------------------------------------------------------------------
/// Held by a launch from start to end, and by whatever changes the pool or the settings it reads.
std::mutex& launch_mutex();

/// What a launch of `grid` x `block` with `shared_bytes` of dynamic shared memory is refused for,
/// as the GPU runtimes refuse it (hipSuccess: nothing); launch.cpp and a captured launch (graphs.cpp).
inline hipError_t launch_config_error(dim3 grid, dim3 block, size_t shared_bytes)
{
    const uint64_t threads = uint64_t(block.x) * block.y * block.z;
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || threads == 0 || threads > max_block_threads ||
        block.x > max_block_threads || block.y > max_block_threads || block.z > 64 || grid.x > 0x7fffffffu ||
        grid.y > 65535 || grid.z > 65535)
        return hipErrorInvalidConfiguration;
    return shared_bytes > max_shared_bytes ? hipErrorInvalidValue : hipSuccess;
}

} // namespace cpu_runtime
#pragma GCC visibility pop
