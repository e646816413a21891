// reduce/chunked: each work-item sums a contiguous batch; the partials are summed on the host
// (seed 001, second kernel). Neighbouring work-items read addresses `batch` apart: uncoalesced.
#include "reduce_common.h"

__global__ void reduce_chunked(const int* in, int* partials, size_t n, size_t items, size_t batch)
{
    const size_t id = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (id >= items) return;
    const size_t start = id * batch, end = start + batch < n ? start + batch : n;
    int s = 0;
    for (size_t i = start; i < end; ++i) s += in[i];
    partials[id] = s;
}

static int64_t work_items(wb_args* a) { return wb::ceil_div(wb::param(a, "n"), wb::param(a, "batch")); }

static void prepare(wb_args* a) { reduce::prepare_partials(a, work_items(a)); }

static void run(wb_args* a)
{
    const int64_t items = work_items(a), block = wb::param(a, "block_size");
    if (items == 0) return;
    hipLaunchKernelGGL(reduce_chunked, dim3(unsigned(wb::ceil_div(items, block))), dim3(unsigned(block)), 0,
                       wb::stream(a), wb::in<int>(a, 0), wb::state<reduce::partials>(a)->device,
                       size_t(wb::param(a, "n")), size_t(items), size_t(wb::param(a, "batch")));
    HIP_CHECK(hipGetLastError());
}

static const wb_kernel kernels[] = {wb::kernel("reduce_chunked", reduce_chunked, "block_size")};
static const wb_tunable tunables[] = {
    reduce::block_size, wb::tunable_range("batch", 256, 1, int64_t(1) << 24, "contiguous elements per work-item")};

WB_PLUGIN({.family = "reduce",
           .variant = "chunked",
           .summary = "each work-item sums a contiguous batch; partials summed on the host",
           .seed = "001: array split into chunks, one local sum per work-item",
           .kernels = kernels,
           .tunables = tunables,
           .prepare = prepare,
           .run = run,
           .finish = reduce::finish_partials,
           .release = reduce::release_partials})
