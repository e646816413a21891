// reduce/unrolled: the tuned variant. Each work-item keeps four 16-byte loads in flight; the
// grid is what the device holds at once (occupancy API); work-groups sum with shuffles, and the
// last work-group to finish adds up their partials: one kernel, no memset, no atomics on the sum.
#include "reduce_common.h"

constexpr int unroll = 4; // 16-byte loads in flight per work-item

__global__ void reduce_unrolled(const int* in, int* sum, size_t n, int* partials, unsigned* finished)
{
    const int4* in4 = reinterpret_cast<const int4*>(in);
    const size_t n4 = n / 4, tile = size_t(unroll) * blockDim.x, stride = size_t(gridDim.x) * tile;
    size_t base = size_t(blockIdx.x) * tile;
    int s = 0;
    for (; base + tile <= n4; base += stride) { // whole tiles: every load in flight before the adds
        int4 v[unroll];
#pragma unroll
        for (int u = 0; u < unroll; ++u) v[u] = in4[base + size_t(u) * blockDim.x + threadIdx.x];
#pragma unroll
        for (int u = 0; u < unroll; ++u) s += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    }
    for (int u = 0; u < unroll; ++u) { // the one partial tile falls to the work-group whose turn it is
        const size_t i = base + size_t(u) * blockDim.x + threadIdx.x;
        if (i < n4) s += (in4[i].x + in4[i].y) + (in4[i].z + in4[i].w);
    }
    if (blockIdx.x == 0 && threadIdx.x < n % 4) s += in[n - n % 4 + threadIdx.x];
    s = reduce::block_sum(s);

    __shared__ bool last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = s;
        __threadfence(); // the partial is visible before the count says so
        last = atomicAdd(finished, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    __threadfence(); // see every other work-group's partial
    const volatile int* done = partials;
    int t = 0;
    for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x) t += done[i];
    t = reduce::block_sum(t);
    if (threadIdx.x == 0) {
        *sum = t;
        *finished = 0; // ready for the next launch
    }
}

struct state {
    int* partials = nullptr;
    unsigned* finished = nullptr;
    int64_t groups = 0;
};

static void prepare(wb_args* a)
{
    if (reinterpret_cast<uintptr_t>(a->in[0]) % 16) throw wb::skip("input is not 16-byte aligned");
    const int64_t n = wb::param(a, "n"), block = wb::param(a, "block_size"), per_mp = wb::param(a, "groups_per_mp");
    auto* s = new state;
    a->state = s;
    const int64_t resident = per_mp > 0 ? per_mp * reduce::device_properties().multiProcessorCount
                                        : reduce::resident_groups(reduce_unrolled, int(block));
    // No more work-groups than there are tiles: small inputs take a small grid.
    s->groups = std::max<int64_t>(1, std::min(resident, wb::ceil_div(n / 4, unroll * block)));
    HIP_CHECK(hipMalloc(&s->partials, size_t(s->groups) * sizeof(int)));
    HIP_CHECK(hipMalloc(&s->finished, sizeof(unsigned)));
    HIP_CHECK(hipMemset(s->finished, 0, sizeof(unsigned)));
    wb::note(a, "work_groups=%lld", (long long)s->groups);
}

static void run(wb_args* a)
{
    auto* s = wb::state<state>(a);
    hipLaunchKernelGGL(reduce_unrolled, dim3(unsigned(s->groups)), dim3(unsigned(wb::param(a, "block_size"))), 0,
                       wb::stream(a), wb::in<int>(a, 0), wb::out<int>(a, 0), size_t(wb::param(a, "n")), s->partials,
                       s->finished);
    HIP_CHECK(hipGetLastError());
}

static void release(wb_args* a)
{
    auto* s = wb::state<state>(a);
    if (!s) return;
    if (s->partials) HIP_CHECK(hipFree(s->partials));
    if (s->finished) HIP_CHECK(hipFree(s->finished));
    delete s;
}

static const wb_kernel kernels[] = {wb::kernel("reduce_unrolled", reduce_unrolled, "block_size")};
static const wb_tunable tunables[] = {
    reduce::block_size,
    wb::tunable_range("groups_per_mp", 0, 0, 64, "work-groups per multiprocessor (0: as many as fit, by occupancy)")};

WB_PLUGIN({.family = "reduce",
           .variant = "unrolled",
           .summary = "4 int4 loads in flight per work-item, a grid the device holds at once, last work-group finishes",
           .seed = "001: sub-group vector loads, tuned: more elements in flight per work-item",
           .kernels = kernels,
           .tunables = tunables,
           .prepare = prepare,
           .run = run,
           .release = release})
