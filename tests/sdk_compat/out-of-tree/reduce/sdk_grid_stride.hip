// reduce/sdk_grid_stride (an out-of-tree example): as many work-groups as the device holds at
// once, each work-item summing a grid-stride slice of the input, then a tree in dynamic shared
// memory per work-group and one atomic per work-group.
#include "wavebench/families/reduce.h" // wb::reduce::n
#include "wavebench/plugin.h"

#include <algorithm>

// The family sums int32 with wrap-around: unsigned arithmetic wraps by definition, on every platform.
__global__ void grid_stride_sum(const int* in, int* sum, int64_t n)
{
    HIP_DYNAMIC_SHARED(unsigned, partial);
    const unsigned t = threadIdx.x;
    unsigned acc = 0;
    for (int64_t i = int64_t(blockIdx.x) * blockDim.x + t; i < n; i += int64_t(gridDim.x) * blockDim.x)
        acc += unsigned(in[i]);
    partial[t] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) { // blockDim.x is a power of two (the tunable)
        if (t < s) partial[t] += partial[t + s];
        __syncthreads();
    }
    if (t == 0) atomicAdd(sum, int(partial[0]));
}

static constexpr auto block = wb::tunable::power_of_two("block_size", 256, 32, 1024, "work-items per work-group");
// Block size from the tunable; one unsigned of dynamic shared memory per work-item.
static const wb::kernel sum_k{"grid_stride_sum", grid_stride_sum, block, int(sizeof(unsigned))};

static void run(wb_args* a)
{
    const int64_t n = wb::reduce::n(a);
    int* sum = wb::out<int>(a, 0);
    HIP_CHECK(hipMemsetAsync(sum, 0, sizeof(int), wb::stream(a)));
    if (n == 0) return;
    const int64_t groups = std::min(sum_k.resident_groups(a), wb::ceil_div(n, sum_k.block(a)));
    sum_k.launch(a, dim3(unsigned(groups)), wb::in<int>(a, 0), sum, n);
}

WB_PLUGIN({.family = "reduce",
           .variant = "sdk_grid_stride",
           .summary = "resident work-groups only, grid-stride sums, a tree in shared memory, one atomic each",
           .seed = "001 (out-of-tree example)",
           .kernels = {sum_k},
           .tunables = {block},
           .run = run})
