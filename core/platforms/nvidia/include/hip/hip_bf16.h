// HIP's hip_bf16.h on CUDA: __hip_bfloat16 and __hip_bfloat162 are CUDA's __nv_bfloat16 and
// __nv_bfloat162 (cuda_bf16.h), whose conversions, intrinsics and operators have HIP's names
// (__float2bfloat16, __hadd, h2sqrt, ...); here are the type names and what else HIP has and CUDA
// lacks.
#pragma once

#include <hip/hip_runtime.h>

#include <cuda_bf16.h>

typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;
typedef __nv_bfloat16_raw __hip_bfloat16_raw;
typedef __nv_bfloat162_raw __hip_bfloat162_raw;

#define HIP_FP_CONSTANTS_BF16
#include "../../../hip_fp_constants.h" // HIPRT_*_BF16

/// 1.0 in each lane that holds an infinity, else 0.0.
__host__ __device__ inline __hip_bfloat162 __hisinf2(const __hip_bfloat162 h)
{
    return __halves2bfloat162(__hisinf(__low2bfloat16(h)) ? HIPRT_ONE_BF16 : HIPRT_ZERO_BF16,
                              __hisinf(__high2bfloat16(h)) ? HIPRT_ONE_BF16 : HIPRT_ZERO_BF16);
}
