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

static void prepare(wb_args* a)
{
    // Stage 2 always runs, so there is at least one (zero) partial.
    const int64_t groups = wb::ceil_div(wb::param(a, "n"), wb::param(a, "block_size"));
    reduce::prepare_partials(a, groups > 0 ? groups : 1);
}

static void run(wb_args* a)
{
    const int64_t n = wb::param(a, "n"), block = wb::param(a, "block_size");
    auto* p = wb::state<reduce::partials>(a);
    const size_t groups = p->host.size(), lds = size_t(block) * sizeof(int);
    if (n == 0) HIP_CHECK(hipMemsetAsync(p->device, 0, sizeof(int), wb::stream(a)));
    else {
        hipLaunchKernelGGL(reduce::reduce_tree_groups, dim3(unsigned(groups)), dim3(unsigned(block)), lds, wb::stream(a),
                           wb::in<int>(a, 0), p->device, size_t(n));
        HIP_CHECK(hipGetLastError());
    }
    hipLaunchKernelGGL(reduce_tree_stage2, dim3(1), dim3(unsigned(block)), lds, wb::stream(a), p->device,
                       wb::out<int>(a, 0), groups);
    HIP_CHECK(hipGetLastError());
}

static const wb_kernel kernels[] = {wb::kernel("reduce_tree_groups", reduce::reduce_tree_groups, "block_size", sizeof(int)),
                                    wb::kernel("reduce_tree_stage2", reduce_tree_stage2, "block_size", sizeof(int))};
static const wb_tunable tunables[] = {reduce::block_size};

WB_PLUGIN({.family = "reduce",
           .variant = "tree_two_stage",
           .summary = "work-group trees, then a second kernel reduces the partials on the device",
           .seed = "001: two-stage tree reduction (the first stage's partials are the second's input)",
           .kernels = kernels,
           .tunables = tunables,
           .prepare = prepare,
           .run = run,
           .release = reduce::release_partials})
