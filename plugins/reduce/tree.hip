// One element per work-item, a tree in LDS per work-group, one partial per
// work-group summed on the host (seed 001, work-group tree reduction).
#include "tree_groups.h"

// The kernel is common::reduce_tree_groups (tree_groups.h), shared with tree_two_stage.

static void prepare(wb_args* a) { common::prepare_partials(a, wb::ceil_div(wb::reduce::n(a), wb::block_size(a))); }

static void run(wb_args* a)
{
    const int64_t n = wb::reduce::n(a);
    common::tree_groups.launch_over(a, n, wb::in<int>(a, 0), wb::state<common::partials>(a)->device, size_t(n));
}

WB_PLUGIN({.summary = "one element per work-item, LDS tree per work-group; partials summed on the host",
           .seed = "001: tree reduction within each work-group, then a serial reduction on the host",
           .kernels = {common::tree_groups},
           .tunables = {wb::block_size},
           .prepare = prepare,
           .run = run,
           .finish = common::finish_partials,
           .release = common::release_partials})
