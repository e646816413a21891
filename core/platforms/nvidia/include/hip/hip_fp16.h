// HIP's hip_fp16.h on CUDA: CUDA's __half, __half2, __half_raw, __half2_raw, `half` and `half2`
// are HIP's, with the same conversions, intrinsics and operators (cuda_fp16.h); here are the
// names HIP has and CUDA lacks.
#pragma once

#include <hip/hip_runtime.h>

#include <cuda_fp16.h>

#define HIP_FP_CONSTANTS_FP16
#include "../../../hip_fp_constants.h" // HIPRT_*_FP16

/// 1.0 in each lane that holds an infinity, else 0.0.
__host__ __device__ inline __half2 __hisinf2(const __half2 h)
{
    return __halves2half2(__hisinf(__low2half(h)) ? HIPRT_ONE_FP16 : HIPRT_ZERO_FP16,
                          __hisinf(__high2half(h)) ? HIPRT_ONE_FP16 : HIPRT_ZERO_FP16);
}
