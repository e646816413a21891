// The work-group tree of `tree`, then a second kernel (one work-group)
// reduces the partials on the device (seed 001, two-stage tree reduction).
#include "tree_groups.h"

// Stage 1 is common::reduce_tree_groups (tree_groups.h), the kernel of `tree`.

// Stage 2, one work-group: each work-item first sums a strided share of the partials.
__global__ void reduce_tree_stage2(const int* partials, int* sum, size_t count)
{
    HIP_DYNAMIC_SHARED(int, scratch);
    int s = 0;
    for (size_t i = threadIdx.x; i < count; i += blockDim.x) s += partials[i];
    scratch[threadIdx.x] = s;
    common::lds_tree(scratch, threadIdx.x);
    if (threadIdx.x == 0) *sum = scratch[0];
}

static const auto stage2 = WB_KERNEL(reduce_tree_stage2, wb::block_size, sizeof(int));

static void prepare(wb_args* a)
{
    // Stage 2 always runs, so there is at least one (zero) partial.
    const int64_t groups = wb::ceil_div(wb::reduce::n(a), wb::block_size(a));
    common::prepare_partials(a, groups > 0 ? groups : 1);
}

static void run(wb_args* a)
{
    const int64_t n = wb::reduce::n(a);
    auto* p = wb::state<common::partials>(a);
    if (n == 0) HIP_CHECK(hipMemsetAsync(p->device, 0, sizeof(int), wb::stream(a)));
    common::tree_groups.launch_over(a, n, wb::in<int>(a, 0), p->device, size_t(n));
    stage2.launch(a, dim3(1), p->device, wb::out<int>(a, 0), p->host.size());
}

WB_PLUGIN({.summary = "work-group trees, then a second kernel reduces the partials on the device",
           .seed = "001: two-stage tree reduction (the first stage's partials are the second's input)",
           .kernels = {common::tree_groups, stage2},
           .tunables = {wb::block_size},
           .prepare = prepare,
           .run = run,
           .release = common::release_partials})
