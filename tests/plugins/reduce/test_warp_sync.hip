// Test plugin: a block reduction whose last wavefront finishes without barriers, relying on the
// lanes of a wavefront running in lock-step (the legacy warp-synchronous tail). That is a race
// between lanes: it must fail verification on the cpu platform, and say so under --lane-order.
#include "wavebench/plugin.h"

#include "wavebench/families/reduce.h"

__global__ void legacy_sum(const int* in, int* sum, int64_t n)
{
    __shared__ unsigned s[256];
    const unsigned t = threadIdx.x;
    const int64_t i = int64_t(blockIdx.x) * 256 + t;
    s[t] = i < n ? unsigned(in[i]) : 0u;
    __syncthreads();
    for (unsigned half = 128; half > unsigned(warpSize); half /= 2) {
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t < unsigned(warpSize)) {
        volatile unsigned* v = s;
        for (int offset = warpSize; offset > 0; offset /= 2) v[t] = v[t] + v[t + offset]; // no barrier: a race
        if (t == 0) atomicAdd(sum, int(v[0]));
    }
}

static const wb::kernel legacy_k{"legacy_sum", legacy_sum, 256};

static void run(wb_args* a)
{
    const int64_t n = wb::reduce::n(a);
    int* sum = wb::out<int>(a, 0);
    HIP_CHECK(hipMemsetAsync(sum, 0, sizeof(int), wb::stream(a)));
    legacy_k.launch_over(a, n, wb::in<int>(a, 0), sum, n);
}

WB_PLUGIN({.family = "reduce",
           .variant = "test_warp_sync",
           .summary = "a warp-synchronous tail without barriers (a race between lanes)",
           .seed = "none",
           .kernels = {legacy_k},
           .run = run})
