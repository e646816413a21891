// The cpu platform's math library (included by hip_runtime.h): what HIP device code calls
// unqualified, for float and double, with the precision the GPUs give or better: the C and C++
// math library in the global namespace, HIP's own functions (rsqrtf, sinpif, norm3df, ...), the
// fast intrinsics (__expf, ...), and min and max. The special functions (erfinv, normcdfinv,
// erfcx, cyl_bessel_i0, ...) are in hip_cpu_math_special.h.
#pragma once

#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <type_traits>

// g++'s <cmath> declares the C functions (sqrtf, sqrt, expf, ...) in the global namespace, and
// the C++ overloads (sqrt(float), abs(long), isnan, signbit, ...) only in std. HIP declares those
// in the global namespace too, so that `sqrt(x)` of a float is float arithmetic, as on the GPU.
using std::abs;
using std::acos;
using std::acosh;
using std::asin;
using std::asinh;
using std::atan;
using std::atan2;
using std::atanh;
using std::cbrt;
using std::ceil;
using std::copysign;
using std::cos;
using std::cosh;
using std::erf;
using std::erfc;
using std::exp;
using std::exp2;
using std::expm1;
using std::fabs;
using std::fdim;
using std::floor;
using std::fma;
using std::fmax;
using std::fmin;
using std::fmod;
using std::fpclassify;
using std::frexp;
using std::hypot;
using std::ilogb;
using std::isfinite;
using std::isgreater;
using std::isgreaterequal;
using std::isinf;
using std::isless;
using std::islessequal;
using std::islessgreater;
using std::isnan;
using std::isnormal;
using std::isunordered;
using std::ldexp;
using std::lgamma;
using std::llrint;
using std::llround;
using std::log;
using std::log10;
using std::log1p;
using std::log2;
using std::logb;
using std::lrint;
using std::lround;
using std::modf;
using std::nearbyint;
using std::nextafter;
using std::pow;
using std::remainder;
using std::remquo;
using std::rint;
using std::round;
using std::scalbln;
using std::scalbn;
using std::signbit;
using std::sin;
using std::sinh;
using std::sqrt;
using std::tan;
using std::tanh;
using std::tgamma;
using std::trunc;

namespace hip_cpu_detail {
/// sin(pi x) and cos(pi x), the argument reduced exactly (x = 2k + q/2 + r, |r| <= 1/4): exact
/// zeros and ones at the integers and half-integers, sinpi(+-n) = +-0 and cospi(n + 1/2) = +0.
inline void sincospi(long double x, long double* s, long double* c)
{
    const long double pi = 3.141592653589793238462643383279502884L;
    if (!std::isfinite(x)) {
        *s = *c = x - x;
        return;
    }
    const long double y = std::fmod(x, 2.0L), q = std::nearbyint(2 * y), r = y - q / 2;
    const long double sr = r == 0 ? 0.0L : std::sin(pi * r), cr = r == 0 ? 1.0L : std::cos(pi * r);
    switch (int(q) & 3) {
    case 0:
        *s = sr, *c = cr;
        break;
    case 1:
        *s = cr, *c = -sr;
        break;
    case 2:
        *s = -sr, *c = -cr;
        break;
    default:
        *s = -cr, *c = sr;
        break;
    }
    if (*s == 0) *s = std::copysign(0.0L, x);
    if (*c == 0) *c = 0.0L;
}
/// sqrt(x[0]^2 + ... + x[n-1]^2) in long double (no overflow, error far below a double's ulp);
/// +inf when one of them is infinite, also beside a NaN.
template <class T> inline long double length(int n, const T* x)
{
    long double sum = 0;
    bool infinite = false;
    for (int i = 0; i < n; ++i) {
        infinite |= std::isinf(x[i]);
        sum += (long double)x[i] * x[i];
    }
    return infinite ? std::numeric_limits<long double>::infinity() : std::sqrt(sum);
}
} // namespace hip_cpu_detail

