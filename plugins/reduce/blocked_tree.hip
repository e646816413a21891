// reduce/blocked_tree: blocked access, then a tree in LDS; partials summed on the host (seed
// 001, blocked access + SLM, tree reduction).
#include "common.h"

__global__ void reduce_blocked_tree(const int* in, int* partials, size_t n, unsigned items)
{
    HIP_DYNAMIC_SHARED(int, scratch);
    scratch[threadIdx.x] = reduce::blocked_sum(in, n, items);
    reduce::lds_tree(scratch, threadIdx.x);
    if (threadIdx.x == 0) partials[blockIdx.x] = scratch[0];
}

static const wb::kernel blocked_tree_k{"reduce_blocked_tree", reduce_blocked_tree, reduce::block_size, sizeof(int)};

static int64_t groups(wb_args* a) { return wb::ceil_div(reduce::n(a), reduce::block_size(a) * reduce::items(a)); }

static void prepare(wb_args* a) { reduce::prepare_partials(a, groups(a)); }

static void run(wb_args* a)
{
    if (groups(a) == 0) return;
    blocked_tree_k.launch(a, dim3(unsigned(groups(a))), wb::in<int>(a, 0), wb::state<reduce::partials>(a)->device,
                    size_t(reduce::n(a)), unsigned(reduce::items(a)));
}

WB_PLUGIN({.family = "reduce",
           .variant = "blocked_tree",
           .summary = "blocked loads, tree in LDS per work-group; partials summed on the host",
           .seed = "001: blocked access with SLM for the intermediate results, tree reduction",
           .kernels = {blocked_tree_k},
           .tunables = {reduce::block_size, reduce::items},
           .prepare = prepare,
           .run = run,
           .finish = reduce::finish_partials,
           .release = reduce::release_partials})
