// reduce/test_paced: a reduction slowed on purpose by a set share of its time, for A/B runs
// (`run --baseline-plugins`) and the regression gate's studies (docs/regression.md). Each thread
// sums its part of the input, then waits WB_SLOWDOWN_PCT percent of the time that sum took (on
// its own cycle counter, clock64): the answer is right, and the kernel's time grows by about that
// share (not exactly: on an H100 the 2% build measures +1.7 to +2.3% and the 5% one +6 to +8%, as
// waiting warps take issue slots from loading ones; extra reads, as before, cost less than their
// share). Studies quote the change measured beside the share. tests/CMakeLists.txt builds it once per
// share (build/tests/paced-plugins/pct<N>/, pct1_5 for 1.5%, 200 for three times the time); every build is the same
// variant, so one can be the base build and another the change.
// WB_PACED_MISMATCH declares one more tunable: a build that A/B must refuse to compare.
#include "../../../plugins/reduce/common.h"

#ifndef WB_SLOWDOWN_PCT
#define WB_SLOWDOWN_PCT 0
#endif

__global__ void reduce_paced(const int* in, int* sum, size_t n, int keep)
{
    const size_t id = size_t(blockIdx.x) * blockDim.x + threadIdx.x, stride = size_t(gridDim.x) * blockDim.x;
    const long long start = clock64();
    int s = 0;
    for (size_t i = id; i < n; i += stride) s += in[i];
    if (WB_SLOWDOWN_PCT > 0) { // s * keep (0): the wait starts once the loads are in
        const long long now = clock64() + s * keep,
                        until = now + (long long)(double(now - start) * (WB_SLOWDOWN_PCT / 100.0));
        while (clock64() < until) {
        }
    }
    s = common::block_sum(s); // shuffles within each wavefront, then across them
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
    // Enough work-items to fill the device, each summing many elements: the loops are the cost.
    const int64_t block = wb::block_size(a), groups = wb::ceil_div(std::min(n, common::device_threads()), block);
    kernel.launch(a, dim3(unsigned(groups)), wb::in<int>(a, 0), sum, size_t(n), 0);
}

WB_PLUGIN(
    {.summary = "grid-stride sum, one atomicAdd per work-group, then a wait of a set share of its time (a test plugin)",
     .seed = "none",
     .kernels = {kernel},
#ifdef WB_PACED_MISMATCH
     .tunables = {wb::block_size, spare},
#else
     .tunables = {wb::block_size},
#endif
     .run = run})
