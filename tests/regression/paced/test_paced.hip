// reduce/test_paced: a reduction slowed on purpose by a set share of extra work, for A/B runs
// (`run --baseline-plugins`) and the regression gate's studies (docs/regression.md). Each thread
// sums its part of the input, then reads WB_SLOWDOWN_PCT percent of the input again into a sum
// that never counts (times a zero the compiler cannot see): the answer is right, only the time
// grows, by about that share where reading the input is the cost. tests/CMakeLists.txt builds it
// once per share (build/tests/paced-plugins/pct<N>/, 200 for three times the work); every build
// is the same variant, so one can be the base build and another the change.
// WB_PACED_MISMATCH declares one more tunable: a build that A/B must refuse to compare.
#include "../../../plugins/reduce/common.h"

#ifndef WB_SLOWDOWN_PCT
#define WB_SLOWDOWN_PCT 0
#endif

__global__ void reduce_paced(const int* in, int* sum, size_t n, size_t extra, int keep)
{
    const size_t id = size_t(blockIdx.x) * blockDim.x + threadIdx.x, stride = size_t(gridDim.x) * blockDim.x;
    int s = 0, x = 0;
    for (size_t i = id; i < n; i += stride) s += in[i];
    for (size_t done = 0; done < extra; done += n) // the extra work: `extra` elements read again
        for (size_t i = id; i < n && i < extra - done; i += stride) x += in[i];
    s = common::block_sum(s + x * keep); // keep is 0; shuffles within each wavefront, then across them
    if (threadIdx.x == 0) atomicAdd(sum, s);
}

static const auto kernel = WB_KERNEL(reduce_paced, wb::block_size);
#ifdef WB_PACED_MISMATCH
static constexpr auto spare = wb::tunable::range("spare", 0, 0, 1, "a tunable the other builds do not declare");
#endif

static void run(wb_args* a)
{
    const int64_t n = wb::reduce::n(a);
    int* sum = wb::out<int>(a, 0);
    HIP_CHECK(hipMemsetAsync(sum, 0, sizeof(int), wb::stream(a)));
    const size_t extra = size_t(n) * WB_SLOWDOWN_PCT / 100;
    // Enough work-items to fill the device, each summing many elements: the loops are the cost.
    const int64_t block = wb::block_size(a), groups = wb::ceil_div(std::min(n, common::device_threads()), block);
    kernel.launch(a, dim3(unsigned(groups)), wb::in<int>(a, 0), sum, size_t(n), extra, 0);
}

WB_PLUGIN({.summary = "grid-stride sum, one atomicAdd per work-group, and a set share of extra reads (a test plugin)",
           .seed = "none",
           .kernels = {kernel},
#ifdef WB_PACED_MISMATCH
           .tunables = {wb::block_size, spare},
#else
           .tunables = {wb::block_size},
#endif
           .run = run})
