// 16-byte vector loads in a grid-stride loop, a shuffle reduction within each
// wavefront, then across the work-group's wavefronts, one atomic per work-group (seed 001,
// sub-group vector loads; written for any wavefront width).
#include "common.h"

__global__ void reduce_wavefront(const int* in, int* sum, size_t n)
{
    const size_t id = size_t(blockIdx.x) * blockDim.x + threadIdx.x, stride = size_t(gridDim.x) * blockDim.x;
    const int4* in4 = reinterpret_cast<const int4*>(in);
    int s = 0;
    for (size_t i = id; i < n / 4; i += stride) {
        const int4 v = in4[i];
        s += (v.x + v.y) + (v.z + v.w);
    }
    if (id < n % 4) s += in[n - n % 4 + id]; // the last n % 4 elements
    s = common::block_sum(s);                // shuffles within each wavefront, then across them
    if (threadIdx.x == 0) atomicAdd(sum, s);
}

static constexpr auto work_items =
    wb::tunable::range("work_items", 0, 0, int64_t(1) << 26, "work-items in the grid (0: enough to fill the device)");
static const auto kernel = WB_KERNEL(reduce_wavefront, wb::block_size);

struct grid {
    int64_t groups = 0;
};

static void prepare(wb_args* a)
{
    if (reinterpret_cast<uintptr_t>(a->in[0]) % 16) throw wb::skip("input is not 16-byte aligned");
    const int64_t w = work_items(a), block = wb::block_size(a);
    auto* g = new grid{wb::ceil_div(w > 0 ? w : common::device_threads(), block)};
    a->state = g;
    wb::note(a, "work_items=%lld", (long long)(g->groups * block));
}

static void run(wb_args* a)
{
    int* sum = wb::out<int>(a, 0);
    HIP_CHECK(hipMemsetAsync(sum, 0, sizeof(int), wb::stream(a)));
    kernel.launch(a, dim3(unsigned(wb::state<grid>(a)->groups)), wb::in<int>(a, 0), sum, size_t(wb::reduce::n(a)));
}

static void release(wb_args* a) { delete wb::state<grid>(a); }

WB_PLUGIN({.summary = "int4 loads, grid-stride loop, wavefront shuffle reduction, one atomicAdd per work-group",
           .seed = "001: sub-group vector loads, intermediate results reduced per work-group",
           .kernels = {kernel},
           .tunables = {wb::block_size, work_items},
           .prepare = prepare,
           .run = run,
           .release = release})
