// Blocked access, then a tree in LDS; partials summed on the host (seed
// 001, blocked access + SLM, tree reduction).
#include "common.h"

__global__ void reduce_blocked_tree(const int* in, int* partials, size_t n, unsigned items)
{
    HIP_DYNAMIC_SHARED(int, scratch);
    scratch[threadIdx.x] = common::blocked_sum(in, n, items);
    common::lds_tree(scratch, threadIdx.x);
    if (threadIdx.x == 0) partials[blockIdx.x] = scratch[0];
}

static const auto kernel = WB_KERNEL(reduce_blocked_tree, wb::block_size, sizeof(int));

static int64_t groups(wb_args* a) { return wb::ceil_div(wb::reduce::n(a), wb::block_size(a) * common::items(a)); }

static void prepare(wb_args* a) { common::prepare_partials(a, groups(a)); }

static void run(wb_args* a)
{
    if (groups(a) == 0) return;
    kernel.launch(a, dim3(unsigned(groups(a))), wb::in<int>(a, 0), wb::state<common::partials>(a)->device,
                  size_t(wb::reduce::n(a)), unsigned(common::items(a)));
}

WB_PLUGIN({.summary = "blocked loads, tree in LDS per work-group; partials summed on the host",
           .seed = "001: blocked access with SLM for the intermediate results, tree reduction",
           .kernels = {kernel},
           .tunables = {wb::block_size, common::items},
           .prepare = prepare,
           .run = run,
           .finish = common::finish_partials,
           .release = common::release_partials})
