// reduce/atomic: every element atomically added to one global (seed 001, first kernel). The
// baseline of the family: all work-items contend for one address.
#include "common.h"

__global__ void reduce_atomic(const int* in, int* sum, size_t n)
{
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(sum, in[i]);
}

static const wb::kernel atomic_k{"reduce_atomic", reduce_atomic, reduce::block_size};

static void run(wb_args* a)
{
    const int64_t n = reduce::n(a);
    int* sum = wb::out<int>(a, 0);
    HIP_CHECK(hipMemsetAsync(sum, 0, sizeof(int), wb::stream(a)));
    atomic_k.launch_over(a, n, wb::in<int>(a, 0), sum, size_t(n));
}

WB_PLUGIN({.family = "reduce",
           .variant = "atomic",
           .summary = "one atomicAdd per element into a single global",
           .seed = "001: global variable updated with atomic operations",
           .kernels = {atomic_k},
           .tunables = {reduce::block_size},
           .run = run})
