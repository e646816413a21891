// reduce/blocked_atomic: blocked access, a tree in LDS, one atomic per work-group: what SYCL's
// built-in reduction does, written out in HIP (seed 001, blocked access + built-in reduction).
#include "reduce_common.h"

__global__ void reduce_blocked_atomic(const int* in, int* sum, size_t n, unsigned items)
{
    HIP_DYNAMIC_SHARED(int, scratch);
    scratch[threadIdx.x] = reduce::blocked_sum(in, n, items);
    reduce::lds_tree(scratch, threadIdx.x);
    if (threadIdx.x == 0) atomicAdd(sum, scratch[0]);
}

static void run(wb_args* a)
{
    const int64_t n = wb::param(a, "n"), block = wb::param(a, "block_size"), items = wb::param(a, "items");
    int* sum = wb::out<int>(a, 0);
    HIP_CHECK(hipMemsetAsync(sum, 0, sizeof(int), wb::stream(a)));
    if (n == 0) return;
    hipLaunchKernelGGL(reduce_blocked_atomic, dim3(unsigned(wb::ceil_div(n, block * items))), dim3(unsigned(block)),
                       size_t(block) * sizeof(int), wb::stream(a), wb::in<int>(a, 0), sum, size_t(n),
                       unsigned(items));
    HIP_CHECK(hipGetLastError());
}

static const wb_kernel kernels[] = {wb::kernel("reduce_blocked_atomic", reduce_blocked_atomic, "block_size", sizeof(int))};
static const wb_tunable tunables[] = {reduce::block_size,
                                      wb::tunable_range("items", 16, 1, 4096, "elements per work-item")};

WB_PLUGIN({.family = "reduce",
           .variant = "blocked_atomic",
           .summary = "blocked loads, LDS tree, one atomicAdd per work-group",
           .seed = "001: blocked access, then the compiler's built-in reduction operator",
           .kernels = kernels,
           .tunables = tunables,
           .run = run})