// ---- HIP's functions beyond the C library ---------------------------------------------------------
inline float rsqrtf(float x) { return float(1 / std::sqrt((long double)x)); }
inline double rsqrt(double x) { return double(1 / std::sqrt((long double)x)); }
inline float rcbrtf(float x) { return float(1 / std::cbrt((long double)x)); }
inline double rcbrt(double x) { return double(1 / std::cbrt((long double)x)); }
inline void sincospif(float x, float* s, float* c)
{
    long double ls, lc;
    hip_cpu_detail::sincospi(x, &ls, &lc);
    *s = float(ls), *c = float(lc);
}
inline void sincospi(double x, double* s, double* c)
{
    long double ls, lc;
    hip_cpu_detail::sincospi(x, &ls, &lc);
    *s = double(ls), *c = double(lc);
}
inline float sinpif(float x)
{
    float s, c;
    sincospif(x, &s, &c);
    return s;
}
inline float cospif(float x)
{
    float s, c;
    sincospif(x, &s, &c);
    return c;
}
inline double sinpi(double x)
{
    double s, c;
    sincospi(x, &s, &c);
    return s;
}
inline double cospi(double x)
{
    double s, c;
    sincospi(x, &s, &c);
    return c;
}
// Lengths of vectors and their reciprocals.
inline float normf(int dim, const float* a) { return float(hip_cpu_detail::length(dim, a)); }
inline double norm(int dim, const double* a) { return double(hip_cpu_detail::length(dim, a)); }
inline float rnormf(int dim, const float* a) { return float(1 / hip_cpu_detail::length(dim, a)); }
inline double rnorm(int dim, const double* a) { return double(1 / hip_cpu_detail::length(dim, a)); }
#define WB_CPU_NORMS(T, f)                                                                                             \
    inline T norm3d##f(T x, T y, T z)                                                                                  \
    {                                                                                                                  \
        const T v[] = {x, y, z};                                                                                       \
        return T(hip_cpu_detail::length(3, v));                                                                        \
    }                                                                                                                  \
    inline T norm4d##f(T x, T y, T z, T w)                                                                             \
    {                                                                                                                  \
        const T v[] = {x, y, z, w};                                                                                    \
        return T(hip_cpu_detail::length(4, v));                                                                        \
    }                                                                                                                  \
    inline T rnorm3d##f(T x, T y, T z)                                                                                 \
    {                                                                                                                  \
        const T v[] = {x, y, z};                                                                                       \
        return T(1 / hip_cpu_detail::length(3, v));                                                                    \
    }                                                                                                                  \
    inline T rnorm4d##f(T x, T y, T z, T w)                                                                            \
    {                                                                                                                  \
        const T v[] = {x, y, z, w};                                                                                    \
        return T(1 / hip_cpu_detail::length(4, v));                                                                    \
    }                                                                                                                  \
    inline T rhypot##f(T x, T y)                                                                                       \
    {                                                                                                                  \
        const T v[] = {x, y};                                                                                          \
        return T(1 / hip_cpu_detail::length(2, v));                                                                    \
    }
WB_CPU_NORMS(float, f)
WB_CPU_NORMS(double, )
#undef WB_CPU_NORMS
inline float fdividef(float x, float y) { return x / y; }
// HIP's integer powers, and pow with an int exponent in the argument's precision, as HIP has it.
inline float powif(float x, int n) { return float(std::pow((long double)x, n)); }
inline double powi(double x, int n) { return double(std::pow((long double)x, n)); }
inline float pow(float x, int n) { return powif(x, n); }
inline double pow(double x, int n) { return powi(x, n); }

// ---- fast intrinsics: here as precise as the library functions -------------------------------------------
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline void __sincosf(float x, float* s, float* c) { *s = std::sin(x), *c = std::cos(x); }
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return float(std::pow(10.0L, (long double)x)); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
/// x / y, except where CUDA documents the fast division's own result: for 2^126 < |y| < 2^128 it
/// is 0 (x times the reciprocal of y, which is below the normal range: a zero signed as x / y is,
/// and NaN for an infinite or NaN x). AMD's HIP divides exactly there (its __fdividef is x / y)
/// and documents nothing of that range.
inline float __fdividef(float x, float y)
{
    const float ay = std::fabs(y), two_126 = 1 / std::numeric_limits<float>::min();
    return ay > two_126 && ay <= std::numeric_limits<float>::max() ? x * std::copysign(0.0f, y) : x / y;
}
inline float __frsqrt_rn(float x) { return rsqrtf(x); }
/// x clamped to [+0, 1], as documented by CUDA and AMD: -0 gives +0, and NaN gives +0, as CUDA
/// documents and NVIDIA's saturation does (AMD's HIP returns a NaN, and documents nothing of it).
inline float __saturatef(float x) { return x > 0 ? (x < 1 ? x : 1.0f) : 0.0f; }

