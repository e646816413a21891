// reduce/blocked_tree: blocked access, then a tree in LDS; partials summed on the host (seed
// 001, blocked access + SLM, tree reduction).
#include "reduce_common.h"

__global__ void reduce_blocked_tree(const int* in, int* partials, size_t n, unsigned items)
{
    HIP_DYNAMIC_SHARED(int, scratch);
    scratch[threadIdx.x] = reduce::blocked_sum(in, n, items);
    reduce::lds_tree(scratch, threadIdx.x);
    if (threadIdx.x == 0) partials[blockIdx.x] = scratch[0];
}

static int64_t groups(wb_args* a)
{
    return wb::ceil_div(wb::param(a, "n"), wb::param(a, "block_size") * wb::param(a, "items"));
}

static void prepare(wb_args* a) { reduce::prepare_partials(a, groups(a)); }

static void run(wb_args* a)
{
    const int64_t block = wb::param(a, "block_size");
    if (groups(a) == 0) return;
    hipLaunchKernelGGL(reduce_blocked_tree, dim3(unsigned(groups(a))), dim3(unsigned(block)),
                       size_t(block) * sizeof(int), wb::stream(a), wb::in<int>(a, 0),
                       wb::state<reduce::partials>(a)->device, size_t(wb::param(a, "n")),
                       unsigned(wb::param(a, "items")));
    HIP_CHECK(hipGetLastError());
}

static const wb_kernel kernels[] = {wb::kernel("reduce_blocked_tree", reduce_blocked_tree, "block_size", sizeof(int))};
static const wb_tunable tunables[] = {reduce::block_size,
                                      wb::tunable_range("items", 16, 1, 4096, "elements per work-item")};

WB_PLUGIN({.family = "reduce",
           .variant = "blocked_tree",
           .summary = "blocked loads, tree in LDS per work-group; partials summed on the host",
           .seed = "001: blocked access with SLM for the intermediate results, tree reduction",
           .kernels = kernels,
           .tunables = tunables,
           .prepare = prepare,
           .run = run,
           .finish = reduce::finish_partials,
           .release = reduce::release_partials})
