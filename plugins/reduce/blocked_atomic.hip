// Blocked access, a tree in LDS, one atomic per work-group: what SYCL's
// built-in reduction does, written out in HIP (seed 001, blocked access + built-in reduction).
#include "common.h"

__global__ void reduce_blocked_atomic(const int* in, int* sum, size_t n, unsigned items)
{
    HIP_DYNAMIC_SHARED(int, scratch);
    scratch[threadIdx.x] = common::blocked_sum(in, n, items);
    common::lds_tree(scratch, threadIdx.x);
    if (threadIdx.x == 0) atomicAdd(sum, scratch[0]);
}

static const auto kernel = WB_KERNEL(reduce_blocked_atomic, wb::block_size, sizeof(int));

static void run(wb_args* a)
{
    const int64_t n = wb::reduce::n(a), items = common::items(a);
    int* sum = wb::out<int>(a, 0);
    HIP_CHECK(hipMemsetAsync(sum, 0, sizeof(int), wb::stream(a)));
    if (n == 0) return;
    kernel.launch(a, dim3(unsigned(wb::ceil_div(n, wb::block_size(a) * items))), wb::in<int>(a, 0), sum, size_t(n),
                  unsigned(items));
}

WB_PLUGIN({.summary = "blocked loads, LDS tree, one atomicAdd per work-group",
           .seed = "001: blocked access, then the compiler's built-in reduction operator",
           .kernels = {kernel},
           .tunables = {wb::block_size, common::items},
           .run = run})
