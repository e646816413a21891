// reduce/atomic: every element atomically added to one global (seed 001, first kernel). The
// baseline of the family: all work-items contend for one address.
#include "reduce_common.h"

__global__ void reduce_atomic(const int* in, int* sum, size_t n)
{
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(sum, in[i]);
}

static void run(wb_args* a)
{
    const int64_t n = wb::param(a, "n"), block = wb::param(a, "block_size");
    int* sum = wb::out<int>(a, 0);
    HIP_CHECK(hipMemsetAsync(sum, 0, sizeof(int), wb::stream(a)));
    if (n == 0) return;
    hipLaunchKernelGGL(reduce_atomic, dim3(unsigned(wb::ceil_div(n, block))), dim3(unsigned(block)), 0,
                       wb::stream(a), wb::in<int>(a, 0), sum, size_t(n));
    HIP_CHECK(hipGetLastError());
}

static const wb_kernel kernels[] = {wb::kernel("reduce_atomic", reduce_atomic, "block_size")};
static const wb_tunable tunables[] = {reduce::block_size};

WB_PLUGIN({.family = "reduce",
           .variant = "atomic",
           .summary = "one atomicAdd per element into a single global",
           .seed = "001: global variable updated with atomic operations",
           .kernels = kernels,
           .tunables = tunables,
           .run = run})
