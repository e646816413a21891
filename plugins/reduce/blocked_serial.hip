// reduce/blocked_serial: blocked access (items per work-item, coalesced rows), the work-item
// sums in LDS, and one work-item adds them up serially; partials summed on the host (seed 001,
// blocked access + SLM, serial reduction).
#include "reduce_common.h"

__global__ void reduce_blocked_serial(const int* in, int* partials, size_t n, unsigned items)
{
    HIP_DYNAMIC_SHARED(int, scratch);
    scratch[threadIdx.x] = reduce::blocked_sum(in, n, items);
    __syncthreads();
    if (threadIdx.x == 0) {
        int s = 0;
        for (unsigned i = 0; i < blockDim.x; ++i) s += scratch[i];
        partials[blockIdx.x] = s;
    }
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
    hipLaunchKernelGGL(reduce_blocked_serial, dim3(unsigned(groups(a))), dim3(unsigned(block)),
                       size_t(block) * sizeof(int), wb::stream(a), wb::in<int>(a, 0),
                       wb::state<reduce::partials>(a)->device, size_t(wb::param(a, "n")),
                       unsigned(wb::param(a, "items")));
    HIP_CHECK(hipGetLastError());
}

static const wb_kernel kernels[] = {wb::kernel("reduce_blocked_serial", reduce_blocked_serial, "block_size", sizeof(int))};
static const wb_tunable tunables[] = {reduce::block_size,
                                      wb::tunable_range("items", 16, 1, 4096, "elements per work-item")};

WB_PLUGIN({.family = "reduce",
           .variant = "blocked_serial",
           .summary = "blocked loads, sums in LDS, one work-item adds them serially; partials on the host",
           .seed = "001: blocked access with SLM for the intermediate results, serial reduction",
           .kernels = kernels,
           .tunables = tunables,
           .prepare = prepare,
           .run = run,
           .finish = reduce::finish_partials,
           .release = reduce::release_partials})
