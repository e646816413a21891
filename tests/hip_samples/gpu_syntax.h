// The kernels of gpu_syntax.hip, in a header as GPU codebases keep them: dynamic shared memory
// declared `extern __shared__` here, and a launch written in a macro.
#pragma once

#include <hip/hip_runtime.h>

/// Reverses each block's slice of `in` through dynamic shared memory, scaled by `Scale`.
template <int Block, int Scale> __global__ void reverse_scaled(const int* in, int* out)
{
    extern __shared__ int staged[];
    const unsigned i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x; // HIP's older spellings
    staged[threadIdx.x] = in[i] * Scale;
    __syncthreads();
    out[i] = staged[Block - 1 - threadIdx.x];
}

#define LAUNCH_REVERSE(blocks, in, out) reverse_scaled<64, 3><<<(blocks), 64, 64 * sizeof(int)>>>((in), (out))
