// Every element atomically added to one global (seed 001, first kernel). The
// baseline of the family: all work-items contend for one address.
#include "common.h"

__global__ void reduce_atomic(const int* in, int* sum, size_t n)
{
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(sum, in[i]);
}

static const auto kernel = WB_KERNEL(reduce_atomic, wb::block_size);

static void run(wb_args* a)
{
    const int64_t n = wb::reduce::n(a);
    int* sum = wb::out<int>(a, 0);
    HIP_CHECK(hipMemsetAsync(sum, 0, sizeof(int), wb::stream(a)));
    kernel.launch_over(a, n, wb::in<int>(a, 0), sum, size_t(n));
}

WB_PLUGIN({.summary = "one atomicAdd per element into a single global",
           .seed = "001: global variable updated with atomic operations",
           .kernels = {kernel},
           .tunables = {wb::block_size},
           .run = run})
