// The cpu platform's special functions beyond the C library (included by math_functions.h):
// erfinv, erfcinv, normcdf, normcdfinv, erfcx, cyl_bessel_i0 and cyl_bessel_i1, with their float
// forms. Each is computed in long double and rounded once, to within an ulp or so of the exact
// value (the GPUs' libraries promise 2 to 8 ulp).
#pragma once

#include <hip/hip_runtime.h>

#include <cmath>
#include <limits>

namespace hip_cpu_detail {
constexpr long double two_over_sqrt_pi = 1.1283791670955125738961589031215452L;
constexpr long double sqrt2 = 1.4142135623730950488016887242096981L;
inline long double nan_ld() { return std::numeric_limits<long double>::quiet_NaN(); }
inline long double inf_ld() { return std::numeric_limits<long double>::infinity(); }

/// erf^-1(y) for |y| <= 1/2, by Newton's method on erf. The start, y sqrt(pi) / 2, lies between 0
/// and the root, and erf is concave there, so the iterates move monotonically to the root.
inline long double erfinv_central(long double y)
{
    long double x = y / two_over_sqrt_pi;
    for (int i = 0; i < 40; ++i) {
        const long double step = (std::erf(x) - y) / (two_over_sqrt_pi * std::exp(-x * x));
        x -= step;
        if (!(std::fabs(step) > std::fabs(x) * 1e-18L)) break;
    }
    return x;
}
/// erfc^-1(z) for 0 < z <= 1/2, by Newton's method on log(erfc(x)) - log(z), which is concave and
/// decreasing: from either side of the root the iterates end up decreasing to it, and erfc keeps
/// its relative precision where erf(x) would round to 1.
inline long double erfcinv_tail(long double z)
{
    const long double log_z = std::log(z);
    long double x = std::sqrt(-log_z);
    for (int i = 0; i < 100; ++i) {
        const long double e = std::erfc(x);
        const long double step = (std::log(e) - log_z) * e / (-two_over_sqrt_pi * std::exp(-x * x));
        x -= step;
        if (!(std::fabs(step) > x * 1e-18L)) break;
    }
    return x;
}
inline long double erfinv(long double y)
{
    if (std::isnan(y) || std::fabs(y) > 1) return nan_ld();
    if (std::fabs(y) == 1) return std::copysign(inf_ld(), y);
    if (std::fabs(y) <= 0.5L) return erfinv_central(y);
    return std::copysign(erfcinv_tail(1 - std::fabs(y)), y); // 1 - |y| is exact
}
inline long double erfcinv(long double z)
{
    if (!(z >= 0 && z <= 2)) return nan_ld();
    if (z == 0) return inf_ld();
    if (z == 2) return -inf_ld();
    if (z > 1.5L) return -erfcinv_tail(2 - z); // 2 - z and 1 - z are exact
    if (z >= 0.5L) return erfinv_central(1 - z);
    return erfcinv_tail(z);
}
/// exp(x^2) erfc(x): directly while erfc does not underflow (long double reaches 1e-4951), with
/// the rounding error of x^2 put back; beyond, the asymptotic series (1/(x sqrt(pi))) sum_k
/// (-1)^k (2k-1)!! / (2x^2)^k, whose terms fall below 1e-28 by k = 10.
inline long double erfcx(long double x)
{
    if (std::isnan(x)) return x;
    if (std::isinf(x)) return x > 0 ? 0 : inf_ld();
    if (x < 50) {
        const long double xx = x * x, lost = std::fma(x, x, -xx);
        return std::exp(xx) * (1 + lost) * std::erfc(x);
    }
    long double sum = 1, term = 1;
    for (int k = 1; k <= 10; ++k) sum += term *= -(2 * k - 1) / (2 * x * x);
    return sum / (x / two_over_sqrt_pi * 2);
}
/// The modified Bessel functions I0 and I1 by their power series, whose terms are all positive:
/// (x/2)^(2k + n) / (k! (k + n)!). Above |x| = 720 both overflow a double.
inline long double bessel_i(int n, long double x)
{
    if (std::isnan(x)) return x;
    const long double ax = std::fabs(x);
    if (ax > 720) return n == 1 ? std::copysign(inf_ld(), x) : inf_ld();
    const long double q = ax * ax / 4;
    long double term = n == 0 ? 1 : ax / 2, sum = term;
    for (int k = 1; k < 3000 && term > sum * 1e-21L; ++k) sum += term *= q / ((long double)k * (k + n));
    return n == 1 ? std::copysign(sum, x) : sum;
}
} // namespace hip_cpu_detail

#define WB_CPU_SPECIAL(name, expr)                                                                                     \
    inline float name##f(float x) { return float(expr); }                                                              \
    inline double name(double x) { return double(expr); }
WB_CPU_SPECIAL(erfinv, hip_cpu_detail::erfinv(x))
WB_CPU_SPECIAL(erfcinv, hip_cpu_detail::erfcinv(x))
WB_CPU_SPECIAL(erfcx, hip_cpu_detail::erfcx(x))
WB_CPU_SPECIAL(normcdf, std::erfc(-x / hip_cpu_detail::sqrt2) / 2)
WB_CPU_SPECIAL(normcdfinv, -hip_cpu_detail::sqrt2* hip_cpu_detail::erfcinv(2 * (long double)x))
WB_CPU_SPECIAL(cyl_bessel_i0, hip_cpu_detail::bessel_i(0, x))
WB_CPU_SPECIAL(cyl_bessel_i1, hip_cpu_detail::bessel_i(1, x))
#undef WB_CPU_SPECIAL
