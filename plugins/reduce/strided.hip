// Work-item i sums elements i, i + W, i + 2W, ... for W work-items, so each step
// is one coalesced row; the partials are summed on the host (seed 001, third kernel).
#include "common.h"

__global__ void reduce_strided(const int* in, int* partials, size_t n, size_t items)
{
    const size_t id = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (id >= items) return;
    int s = 0;
    for (size_t i = id; i < n; i += items) s += in[i];
    partials[id] = s;
}

static constexpr auto work_items =
    wb::tunable::range("work_items", 0, 0, int64_t(1) << 26, "work-items W (0: enough to fill the device)");
static const auto kernel = WB_KERNEL(reduce_strided, wb::block_size);

static void prepare(wb_args* a)
{
    const int64_t w = work_items(a), items = w > 0 ? w : common::device_threads();
    wb::note(a, "work_items=%lld", (long long)items);
    common::prepare_partials(a, items); // one partial per work-item
}

static void run(wb_args* a)
{
    auto* p = wb::state<common::partials>(a);
    const int64_t items = int64_t(p->host.size());
    kernel.launch_over(a, items, wb::in<int>(a, 0), p->device, size_t(wb::reduce::n(a)), size_t(items));
}

WB_PLUGIN({.summary = "work-item i sums i, i+W, i+2W, ...; partials summed on the host",
           .seed = "001: strided access so the compiler can vectorize, enough work-items for the device",
           .kernels = {kernel},
           .tunables = {wb::block_size, work_items},
           .prepare = prepare,
           .run = run,
           .finish = common::finish_partials,
           .release = common::release_partials})
