// conv/tiled: the tuned variant. A work-group loads its tile of the input (with the halo, zeros
// outside the input: no checks in the loop) and the taps into LDS; each work-item computes R
// consecutive outputs from a window of R inputs kept in registers, so every input it reads
// serves R multiply-adds. The window rotates by unrolling, not by moving registers; taps are
// read R at a time as LDS broadcasts, padded with zeros to a whole number of groups.
#include "conv_common.h"

// LDS index of tile element e: one spare word every 32, so that work-items reading elements R
// apart (R a power of two) hit 32 different banks.
__device__ __forceinline__ int spread(int e) { return e + (e >> 5); }

__host__ __device__ inline int rounded_taps(int m, int r) { return (m + r - 1) / r * r; }

template <int R> __host__ __device__ inline int tile_span(int block, int m) { return block * R + rounded_taps(m, R) + R; }

template <int R> __global__ void conv_tiled(const int* in, const int* taps, int* out, long long n, int m)
{
    HIP_DYNAMIC_SHARED(int, lds);
    const int mp = rounded_taps(m, R), span = tile_span<R>(blockDim.x, m);
    int* k = lds;       // mp taps, zeros past m
    int* x = lds + mp;  // the tile: span inputs from `first`, spread
    const long long first = (long long)blockIdx.x * blockDim.x * R - m / 2;
    for (int e = threadIdx.x; e < mp; e += blockDim.x) k[e] = e < m ? taps[e] : 0;
    for (int e = threadIdx.x; e < span; e += blockDim.x) {
        const long long i = first + e;
        x[spread(e)] = i >= 0 && i < n ? in[i] : 0;
    }
    __syncthreads();

    const int e0 = threadIdx.x * R;
    int acc[R], w[R]; // w[(s + q) % R] holds input e0 + g + s + q during step s of group g
#pragma unroll
    for (int r = 0; r < R; ++r) {
        acc[r] = 0;
        w[r] = x[spread(e0 + r)];
    }
    for (int g = 0; g < mp; g += R) {
#pragma unroll
        for (int s = 0; s < R; ++s) {
            const int kv = k[g + s];
#pragma unroll
            for (int r = 0; r < R; ++r) acc[r] += w[(r + s) % R] * kv;
            w[s] = x[spread(e0 + g + s + R)]; // the input step s no longer needs makes way for the next
        }
    }
    const long long o = (long long)blockIdx.x * blockDim.x * R + e0;
#pragma unroll
    for (int r = 0; r < R; ++r)
        if (o + r < n) out[o + r] = acc[r];
}

static const int64_t outputs_allowed[] = {4, 8, 16};

static int64_t lds_bytes(int r, int block, int m)
{
    const int span = r == 4 ? tile_span<4>(block, m) : r == 8 ? tile_span<8>(block, m) : tile_span<16>(block, m);
    return int64_t(rounded_taps(m, r) + span + span / 32 + 1) * int64_t(sizeof(int));
}

static void prepare(wb_args* a)
{
    const conv::problem p = conv::of(a);
    const int64_t r = wb::param(a, "outputs"), block = wb::param(a, "block_size");
    int dev = 0;
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDevice(&dev));
    HIP_CHECK(hipGetDeviceProperties(&prop, dev));
    if (lds_bytes(int(r), int(block), p.m) > int64_t(prop.sharedMemPerBlock))
        throw wb::skip("the tile with m = " + std::to_string(p.m) + " taps needs more LDS than a work-group has");
}

template <int R> static void launch(wb_args* a)
{
    const conv::problem p = conv::of(a);
    const int block = int(wb::param(a, "block_size"));
    hipLaunchKernelGGL(HIP_KERNEL_NAME(conv_tiled<R>), dim3(unsigned(wb::ceil_div(p.n, int64_t(block) * R))),
                       dim3(unsigned(block)), size_t(lds_bytes(R, block, p.m)), wb::stream(a), p.in, p.taps, p.out, p.n,
                       p.m);
    HIP_CHECK(hipGetLastError());
}

static void run(wb_args* a)
{
    if (wb::param(a, "n") == 0) return;
    switch (wb::param(a, "outputs")) {
    case 4: return launch<4>(a);
    case 8: return launch<8>(a);
    default: return launch<16>(a);
    }
}

static int64_t dynamic_lds(const wb_args* a, uint32_t kernel)
{
    return lds_bytes(int(outputs_allowed[kernel]), int(wb::param(a, "block_size")), int(wb::param(a, "m")));
}

static const wb_kernel kernels[] = {
    wb::when(wb::kernel("conv_tiled<4>", conv_tiled<4>, "block_size"), "outputs", 4),
    wb::when(wb::kernel("conv_tiled<8>", conv_tiled<8>, "block_size"), "outputs", 8),
    wb::when(wb::kernel("conv_tiled<16>", conv_tiled<16>, "block_size"), "outputs", 16)};
static const wb_tunable tunables[] = {
    wb::tunable_pow2("block_size", 64, 32, 1024, "work-items per work-group"),
    {"outputs", 16, outputs_allowed, 3, 0, 0, 0, "consecutive outputs per work-item (R)"}};

WB_PLUGIN({.family = "conv",
           .variant = "tiled",
           .summary = "LDS tile with halo, R outputs per work-item from a register window, broadcast taps",
           .seed = "000: the convolution with no checks, tuned: shared local memory tiles, register reuse",
           .kernels = kernels,
           .tunables = tunables,
           .prepare = prepare,
           .run = run,
           .dynamic_lds = dynamic_lds})