// ---- fmax and fmin, and max and min called unqualified as device code does ------------------------------
namespace hip_cpu_detail {
/// The larger of a and b (the smaller with `want_min`) as the GPUs give it (PTX's max and min; AMD's
/// v_max and v_min, whose operands the compiler quiets first, as LLVM's maxnum asks): a NaN operand,
/// quiet or signalling, gives the other operand, two NaNs a quiet NaN, and -0 < +0. The C library's
/// fmax and fmin give a NaN for a signalling one (IEEE 754-2008's maxNum).
template <class T> inline T gpu_max(T a, T b, bool want_min = false)
{
    if (a != a || b != b) return a != a ? (b != b ? a + b : b) : a;
    if (a == b) return std::signbit(a) == want_min ? a : b; // equal: only +0 and -0 differ
    return (a < b) == want_min ? a : b;
}
template <class A, class B>
using promoted_t = typename std::enable_if<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value,
                                           decltype(A() + B() + 0.0)>::type;
} // namespace hip_cpu_detail
// The C library's fmaxf, fminf, fmax and fmin are C functions that no overload can replace: the names
// are macros for these, in the global namespace and in std, over the same types as <cmath>'s.
inline float hip_cpu_fmaxf(float a, float b) { return hip_cpu_detail::gpu_max(a, b); }
inline float hip_cpu_fminf(float a, float b) { return hip_cpu_detail::gpu_max(a, b, true); }
inline float hip_cpu_fmax(float a, float b) { return hip_cpu_detail::gpu_max(a, b); }
inline float hip_cpu_fmin(float a, float b) { return hip_cpu_detail::gpu_max(a, b, true); }
inline double hip_cpu_fmax(double a, double b) { return hip_cpu_detail::gpu_max(a, b); }
inline double hip_cpu_fmin(double a, double b) { return hip_cpu_detail::gpu_max(a, b, true); }
inline long double hip_cpu_fmax(long double a, long double b) { return hip_cpu_detail::gpu_max(a, b); }
inline long double hip_cpu_fmin(long double a, long double b) { return hip_cpu_detail::gpu_max(a, b, true); }
template <class A, class B> inline hip_cpu_detail::promoted_t<A, B> hip_cpu_fmax(A a, B b)
{
    using T = hip_cpu_detail::promoted_t<A, B>;
    return hip_cpu_detail::gpu_max(T(a), T(b));
}
template <class A, class B> inline hip_cpu_detail::promoted_t<A, B> hip_cpu_fmin(A a, B b)
{
    using T = hip_cpu_detail::promoted_t<A, B>;
    return hip_cpu_detail::gpu_max(T(a), T(b), true);
}
namespace std {
using ::hip_cpu_fmax;
using ::hip_cpu_fmaxf;
using ::hip_cpu_fmin;
using ::hip_cpu_fminf;
} // namespace std
#define fmaxf hip_cpu_fmaxf
#define fminf hip_cpu_fminf
#define fmax hip_cpu_fmax
#define fmin hip_cpu_fmin

// Same-type integers compare as that type, floating point as fmax and fmin. Two different
// arithmetic types compare as double and give a double, as HIP's overloads do (CUDA instead
// converts a signed integer to the unsigned type: give both arguments one type where that matters).
#define WB_CPU_MIN_MAX(T)                                                                                              \
    inline T max(T a, T b) { return a > b ? a : b; }                                                                   \
    inline T min(T a, T b) { return a < b ? a : b; }
WB_CPU_MIN_MAX(char)
WB_CPU_MIN_MAX(signed char)
WB_CPU_MIN_MAX(unsigned char)
WB_CPU_MIN_MAX(short)
WB_CPU_MIN_MAX(unsigned short)
WB_CPU_MIN_MAX(int)
WB_CPU_MIN_MAX(unsigned)
WB_CPU_MIN_MAX(long)
WB_CPU_MIN_MAX(unsigned long)
WB_CPU_MIN_MAX(long long)
WB_CPU_MIN_MAX(unsigned long long)
#undef WB_CPU_MIN_MAX
inline float max(float a, float b) { return hip_cpu_detail::gpu_max(a, b); }
inline float min(float a, float b) { return hip_cpu_detail::gpu_max(a, b, true); }
inline double max(double a, double b) { return hip_cpu_detail::gpu_max(a, b); }
inline double min(double a, double b) { return hip_cpu_detail::gpu_max(a, b, true); }
namespace hip_cpu_detail {
template <class A, class B>
using mixed_t =
    typename std::enable_if<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value && !std::is_same<A, B>::value,
                            double>::type;
} // namespace hip_cpu_detail
template <class A, class B> inline hip_cpu_detail::mixed_t<A, B> max(A a, B b)
{
    return hip_cpu_detail::gpu_max(double(a), double(b));
}
template <class A, class B> inline hip_cpu_detail::mixed_t<A, B> min(A a, B b)
{
    return hip_cpu_detail::gpu_max(double(a), double(b), true);
}

#include <hip/hip_cpu_math_special.h>
