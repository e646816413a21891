// An out-of-tree example, written as GPU code is: a kernel template over the
// items each work-item sums, `extern __shared__` dynamic shared memory, and triple-chevron
// launches. Every work-group sums ITEMS consecutive tiles of the input, then a tree in shared
// memory, then one atomic. The cpu platform builds it unmodified: wavebench_add_plugin passes
// the source through wavebench-hip-rewrite.
#include "wavebench/families/reduce.h" // wb::reduce::n
#include "wavebench/plugin.h"

template <int ITEMS> __global__ void tile_sums(const int* in, int* sum, int64_t n)
{
    extern __shared__ unsigned partial[];
    const unsigned t = threadIdx.x;
    const int64_t first = int64_t(blockIdx.x) * blockDim.x * ITEMS + t;
    unsigned acc = 0; // the family sums with wrap-around, which unsigned arithmetic has by definition
#pragma unroll
    for (int k = 0; k < ITEMS; ++k)
        if (const int64_t i = first + int64_t(k) * blockDim.x; i < n) acc += unsigned(in[i]);
    partial[t] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) { // blockDim.x is a power of two (the tunable)
        if (t < s) partial[t] += partial[t + s];
        __syncthreads();
    }
    if (t == 0) atomicAdd(sum, int(partial[0]));
}

static constexpr auto block = wb::block_size.at_least(64);
static constexpr auto items = wb::tunable::one_of("items", 4, {1, 4, 16}, "input items per work-item");
// One instance of the template per value of `items`, for the resource report (one unsigned of
// dynamic shared memory per work-item).
static const auto k1 = WB_KERNEL(tile_sums<1>, block, int(sizeof(unsigned))).when(items, 1);
static const auto k4 = WB_KERNEL(tile_sums<4>, block, int(sizeof(unsigned))).when(items, 4);
static const auto k16 = WB_KERNEL(tile_sums<16>, block, int(sizeof(unsigned))).when(items, 16);

template <int ITEMS> static void launch(wb_args* a, const int* in, int* sum, int64_t n)
{
    const unsigned threads = unsigned(block(a));
    const unsigned groups = unsigned(wb::ceil_div(n, int64_t(threads) * ITEMS));
    tile_sums<ITEMS><<<groups, threads, threads * sizeof(unsigned), wb::stream(a)>>>(in, sum, n);
    HIP_CHECK(hipGetLastError());
}

static void run(wb_args* a)
{
    const int64_t n = wb::reduce::n(a);
    int* sum = wb::out<int>(a, 0);
    HIP_CHECK(hipMemsetAsync(sum, 0, sizeof(int), wb::stream(a)));
    if (n == 0) return;
    const int* in = wb::in<int>(a, 0);
    switch (items(a)) {
    case 1:
        return launch<1>(a, in, sum, n);
    case 4:
        return launch<4>(a, in, sum, n);
    default:
        return launch<16>(a, in, sum, n);
    }
}

WB_PLUGIN({.summary = "a kernel template over items per work-item, extern __shared__, <<<>>> launches",
           .seed = "001 (out-of-tree example)",
           .kernels = {k1, k4, k16},
           .tunables = {block, items},
           .run = run})
