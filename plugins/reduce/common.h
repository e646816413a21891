// Pieces the reduce plugins share, so each plugin file shows only what makes its variant.
#pragma once

#include "wavebench/families/reduce.h"
#include "wavebench/plugin.h"

#include <cstdint>
#include <vector>

namespace common {

/// Sums blockDim.x values in LDS with the seed's tree (halving the active lanes each step;
/// blockDim.x a power of two). scratch[0] holds the sum once every lane has returned.
__device__ inline void lds_tree(int* scratch, unsigned lid)
{
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        __syncthreads();
        if (lid < s) scratch[lid] += scratch[lid + s];
    }
    __syncthreads();
}

/// Sums one int per work-item over the work-group with shuffles, valid in work-item 0. Within
/// each wavefront the shuffles stay among the lanes that exist (a work-group may be smaller than
/// a wavefront); the wavefronts' sums meet in LDS and the first wavefront adds them.
__device__ inline int block_sum(int v)
{
    __shared__ int wave_sums[32]; // 1024 work-items / 32-wide wavefronts at most
    const int width = int(blockDim.x) < warpSize ? int(blockDim.x) : warpSize; // powers of two
    for (int offset = width / 2; offset > 0; offset >>= 1) v += __shfl_down(v, offset, width);
    const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
    const unsigned waves = (blockDim.x + warpSize - 1) / warpSize;
    __syncthreads(); // a previous call may still be reading wave_sums
    if (lane == 0) wave_sums[wave] = v;
    __syncthreads();
    if (wave == 0) {
        v = lane < waves ? wave_sums[lane] : 0;
        for (int offset = width / 2; offset > 0; offset >>= 1) v += __shfl_down(v, offset, width);
    }
    return v;
}

/// The seed's blocked access: block b owns items x blockDim.x consecutive elements and lane l
/// reads l, l + blockDim.x, ... of them, so each step of the loop is one coalesced row.
__device__ inline int blocked_sum(const int* in, size_t n, unsigned items)
{
    const size_t base = size_t(blockIdx.x) * blockDim.x * items + threadIdx.x;
    int s = 0;
    for (unsigned i = 0; i < items; ++i) {
        const size_t k = base + size_t(i) * blockDim.x;
        if (k < n) s += in[k];
    }
    return s;
}

/// One partial sum per work-item or work-group, finished on the host (the seed's single-stage
/// kernels). prepare_partials / finish_partials / release_partials are the plugin's functions.
struct partials {
    int* device = nullptr;
    std::vector<int> host;
};

inline void prepare_partials(wb_args* a, int64_t count)
{
    auto* p = new partials;
    a->state = p;
    p->host.resize(size_t(count));
    if (count > 0) HIP_CHECK(hipMalloc(&p->device, size_t(count) * sizeof(int)));
}

inline void finish_partials(wb_args* a)
{
    auto* p = wb::state<partials>(a);
    if (!p->host.empty())
        HIP_CHECK(hipMemcpy(p->host.data(), p->device, p->host.size() * sizeof(int), hipMemcpyDeviceToHost));
    uint32_t s = 0; // wrap-around, like the device
    for (int v : p->host) s += uint32_t(v);
    *wb::host_out<int>(a, 0) = int(s);
}

inline void release_partials(wb_args* a)
{
    auto* p = wb::state<partials>(a);
    if (!p) return;
    if (p->device) HIP_CHECK(hipFree(p->device));
    delete p;
    a->state = nullptr;
}

/// Work-items that fill the device: every multiprocessor at its thread limit.
inline int64_t device_threads()
{
    return int64_t(wb::device().multiProcessorCount) * wb::device().maxThreadsPerMultiProcessor;
}

using wb::reduce::n;

/// The blocked variants' elements per work-item.
inline constexpr auto items = wb::tunable::range("items", 16, 1, 4096, "elements per work-item");

} // namespace common
