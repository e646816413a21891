// HIP's hip_fp8.h on CUDA: the OCP formats. __hip_fp8_e4m3 and __hip_fp8_e5m2 (and their x2 and
// x4 forms) are CUDA's __nv_fp8_e4m3 and __nv_fp8_e5m2 (cuda_fp8.h); the __hip_cvt_* conversions
// call CUDA's __nv_cvt_*, whose rules differ from HIP's in two cases (see the cpu platform's
// hip_fp8.h). AMD's FNUZ formats (__hip_fp8_e4m3_fnuz, __hip_fp8_e5m2_fnuz, __HIP_E4M3_FNUZ,
// __HIP_E5M2_FNUZ) do not exist on NVIDIA GPUs and are left out: code that uses them does not
// compile here.
#pragma once

#include <hip/hip_runtime.h>

#include <hip/hip_bf16.h>
#include <hip/hip_fp16.h>

#include <cuda_fp8.h>

enum __hip_fp8_interpretation_t {
    __HIP_E4M3 = __NV_E4M3,
    __HIP_E5M2 = __NV_E5M2,
};
enum __hip_saturation_t {
    __HIP_NOSAT = __NV_NOSAT,
    __HIP_SATFINITE = __NV_SATFINITE,
};
typedef __nv_fp8_storage_t __hip_fp8_storage_t;
typedef __nv_fp8x2_storage_t __hip_fp8x2_storage_t;
typedef __nv_fp8x4_storage_t __hip_fp8x4_storage_t;

typedef __nv_fp8_e4m3 __hip_fp8_e4m3;
typedef __nv_fp8x2_e4m3 __hip_fp8x2_e4m3;
typedef __nv_fp8x4_e4m3 __hip_fp8x4_e4m3;
typedef __nv_fp8_e5m2 __hip_fp8_e5m2;
typedef __nv_fp8x2_e5m2 __hip_fp8x2_e5m2;
typedef __nv_fp8x4_e5m2 __hip_fp8x4_e5m2;

#define WB_NVIDIA_FP8_CVT(R, NAME, T)                                                                                  \
    __host__ __device__ inline R __hip_cvt_##NAME(const T x, const __hip_saturation_t sat,                             \
                                                  const __hip_fp8_interpretation_t interp)                             \
    {                                                                                                                  \
        return __nv_cvt_##NAME(x, __nv_saturation_t(sat), __nv_fp8_interpretation_t(interp));                          \
    }
WB_NVIDIA_FP8_CVT(__hip_fp8_storage_t, float_to_fp8, float)
WB_NVIDIA_FP8_CVT(__hip_fp8x2_storage_t, float2_to_fp8x2, float2)
WB_NVIDIA_FP8_CVT(__hip_fp8_storage_t, double_to_fp8, double)
WB_NVIDIA_FP8_CVT(__hip_fp8x2_storage_t, double2_to_fp8x2, double2)
WB_NVIDIA_FP8_CVT(__hip_fp8_storage_t, halfraw_to_fp8, __half_raw)
WB_NVIDIA_FP8_CVT(__hip_fp8x2_storage_t, halfraw2_to_fp8x2, __half2_raw)
WB_NVIDIA_FP8_CVT(__hip_fp8_storage_t, bfloat16raw_to_fp8, __hip_bfloat16_raw)
WB_NVIDIA_FP8_CVT(__hip_fp8x2_storage_t, bfloat16raw2_to_fp8x2, __hip_bfloat162_raw)
#undef WB_NVIDIA_FP8_CVT

__host__ __device__ inline __half_raw __hip_cvt_fp8_to_halfraw(const __hip_fp8_storage_t x,
                                                               const __hip_fp8_interpretation_t interp)
{
    return __nv_cvt_fp8_to_halfraw(x, __nv_fp8_interpretation_t(interp));
}
__host__ __device__ inline __half2_raw __hip_cvt_fp8x2_to_halfraw2(const __hip_fp8x2_storage_t x,
                                                                   const __hip_fp8_interpretation_t interp)
{
    return __nv_cvt_fp8x2_to_halfraw2(x, __nv_fp8_interpretation_t(interp));
}
