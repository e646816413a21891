// reduce/blocked_serial: blocked access (items per work-item, coalesced rows), the work-item
// sums in LDS, and one work-item adds them up serially; partials summed on the host (seed 001,
// blocked access + SLM, serial reduction).
#include "common.h"

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

static const wb::kernel blocked_serial_k{"reduce_blocked_serial", reduce_blocked_serial, reduce::block_size, sizeof(int)};

static int64_t groups(wb_args* a) { return wb::ceil_div(reduce::n(a), reduce::block_size(a) * reduce::items(a)); }

static void prepare(wb_args* a) { reduce::prepare_partials(a, groups(a)); }

static void run(wb_args* a)
{
    if (groups(a) == 0) return;
    blocked_serial_k.launch(a, dim3(unsigned(groups(a))), wb::in<int>(a, 0), wb::state<reduce::partials>(a)->device,
                    size_t(reduce::n(a)), unsigned(reduce::items(a)));
}

WB_PLUGIN({.family = "reduce",
           .variant = "blocked_serial",
           .summary = "blocked loads, sums in LDS, one work-item adds them serially; partials on the host",
           .seed = "001: blocked access with SLM for the intermediate results, serial reduction",
           .kernels = {blocked_serial_k},
           .tunables = {reduce::block_size, reduce::items},
           .prepare = prepare,
           .run = run,
           .finish = reduce::finish_partials,
           .release = reduce::release_partials})
