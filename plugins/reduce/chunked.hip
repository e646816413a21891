// Each work-item sums a contiguous batch; the partials are summed on the host
// (seed 001, second kernel). Neighbouring work-items read addresses `batch` apart: uncoalesced.
#include "common.h"

__global__ void reduce_chunked(const int* in, int* partials, size_t n, size_t items, size_t batch)
{
    const size_t id = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (id >= items) return;
    const size_t start = id * batch, end = start + batch < n ? start + batch : n;
    int s = 0;
    for (size_t i = start; i < end; ++i) s += in[i];
    partials[id] = s;
}

static constexpr auto batch =
    wb::tunable::range("batch", 256, 1, int64_t(1) << 24, "contiguous elements per work-item");
static const auto kernel = WB_KERNEL(reduce_chunked, wb::block_size);

static int64_t work_items(wb_args* a) { return wb::ceil_div(wb::reduce::n(a), batch(a)); }

static void prepare(wb_args* a) { common::prepare_partials(a, work_items(a)); }

static void run(wb_args* a)
{
    const int64_t items = work_items(a);
    kernel.launch_over(a, items, wb::in<int>(a, 0), wb::state<common::partials>(a)->device, size_t(wb::reduce::n(a)),
                       size_t(items), size_t(batch(a)));
}

WB_PLUGIN({.summary = "each work-item sums a contiguous batch; partials summed on the host",
           .seed = "001: array split into chunks, one local sum per work-item",
           .kernels = {kernel},
           .tunables = {wb::block_size, batch},
           .prepare = prepare,
           .run = run,
           .finish = common::finish_partials,
           .release = common::release_partials})
