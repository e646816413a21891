// The tuned variant. A work-group loads its tile of the input (with the halo, zeros
// outside the input: no checks in the loop) and the taps into LDS; each work-item computes R
// consecutive outputs from a window of R inputs kept in registers, so every input it reads
// serves R multiply-adds. The window rotates by unrolling, not by moving registers; taps are LDS
// broadcasts. Global memory moves in int4s both ways: the tile is loaded from a 16-byte boundary
// and the outputs are staged in LDS, then stored consecutively across the work-group.
#include "common.h"

// LDS index of tile element e: one spare word every 32, so that work-items reading elements R
// apart (R a power of two) hit 32 different banks. Four elements from a multiple of 4 stay adjacent.
__device__ __forceinline__ int spread(int e) { return e + (e >> 5); }

// Words of the tile: from the 16-byte boundary at or before the work-group's first input (up to 3
// words early) to the last input its windows read (R per work-item, the m - 1 of the halo, and the
// one the last step loads and never uses), rounded up to whole int4 loads.
__host__ __device__ inline int tile_words(int block, int r, int m) { return (block * r + m + 3 + 3) / 4 * 4; }

// One group of R taps from tap g: step s multiplies the whole window by tap g + s, then replaces
// the input that no tap after it needs. In the last group (`tail`) the steps stop at tap m.
template <int R, bool tail>
__device__ __forceinline__ void tap_group(int (&acc)[R], int (&w)[R], const int* k, const int* x, int e0, int g, int m)
{
#pragma unroll
    for (int s = 0; s < R; ++s) {
        if (tail && g + s >= m) return;
        const int kv = k[g + s];
#pragma unroll
        for (int r = 0; r < R; ++r) acc[r] += w[(r + s) % R] * kv; // w[(r + s) % R] holds input e0 + g + s + r
        w[s] = x[spread(e0 + g + s + R)];
    }
}

template <int R> __global__ void conv_tiled(const int* in, const int* taps, int* out, long long n, int m)
{
    HIP_DYNAMIC_SHARED(int, lds);
    int* k = lds;     // the m taps
    int* x = lds + m; // the tile, spread: x[spread(p)] holds input `aligned + p`, zero outside the input
    const long long base = (long long)blockIdx.x * blockDim.x * R; // the work-group's first output
    const long long aligned = (base - m / 2) & ~3LL;
    const int quads = tile_words(blockDim.x, R, m) / 4;
    for (int e = threadIdx.x; e < m; e += blockDim.x) k[e] = taps[e];
    for (int q = threadIdx.x; q < quads; q += blockDim.x) {
        const long long i = aligned + 4 * q;
        int4 v;
        if (i >= 0 && i + 4 <= n)
            v = reinterpret_cast<const int4*>(in)[i / 4]; // the harness's buffers are 256-byte aligned
        else {
            v.x = i >= 0 && i < n ? in[i] : 0;
            v.y = i + 1 >= 0 && i + 1 < n ? in[i + 1] : 0;
            v.z = i + 2 >= 0 && i + 2 < n ? in[i + 2] : 0;
            v.w = i + 3 >= 0 && i + 3 < n ? in[i + 3] : 0;
        }
        int* t = x + spread(4 * q);
        t[0] = v.x, t[1] = v.y, t[2] = v.z, t[3] = v.w;
    }
    __syncthreads();

    const int e0 = int(base - m / 2 - aligned) + threadIdx.x * R; // tile position of this work-item's window
    int acc[R], w[R];
#pragma unroll
    for (int r = 0; r < R; ++r) {
        acc[r] = 0;
        w[r] = x[spread(e0 + r)];
    }
    const int whole = m / R * R;
    for (int g = 0; g < whole; g += R) tap_group<R, false>(acc, w, k, x, e0, g, m);
    if (whole < m) tap_group<R, true>(acc, w, k, x, e0, whole, m);

    // Stage the outputs in the tile so that the stores are whole int4s, consecutive across work-items.
    __syncthreads();
#pragma unroll
    for (int r = 0; r < R; ++r) x[spread(threadIdx.x * R + r)] = acc[r];
    __syncthreads();
    for (int e = 4 * threadIdx.x; e < int(blockDim.x) * R; e += 4 * blockDim.x) {
        const int* t = x + spread(e);
        const long long o = base + e;
        if (o + 4 <= n)
            reinterpret_cast<int4*>(out)[o / 4] = make_int4(t[0], t[1], t[2], t[3]);
        else
            for (int c = 0; c < 4 && o + c < n; ++c) out[o + c] = t[c];
    }
}

static constexpr auto block = wb::block_size.with_default(64);
static constexpr auto outputs = wb::tunable::one_of("outputs", 16, {4, 8, 16}, "consecutive outputs per work-item (R)");
// The tile holds a word per output of the work-group, a spare every 32 and the halo: 16384 outputs
// need over 64 KiB of LDS, more than a work-group gets (48 KiB on NVIDIA without opting in, 64 KiB
// on the cpu platform and AMD before gfx950). Skipped before the plugin runs, with this reason.
static constexpr auto tile_fits =
    wb::require::product_at_most(block, outputs, 8192).because("a work-group's tile must fit in 64 KiB of LDS");

static int64_t lds_bytes(int r, int block, int m)
{
    const int64_t words = tile_words(block, r, m);
    return (m + words + words / 32 + 1) * int64_t(sizeof(int));
}

/// The taps and the tile of conv_tiled<R> in this configuration.
template <int R> int64_t lds_of(const wb_args* a) { return lds_bytes(R, int(block(a)), int(wb::conv::m(a))); }

/// conv_tiled<R> runs where outputs = R.
static const auto tiled_4 = WB_KERNEL(conv_tiled<4>, block).lds(lds_of<4>).when(outputs, 4);
static const auto tiled_8 = WB_KERNEL(conv_tiled<8>, block).lds(lds_of<8>).when(outputs, 8);
static const auto tiled_16 = WB_KERNEL(conv_tiled<16>, block).lds(lds_of<16>).when(outputs, 16);

static void prepare(wb_args* a)
{
    const int m = int(wb::conv::m(a));
    if (lds_bytes(int(outputs(a)), int(block(a)), m) > int64_t(wb::device().sharedMemPerBlock))
        throw wb::skip("the tile with m = " + std::to_string(m) + " taps needs more LDS than a work-group has");
}

static void run(wb_args* a)
{
    const common::problem p = common::of(a);
    const int64_t r = outputs(a); // outputs per work-item
    const common::per_output& k = r == 4 ? tiled_4 : r == 8 ? tiled_8 : tiled_16;
    if (p.n > 0) k.launch(a, dim3(unsigned(wb::ceil_div(p.n, k.block(a) * r))), p.in, p.taps, p.out, p.n, p.m);
}

WB_PLUGIN({.summary = "LDS tile with halo, R outputs per work-item from a register window, broadcast taps",
           .seed = "000: the convolution with no checks, tuned: shared local memory tiles, register reuse",
           .kernels = {tiled_4, tiled_8, tiled_16},
           .tunables = {block, outputs},
           .constraints = {tile_fits},
           .prepare = prepare,
           .run = run})
