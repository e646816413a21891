// reduce/strided: work-item i sums elements i, i + W, i + 2W, ... for W work-items, so each step
// is one coalesced row; the partials are summed on the host (seed 001, third kernel).
#include "reduce_common.h"

__global__ void reduce_strided(const int* in, int* partials, size_t n, size_t items)
{
    const size_t id = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (id >= items) return;
    int s = 0;
    for (size_t i = id; i < n; i += items) s += in[i];
    partials[id] = s;
}

static void prepare(wb_args* a)
{
    const int64_t w = wb::param(a, "work_items"), items = w > 0 ? w : reduce::device_threads();
    wb::note(a, "work_items=%lld", (long long)items);
    reduce::prepare_partials(a, items); // one partial per work-item
}

static void run(wb_args* a)
{
    const int64_t items = int64_t(wb::state<reduce::partials>(a)->host.size()), block = wb::param(a, "block_size");
    hipLaunchKernelGGL(reduce_strided, dim3(unsigned(wb::ceil_div(items, block))), dim3(unsigned(block)), 0,
                       wb::stream(a), wb::in<int>(a, 0), wb::state<reduce::partials>(a)->device,
                       size_t(wb::param(a, "n")), size_t(items));
    HIP_CHECK(hipGetLastError());
}

static const wb_kernel kernels[] = {wb::kernel("reduce_strided", reduce_strided, "block_size")};
static const wb_tunable tunables[] = {
    reduce::block_size,
    wb::tunable_range("work_items", 0, 0, int64_t(1) << 26, "work-items W (0: enough to fill the device)")};

WB_PLUGIN({.family = "reduce",
           .variant = "strided",
           .summary = "work-item i sums i, i+W, i+2W, ...; partials summed on the host",
           .seed = "001: strided access so the compiler can vectorize, enough work-items for the device",
           .kernels = kernels,
           .tunables = tunables,
           .prepare = prepare,
           .run = run,
           .finish = reduce::finish_partials,
           .release = reduce::release_partials})
