// reduce/tree: one element per work-item, a tree in LDS per work-group, one partial per
// work-group summed on the host (seed 001, work-group tree reduction).
#include "tree_groups.h"

// The kernel is reduce::reduce_tree_groups (tree_groups.h), shared with tree_two_stage.

static void prepare(wb_args* a)
{
    reduce::prepare_partials(a, wb::ceil_div(wb::param(a, "n"), wb::param(a, "block_size")));
}

static void run(wb_args* a)
{
    const int64_t n = wb::param(a, "n"), block = wb::param(a, "block_size");
    if (n == 0) return;
    hipLaunchKernelGGL(reduce::reduce_tree_groups, dim3(unsigned(wb::ceil_div(n, block))), dim3(unsigned(block)),
                       size_t(block) * sizeof(int), wb::stream(a), wb::in<int>(a, 0),
                       wb::state<reduce::partials>(a)->device, size_t(n));
    HIP_CHECK(hipGetLastError());
}

static const wb_kernel kernels[] = {wb::kernel("reduce_tree_groups", reduce::reduce_tree_groups, "block_size", sizeof(int))};
static const wb_tunable tunables[] = {reduce::block_size};

WB_PLUGIN({.family = "reduce",
           .variant = "tree",
           .summary = "one element per work-item, LDS tree per work-group; partials summed on the host",
           .seed = "001: tree reduction within each work-group, then a serial reduction on the host",
           .kernels = kernels,
           .tunables = tunables,
           .prepare = prepare,
           .run = run,
           .finish = reduce::finish_partials,
           .release = reduce::release_partials})
