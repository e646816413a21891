// The read-bandwidth study of issue 16, one kernel per launch as unrolled is,
// with what Hopper offers beyond plain loads as one tunable, `way`, so that each is measured on
// its own:
//   plain loads:      each work-item keeps 8 16-byte loads in flight (unrolled keeps 4);
//   L2::256B loads:   the same loads skipping L1 and asking L2 for whole 256-byte lines
//                     (ld.global.nc.L1::no_allocate.L2::256B, sm_80+);
//   bulk copies:      one work-item streams 8 KiB chunks into a ring of four shared-memory stages
//                     (cp.async.bulk completing an mbarrier, sm_90), and every work-item sums them;
// each in rounds (tiles dealt to the work-groups in turn, unrolled's order) or in even shares
// (each work-group one contiguous, equal part: every work-group ends together).
// Elsewhere (cpu, amd, older NVIDIA GPUs) the hinted loads are plain loads and bulk copies are
// declined.
#include "common.h"

namespace {

constexpr int chunk_bytes = 8192; // one bulk copy
constexpr int chunk_int4 = chunk_bytes / 16;
constexpr int stages = 4; // chunks in flight per work-group
constexpr int loads = 8;  // 16-byte loads in flight per work-item (unrolled: 4)
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define STREAMED_BULK 1
#endif

template <bool HINT> __device__ __forceinline__ int4 load(const int4* p)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (HINT) {
        int4 v;
        asm("ld.global.nc.L1::no_allocate.L2::256B.v4.s32 {%0, %1, %2, %3}, [%4];"
            : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
            : "l"(p));
        return v;
    }
#endif
    return *p;
}

__device__ __forceinline__ int add4(int4 v) { return (v.x + v.y) + (v.z + v.w); }

/// The work-group's even share of n4 int4: [begin, end).
struct share {
    size_t begin, end;
};
__device__ inline share contiguous_share(size_t n4)
{
    const size_t per = (n4 + gridDim.x - 1) / gridDim.x;
    const size_t b = min(n4, size_t(blockIdx.x) * per);
    return {b, min(n4, b + per)};
}

/// Adds the work-group's sum into *total; the last work-group to finish moves it to *sum.
__device__ inline void finish(int s, int* sum, int* total, unsigned* finished)
{
    s = common::block_sum(s);
    if (threadIdx.x == 0) {
        atomicAdd(total, s);
        __threadfence();
        if (atomicAdd(finished, 1u) == gridDim.x - 1) {
            __threadfence();
            *sum = atomicExch(total, 0);
            *finished = 0;
        }
    }
}

template <bool HINT, bool SPLIT>
__global__ void reduce_streamed(const int* in, int* sum, size_t n, int* total, unsigned* finished)
{
    const int4* in4 = reinterpret_cast<const int4*>(in);
    const size_t n4 = n / 4, tile = size_t(loads) * blockDim.x;
    int s = 0;
    auto tile_sum = [&](size_t base) { // `loads` loads in flight per work-item, no bounds tests
        int4 v[loads];
#pragma unroll
        for (int u = 0; u < loads; ++u) v[u] = load<HINT>(in4 + base + size_t(u) * blockDim.x + threadIdx.x);
#pragma unroll
        for (int u = 0; u < loads; ++u) s += add4(v[u]);
    };
    if (SPLIT) { // whole tiles of the work-group's share, then the rest of it
        const share sh = contiguous_share(n4);
        size_t base = sh.begin;
        for (; base + tile <= sh.end; base += tile) tile_sum(base);
        for (size_t i = base + threadIdx.x; i < sh.end; i += blockDim.x) s += add4(load<HINT>(in4 + i));
    } else { // rounds of one tile per work-group, then what is left over the whole grid
        const size_t round = tile * gridDim.x, full = n4 / round * round;
        for (size_t base = size_t(blockIdx.x) * tile; base < full; base += round) tile_sum(base);
        const size_t threads = size_t(gridDim.x) * blockDim.x;
        for (size_t i = full + size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += threads)
            s += add4(load<HINT>(in4 + i));
    }
    if (blockIdx.x == 0 && threadIdx.x < n % 4) s += in[n - n % 4 + threadIdx.x];
    finish(s, sum, total, finished);
}

#if defined(STREAMED_BULK)
__device__ __forceinline__ uint32_t smem_address(const void* p) { return uint32_t(__cvta_generic_to_shared(p)); }
__device__ __forceinline__ bool bulk_ready(uint32_t bar, uint32_t parity)
{
    uint32_t ok;
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(ok)
                 : "r"(bar), "r"(parity)
                 : "memory");
    return ok != 0;
}
__device__ __forceinline__ void bulk_fetch(void* dst, const void* src, uint32_t bar)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "n"(chunk_bytes) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     smem_address(dst)),
                 "l"(src), "n"(chunk_bytes), "r"(bar)
                 : "memory");
}
#endif

