// The seed's first kernel. One work-item per output; the work-groups that reach
// an edge of the input check each tap's bounds with nested if/else, the others run the plain loop
// (seed 000; the seed checks only the first and the N/256 - 1-th group, which is right only when
// N is a multiple of 256: here every group within m/2 of an edge is checked).
#include "common.h"

__global__ void conv_conditional(const int* in, const int* k, int* out, long long n, int m)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x, h = m / 2;
    const long long first = (long long)blockIdx.x * blockDim.x, last = first + blockDim.x - 1;
    if (i >= n) return;
    int t = 0;
    if (first < h || last + h >= n) {
        if (i < h) { // the window starts before the input (and may also end after it)
            for (long long j = h - i, x = 0; j < m && x < n; ++j, ++x) t += in[x] * k[j];
        } else if (i + h >= n) { // the window ends after the input
            for (long long j = 0, x = i - h; j < h + n - i; ++j, ++x) t += in[x] * k[j];
        } else {
            for (long long j = 0, x = i - h; j < m; ++j, ++x) t += in[x] * k[j];
        }
    } else {
        for (long long j = 0, x = i - h; j < m; ++j, ++x) t += in[x] * k[j];
    }
    out[i] = t;
}

static const auto kernel = WB_KERNEL(conv_conditional, wb::block_size);

static void run(wb_args* a) { common::launch_per_output(a, kernel, wb::in<int>(a, 0)); }

WB_PLUGIN({.summary = "one work-item per output; edge work-groups check bounds with nested if/else",
           .seed = "000: convolution with nested conditional checks for the first and last work-groups",
           .kernels = {kernel},
           .tunables = {wb::block_size},
           .run = run})
