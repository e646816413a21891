// reduce/blocked_atomic: blocked access, a tree in LDS, one atomic per work-group: what SYCL's
// built-in reduction does, written out in HIP (seed 001, blocked access + built-in reduction).
#include "common.h"

__global__ void reduce_blocked_atomic(const int* in, int* sum, size_t n, unsigned items)
{
    HIP_DYNAMIC_SHARED(int, scratch);
    scratch[threadIdx.x] = reduce::blocked_sum(in, n, items);
    reduce::lds_tree(scratch, threadIdx.x);
    if (threadIdx.x == 0) atomicAdd(sum, scratch[0]);
}

static const wb::kernel blocked_atomic_k{"reduce_blocked_atomic", reduce_blocked_atomic, reduce::block_size, sizeof(int)};

static void run(wb_args* a)
{
    const int64_t n = reduce::n(a), items = reduce::items(a);
    int* sum = wb::out<int>(a, 0);
    HIP_CHECK(hipMemsetAsync(sum, 0, sizeof(int), wb::stream(a)));
    if (n == 0) return;
    blocked_atomic_k.launch(a, dim3(unsigned(wb::ceil_div(n, reduce::block_size(a) * items))), wb::in<int>(a, 0), sum,
                            size_t(n), unsigned(items));
}

WB_PLUGIN({.family = "reduce",
           .variant = "blocked_atomic",
           .summary = "blocked loads, LDS tree, one atomicAdd per work-group",
           .seed = "001: blocked access, then the compiler's built-in reduction operator",
           .kernels = {blocked_atomic_k},
           .tunables = {reduce::block_size, reduce::items},
           .run = run})