/// Bulk copies. Chunk c of the input (8 KiB) goes to work-group c % gridDim.x (rounds) or to the
/// work-group whose contiguous share holds it (shares); what is left after the last whole chunk
/// is read with plain loads.
template <bool SPLIT> __global__ void reduce_bulk(const int* in, int* sum, size_t n, int* total, unsigned* finished)
{
    int s = 0;
    const size_t chunks = n / (chunk_bytes / 4);
#if defined(STREAMED_BULK)
    __shared__ alignas(128) int4 ring[stages][chunk_int4];
    __shared__ alignas(8) uint64_t bars[stages];
    size_t first, step, last; // the work-group's chunks: first, first + step, ... < last
    if (SPLIT) {
        const size_t per = (chunks + gridDim.x - 1) / gridDim.x;
        first = min(chunks, size_t(blockIdx.x) * per);
        last = min(chunks, first + per);
        step = 1;
    } else {
        first = blockIdx.x;
        last = chunks;
        step = gridDim.x;
    }
    if (threadIdx.x == 0) {
        for (int k = 0; k < stages; ++k)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_address(&bars[k])) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        for (int k = 0; k < stages; ++k)
            if (const size_t c = first + size_t(k) * step; c < last)
                bulk_fetch(ring[k], in + c * (chunk_bytes / 4), smem_address(&bars[k]));
    }
    __syncthreads();
    unsigned use = 0; // chunks consumed so far: stage use % stages, its fill use / stages
    for (size_t c = first; c < last; c += step, ++use) {
        const unsigned k = use % stages;
        while (!bulk_ready(smem_address(&bars[k]), (use / stages) & 1)) {
        }
        for (unsigned i = threadIdx.x; i < chunk_int4; i += blockDim.x) s += add4(ring[k][i]);
        __syncthreads(); // every work-item is done with the stage before it is filled again
        if (threadIdx.x == 0)
            if (const size_t next = c + size_t(stages) * step; next < last)
                bulk_fetch(ring[k], in + next * (chunk_bytes / 4), smem_address(&bars[k]));
    }
#endif
    // The elements after the last whole chunk, over the whole grid.
    const size_t done = chunks * (chunk_bytes / 4);
    for (size_t i = done + size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        s += in[i];
    finish(s, sum, total, finished);
}

constexpr auto way = wb::tunable::one_of(
    "way", 1, {0, 1, 2, 3, 4, 5},
    "how the input is read: 0 plain loads in rounds, 1 plain loads in even shares, 2 L2::256B loads in rounds, "
    "3 L2::256B loads in even shares, 4 bulk copies in rounds, 5 bulk copies in even shares (4 and 5: sm_90)");
using streamed_kernel = wb::kernel<const int*, int*, size_t, int*, unsigned*>;
const streamed_kernel ways[] = {
    streamed_kernel{"reduce_streamed<plain,rounds>", reduce_streamed<false, false>, wb::block_size}.when(way, 0),
    streamed_kernel{"reduce_streamed<plain,shares>", reduce_streamed<false, true>, wb::block_size}.when(way, 1),
    streamed_kernel{"reduce_streamed<L2_256B,rounds>", reduce_streamed<true, false>, wb::block_size}.when(way, 2),
    streamed_kernel{"reduce_streamed<L2_256B,shares>", reduce_streamed<true, true>, wb::block_size}.when(way, 3),
    streamed_kernel{"reduce_bulk<rounds>", reduce_bulk<false>, wb::block_size}.when(way, 4),
    streamed_kernel{"reduce_bulk<shares>", reduce_bulk<true>, wb::block_size}.when(way, 5)};
const streamed_kernel& chosen(const wb_args* a) { return ways[way(a)]; }
bool bulk(const wb_args* a) { return way(a) >= 4; }

struct state {
    int* total = nullptr;
    unsigned* finished = nullptr;
    int64_t groups = 0;
};

void prepare(wb_args* a)
{
    if (reinterpret_cast<uintptr_t>(a->in[0]) % 16) throw wb::skip("input is not 16-byte aligned");
    const auto& d = wb::device();
    if (bulk(a) && (std::string(WB_PLATFORM_NAME) != "nvidia" || d.major < 9))
        throw wb::skip("bulk asynchronous copies (way 4, 5) need an NVIDIA GPU of compute capability 9.0 or later");
    const int64_t n = wb::reduce::n(a), block = wb::block_size(a);
    auto* s = new state;
    a->state = s;
    const int64_t work = bulk(a) ? wb::ceil_div(n * 4, chunk_bytes) : wb::ceil_div(n / 4, loads * block);
    s->groups = std::max<int64_t>(1, std::min(chosen(a).resident_groups(a), work));
    HIP_CHECK(hipMalloc(&s->total, sizeof(int)));
    HIP_CHECK(hipMalloc(&s->finished, sizeof(unsigned)));
    HIP_CHECK(hipMemset(s->total, 0, sizeof(int)));
    HIP_CHECK(hipMemset(s->finished, 0, sizeof(unsigned)));
    wb::note(a, "work_groups=%lld", (long long)s->groups);
}

void run(wb_args* a)
{
    auto* s = wb::state<state>(a);
    chosen(a).launch(a, dim3(unsigned(s->groups)), wb::in<int>(a, 0), wb::out<int>(a, 0), size_t(wb::reduce::n(a)),
                     s->total, s->finished);
}

void release(wb_args* a)
{
    auto* s = wb::state<state>(a);
    if (!s) return;
    if (s->total) HIP_CHECK(hipFree(s->total));
    if (s->finished) HIP_CHECK(hipFree(s->finished));
    delete s;
}

} // namespace

WB_PLUGIN({.summary = "Hopper's ways to read: 8 loads in flight, L2 256-byte lines, bulk copies, an even split",
           .seed = "001: sub-group vector loads, tuned beyond plain loads (issue 16's study)",
           .kernels = {ways[0], ways[1], ways[2], ways[3], ways[4], ways[5]},
           .tunables = {wb::block_size, way},
           .prepare = prepare,
           .run = run,
           .release = release})
