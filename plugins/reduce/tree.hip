// reduce/tree: one element per work-item, a tree in LDS per work-group, one partial per
// work-group summed on the host (seed 001, work-group tree reduction).
#include "tree_groups.h"

// The kernel is reduce::reduce_tree_groups (tree_groups.h), shared with tree_two_stage.

static void prepare(wb_args* a) { reduce::prepare_partials(a, wb::ceil_div(reduce::n(a), reduce::block_size(a))); }

static void run(wb_args* a)
{
    const int64_t n = reduce::n(a);
    reduce::tree_groups_k.launch_over(a, n, wb::in<int>(a, 0), wb::state<reduce::partials>(a)->device, size_t(n));
}

WB_PLUGIN({.family = "reduce",
           .variant = "tree",
           .summary = "one element per work-item, LDS tree per work-group; partials summed on the host",
           .seed = "001: tree reduction within each work-group, then a serial reduction on the host",
           .kernels = {reduce::tree_groups_k},
           .tunables = {reduce::block_size},
           .prepare = prepare,
           .run = run,
           .finish = reduce::finish_partials,
           .release = reduce::release_partials})
