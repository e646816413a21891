// reduce/tree_two_stage: the work-group tree of `tree`, then a second kernel (one work-group)
// reduces the partials on the device (seed 001, two-stage tree reduction).
#include "tree_groups.h"

// Stage 1 is reduce::reduce_tree_groups (tree_groups.h), the kernel of `tree`.

// Stage 2, one work-group: each work-item first sums a strided share of the partials.
__global__ void reduce_tree_stage2(const int* partials, int* sum, size_t count)
{
    HIP_DYNAMIC_SHARED(int, scratch);
    int s = 0;
    for (size_t i = threadIdx.x; i < count; i += blockDim.x) s += partials[i];
    scratch[threadIdx.x] = s;
    reduce::lds_tree(scratch, threadIdx.x);
    if (threadIdx.x == 0) *sum = scratch[0];
}

static const wb::kernel stage2_k{"reduce_tree_stage2", reduce_tree_stage2, reduce::block_size, sizeof(int)};

static void prepare(wb_args* a)
{
    // Stage 2 always runs, so there is at least one (zero) partial.
    const int64_t groups = wb::ceil_div(reduce::n(a), reduce::block_size(a));
    reduce::prepare_partials(a, groups > 0 ? groups : 1);
}

static void run(wb_args* a)
{
    const int64_t n = reduce::n(a);
    auto* p = wb::state<reduce::partials>(a);
    if (n == 0) HIP_CHECK(hipMemsetAsync(p->device, 0, sizeof(int), wb::stream(a)));
    reduce::tree_groups_k.launch_over(a, n, wb::in<int>(a, 0), p->device, size_t(n));
    stage2_k.launch(a, dim3(1), p->device, wb::out<int>(a, 0), p->host.size());
}

WB_PLUGIN({.family = "reduce",
           .variant = "tree_two_stage",
           .summary = "work-group trees, then a second kernel reduces the partials on the device",
           .seed = "001: two-stage tree reduction (the first stage's partials are the second's input)",
           .kernels = {reduce::tree_groups_k, stage2_k},
           .tunables = {reduce::block_size},
           .prepare = prepare,
           .run = run,
           .release = reduce::release_partials})
