// The tuned variant. A grid the device holds at once (occupancy API) reads the
// input in rounds of tiles, one per work-group per round, each work-item with four 16-byte
// loads in flight; what is left after the last full round is spread over every work-item, so
// none idles at the end. Work-groups sum with shuffles into one accumulator, and the last to
// finish moves it to the output: one kernel, no memset.
#include "common.h"

constexpr int unroll = 4; // 16-byte loads in flight per work-item

__global__ void reduce_unrolled(const int* in, int* sum, size_t n, int* total, unsigned* finished)
{
    const int4* in4 = reinterpret_cast<const int4*>(in);
    const size_t n4 = n / 4, tile = size_t(unroll) * blockDim.x, round = tile * gridDim.x;
    const size_t full = n4 / round * round; // neighbouring tiles go to different work-groups
    int s = 0;
    for (size_t base = blockIdx.x * tile + threadIdx.x; base < full; base += round) {
        int4 v[unroll];
#pragma unroll
        for (int u = 0; u < unroll; ++u) v[u] = in4[base + size_t(u) * blockDim.x];
#pragma unroll
        for (int u = 0; u < unroll; ++u) s += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    }
    const size_t threads = size_t(gridDim.x) * blockDim.x;
    for (size_t i = full + blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += threads)
        s += (in4[i].x + in4[i].y) + (in4[i].z + in4[i].w);
    if (blockIdx.x == 0 && threadIdx.x < n % 4) s += in[n - n % 4 + threadIdx.x];
    s = common::block_sum(s);

    if (threadIdx.x == 0) {
        atomicAdd(total, s);
        __threadfence(); // the addition lands before the count says so
        if (atomicAdd(finished, 1u) == gridDim.x - 1) {
            __threadfence();             // and see every other work-group's addition
            *sum = atomicExch(total, 0); // every work-group has added: take the sum, leave zeros
            *finished = 0;               // for the next launch
        }
    }
}

static constexpr auto groups_per_mp =
    wb::tunable::range("groups_per_mp", 0, 0, 64, "work-groups per multiprocessor (0: as many as fit, by occupancy)");
static const auto kernel = WB_KERNEL(reduce_unrolled, wb::block_size);

struct state {
    int* total = nullptr;
    unsigned* finished = nullptr;
    int64_t groups = 0;
};

static void prepare(wb_args* a)
{
    if (reinterpret_cast<uintptr_t>(a->in[0]) % 16) throw wb::skip("input is not 16-byte aligned");
    const int64_t n = wb::reduce::n(a), block = wb::block_size(a), per_mp = groups_per_mp(a);
    auto* s = new state;
    a->state = s;
    const int64_t resident = per_mp > 0 ? per_mp * wb::device().multiProcessorCount : kernel.resident_groups(a);
    // No more work-groups than there are tiles: small inputs take a small grid.
    s->groups = std::max<int64_t>(1, std::min(resident, wb::ceil_div(n / 4, unroll * block)));
    HIP_CHECK(hipMalloc(&s->total, sizeof(int)));
    HIP_CHECK(hipMalloc(&s->finished, sizeof(unsigned)));
    HIP_CHECK(hipMemset(s->total, 0, sizeof(int)));
    HIP_CHECK(hipMemset(s->finished, 0, sizeof(unsigned)));
    wb::note(a, "work_groups=%lld", (long long)s->groups);
}

static void run(wb_args* a)
{
    auto* s = wb::state<state>(a);
    kernel.launch(a, dim3(unsigned(s->groups)), wb::in<int>(a, 0), wb::out<int>(a, 0), size_t(wb::reduce::n(a)),
                  s->total, s->finished);
}

static void release(wb_args* a)
{
    auto* s = wb::state<state>(a);
    if (!s) return;
    if (s->total) HIP_CHECK(hipFree(s->total));
    if (s->finished) HIP_CHECK(hipFree(s->finished));
    delete s;
}

WB_PLUGIN({.summary = "4 int4 loads in flight, resident grid, even tail, last work-group finishes: one kernel",
           .seed = "001: sub-group vector loads, tuned: more elements in flight per work-item",
           .kernels = {kernel},
           .tunables = {wb::block_size, groups_per_mp},
           .prepare = prepare,
           .run = run,
           .release = release})
