// The cpu platform's hip_complex.h: HIP's complex numbers, which are its vector types
// (hipFloatComplex is float2, hipDoubleComplex double2, so programs pass them where those are
// taken), and the functions on them. Each is computed by HIP's own formula in the type's precision:
// a quotient divides by |q|^2 and an absolute value is the square root of |z|^2, with no scaling,
// so they overflow (and underflow) where |z|^2 does, as on an AMD GPU (CUDA's cuCdivf and cuCabsf
// scale). hipCfmaf and hipCfma round each component's two products into fused multiply-adds, as
// GPU compilers compile HIP's definition.
#pragma once

#include <hip/hip_runtime.h>

#include <cmath>

typedef float2 hipFloatComplex;
typedef double2 hipDoubleComplex;
typedef hipFloatComplex hipComplex;

inline hipFloatComplex make_hipFloatComplex(float re, float im) { return make_float2(re, im); }
inline hipDoubleComplex make_hipDoubleComplex(double re, double im) { return make_double2(re, im); }
inline hipComplex make_hipComplex(float re, float im) { return make_float2(re, im); }

inline float hipCrealf(hipFloatComplex z) { return z.x; }
inline float hipCimagf(hipFloatComplex z) { return z.y; }
inline double hipCreal(hipDoubleComplex z) { return z.x; }
inline double hipCimag(hipDoubleComplex z) { return z.y; }

inline hipDoubleComplex hipComplexFloatToDouble(hipFloatComplex z) { return make_double2(z.x, z.y); }
inline hipFloatComplex hipComplexDoubleToFloat(hipDoubleComplex z) { return make_float2(float(z.x), float(z.y)); }

namespace hip_cpu_complex {
// Each operation once, for float2 and double2 (V).
template <class V> inline V conj(V z) { return V(z.x, -z.y); }
template <class V> inline V add(V p, V q) { return V(p.x + q.x, p.y + q.y); }
template <class V> inline V sub(V p, V q) { return V(p.x - q.x, p.y - q.y); }
template <class V> inline V mul(V p, V q) { return V(p.x * q.x - p.y * q.y, p.y * q.x + p.x * q.y); }
template <class V> inline typename V::value_type sqabs(V z) { return z.x * z.x + z.y * z.y; }
/// p / q = p * conj(q) / |q|^2, both components divided by the same unscaled |q|^2.
template <class V> inline V div(V p, V q)
{
    const typename V::value_type d = sqabs(q);
    return V((p.x * q.x + p.y * q.y) / d, (p.y * q.x - p.x * q.y) / d);
}
/// p * q + r: the real part (p.x q.x + r.x) - p.y q.y, the imaginary (q.x p.y + r.y) + p.x q.y, each
/// step one fused multiply-add.
template <class V> inline V fused(V p, V q, V r)
{
    return V(std::fma(-p.y, q.y, std::fma(p.x, q.x, r.x)), std::fma(p.x, q.y, std::fma(q.x, p.y, r.y)));
}
} // namespace hip_cpu_complex

inline hipFloatComplex hipConjf(hipFloatComplex z) { return hip_cpu_complex::conj(z); }
inline hipFloatComplex hipCaddf(hipFloatComplex p, hipFloatComplex q) { return hip_cpu_complex::add(p, q); }
inline hipFloatComplex hipCsubf(hipFloatComplex p, hipFloatComplex q) { return hip_cpu_complex::sub(p, q); }
inline hipFloatComplex hipCmulf(hipFloatComplex p, hipFloatComplex q) { return hip_cpu_complex::mul(p, q); }
inline hipFloatComplex hipCdivf(hipFloatComplex p, hipFloatComplex q) { return hip_cpu_complex::div(p, q); }
inline float hipCsqabsf(hipFloatComplex z) { return hip_cpu_complex::sqabs(z); }
inline float hipCabsf(hipFloatComplex z) { return std::sqrt(hip_cpu_complex::sqabs(z)); } // in float
inline hipComplex hipCfmaf(hipComplex p, hipComplex q, hipComplex r) { return hip_cpu_complex::fused(p, q, r); }

inline hipDoubleComplex hipConj(hipDoubleComplex z) { return hip_cpu_complex::conj(z); }
inline hipDoubleComplex hipCadd(hipDoubleComplex p, hipDoubleComplex q) { return hip_cpu_complex::add(p, q); }
inline hipDoubleComplex hipCsub(hipDoubleComplex p, hipDoubleComplex q) { return hip_cpu_complex::sub(p, q); }
inline hipDoubleComplex hipCmul(hipDoubleComplex p, hipDoubleComplex q) { return hip_cpu_complex::mul(p, q); }
inline hipDoubleComplex hipCdiv(hipDoubleComplex p, hipDoubleComplex q) { return hip_cpu_complex::div(p, q); }
inline double hipCsqabs(hipDoubleComplex z) { return hip_cpu_complex::sqabs(z); }
inline double hipCabs(hipDoubleComplex z) { return std::sqrt(hip_cpu_complex::sqabs(z)); }
inline hipDoubleComplex hipCfma(hipDoubleComplex p, hipDoubleComplex q, hipDoubleComplex r)
{
    return hip_cpu_complex::fused(p, q, r);
}
