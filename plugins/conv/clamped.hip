// The seed's third kernel. The loop bounds come from min/max of the output's
// position, so no work-item branches per tap (seed 000, "replacing conditional checks with
// relational functions").
#include "common.h"

__global__ void conv_clamped(const int* in, const int* k, int* out, long long n, int m)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x, h = m / 2;
    if (i >= n) return;
    const long long start_j = h - i > 0 ? h - i : 0, end_j = h + n - i < m ? h + n - i : m;
    const long long start_x = i - h > 0 ? i - h : 0;
    int t = 0;
    for (long long j = start_j, x = start_x; j < end_j; ++j, ++x) t += in[x] * k[j];
    out[i] = t;
}

static const auto kernel = WB_KERNEL(conv_clamped, wb::block_size);

static void run(wb_args* a) { common::launch_per_output(a, kernel, wb::in<int>(a, 0)); }

WB_PLUGIN({.summary = "one work-item per output; loop bounds from min/max instead of checks",
           .seed = "000: replacing conditional checks with relational functions (min, max)",
           .kernels = {kernel},
           .tunables = {wb::block_size},
           .run = run})
