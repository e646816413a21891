// HIP's hip_complex.h on CUDA: hipFloatComplex and hipDoubleComplex are cuComplex.h's
// cuFloatComplex and cuDoubleComplex (float2 and double2, as on AMD), and HIP's functions are
// CUDA's, as HIP's own NVIDIA layer maps them. The numbers differ from AMD's where CUDA's are more
// careful: cuCdivf and cuCabsf scale their operands, so they do not overflow or underflow where
// |z|^2 does (HIP on AMD and the cpu platform divide by, and take the root of, the unscaled |z|^2).
#pragma once

#include <hip/hip_runtime.h>

#include <cuComplex.h>

typedef cuFloatComplex hipFloatComplex;
typedef cuDoubleComplex hipDoubleComplex;
typedef cuFloatComplex hipComplex;

__host__ __device__ inline hipFloatComplex make_hipFloatComplex(float re, float im)
{
    return make_cuFloatComplex(re, im);
}
__host__ __device__ inline hipDoubleComplex make_hipDoubleComplex(double re, double im)
{
    return make_cuDoubleComplex(re, im);
}
__host__ __device__ inline hipComplex make_hipComplex(float re, float im) { return make_cuComplex(re, im); }

__host__ __device__ inline float hipCrealf(hipFloatComplex z) { return cuCrealf(z); }
__host__ __device__ inline float hipCimagf(hipFloatComplex z) { return cuCimagf(z); }
__host__ __device__ inline hipFloatComplex hipConjf(hipFloatComplex z) { return cuConjf(z); }
__host__ __device__ inline hipFloatComplex hipCaddf(hipFloatComplex p, hipFloatComplex q) { return cuCaddf(p, q); }
__host__ __device__ inline hipFloatComplex hipCsubf(hipFloatComplex p, hipFloatComplex q) { return cuCsubf(p, q); }
__host__ __device__ inline hipFloatComplex hipCmulf(hipFloatComplex p, hipFloatComplex q) { return cuCmulf(p, q); }
__host__ __device__ inline hipFloatComplex hipCdivf(hipFloatComplex p, hipFloatComplex q) { return cuCdivf(p, q); }
__host__ __device__ inline float hipCabsf(hipFloatComplex z) { return cuCabsf(z); }
/// CUDA has no |z|^2; HIP's NVIDIA layer squares cuCabsf.
__host__ __device__ inline float hipCsqabsf(hipFloatComplex z) { return cuCabsf(z) * cuCabsf(z); }
__host__ __device__ inline hipComplex hipCfmaf(hipComplex p, hipComplex q, hipComplex r) { return cuCfmaf(p, q, r); }

__host__ __device__ inline double hipCreal(hipDoubleComplex z) { return cuCreal(z); }
__host__ __device__ inline double hipCimag(hipDoubleComplex z) { return cuCimag(z); }
__host__ __device__ inline hipDoubleComplex hipConj(hipDoubleComplex z) { return cuConj(z); }
__host__ __device__ inline hipDoubleComplex hipCadd(hipDoubleComplex p, hipDoubleComplex q) { return cuCadd(p, q); }
__host__ __device__ inline hipDoubleComplex hipCsub(hipDoubleComplex p, hipDoubleComplex q) { return cuCsub(p, q); }
__host__ __device__ inline hipDoubleComplex hipCmul(hipDoubleComplex p, hipDoubleComplex q) { return cuCmul(p, q); }
__host__ __device__ inline hipDoubleComplex hipCdiv(hipDoubleComplex p, hipDoubleComplex q) { return cuCdiv(p, q); }
__host__ __device__ inline double hipCabs(hipDoubleComplex z) { return cuCabs(z); }
__host__ __device__ inline double hipCsqabs(hipDoubleComplex z) { return cuCabs(z) * cuCabs(z); }
__host__ __device__ inline hipDoubleComplex hipCfma(hipDoubleComplex p, hipDoubleComplex q, hipDoubleComplex r)
{
    return cuCfma(p, q, r);
}

__host__ __device__ inline hipDoubleComplex hipComplexFloatToDouble(hipFloatComplex z)
{
    return cuComplexFloatToDouble(z);
}
__host__ __device__ inline hipFloatComplex hipComplexDoubleToFloat(hipDoubleComplex z)
{
    return cuComplexDoubleToFloat(z);
}
