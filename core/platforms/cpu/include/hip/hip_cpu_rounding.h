// The cpu platform's arithmetic and conversions with an explicit rounding mode (included by
// device_functions.h): __fadd_rd ... __dsqrt_ru, __float2int_rn ... __ull2double_rz. Results are
// rounded exactly as the name says, as on the GPUs. A directed rounding runs the operation with
// the host's floating-point unit set to that mode (fesetround); its operands pass through
// volatile variables, so the compiler can neither fold it nor move it outside the mode change.
// Float-to-integer conversions saturate to the integer's range and take NaN to 0, as the GPUs'
// conversion instructions do.
#pragma once

#include <hip/hip_runtime.h>

#include <cfenv>
#include <limits>

namespace hip_cpu_detail {
template <class T> inline T through_volatile(T x)
{
    volatile T v = x;
    return v;
}
/// f(args...) evaluated in rounding mode `mode` (FE_DOWNWARD ...); the caller's mode is restored.
template <class F, class... A> inline auto rounded(int mode, F f, A... args) -> decltype(f(args...))
{
    const int saved = std::fegetround();
    std::fesetround(mode);
    volatile decltype(f(args...)) r = f(through_volatile(args)...);
    std::fesetround(saved);
    return r;
}
struct op_add {
    template <class T> T operator()(T x, T y) const { return x + y; }
};
struct op_sub {
    template <class T> T operator()(T x, T y) const { return x - y; }
};
struct op_mul {
    template <class T> T operator()(T x, T y) const { return x * y; }
};
struct op_div {
    template <class T> T operator()(T x, T y) const { return x / y; }
};
struct op_rcp {
    template <class T> T operator()(T x) const { return T(1) / x; }
};
struct op_sqrt {
    template <class T> T operator()(T x) const { return std::sqrt(x); }
};
struct op_fma {
    template <class T> T operator()(T x, T y, T z) const { return std::fma(x, y, z); }
};
template <class F> struct op_convert {
    template <class T> F operator()(T x) const { return F(x); }
};
/// An integral value v converted as the GPUs convert: saturated to I's range, NaN to 0.
template <class I, class F> inline I saturate(F v)
{
    if (v != v) return 0;
    if (v <= F(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
    if (v >= F(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max(); // F(max) is max or rounds up
    return I(v);
}
} // namespace hip_cpu_detail

#define WB_CPU_UNPAREN(...) __VA_ARGS__
// name_rn, name_rz, name_rd, name_ru: OP applied to ARGS (the parameters PARAMS) in that mode.
#define WB_CPU_ROUNDED(T, name, OP, PARAMS, ARGS)                                                                      \
    inline T name##_rn PARAMS { return OP() ARGS; }                                                                    \
    inline T name##_rz PARAMS { return hip_cpu_detail::rounded(FE_TOWARDZERO, OP(), WB_CPU_UNPAREN ARGS); }            \
    inline T name##_rd PARAMS { return hip_cpu_detail::rounded(FE_DOWNWARD, OP(), WB_CPU_UNPAREN ARGS); }              \
    inline T name##_ru PARAMS { return hip_cpu_detail::rounded(FE_UPWARD, OP(), WB_CPU_UNPAREN ARGS); }
#define WB_CPU_ROUNDED_ARITHMETIC(T, add, sub, mul, div, fma, rcp, sqrt)                                               \
    WB_CPU_ROUNDED(T, add, hip_cpu_detail::op_add, (T x, T y), (x, y))                                                 \
    WB_CPU_ROUNDED(T, sub, hip_cpu_detail::op_sub, (T x, T y), (x, y))                                                 \
    WB_CPU_ROUNDED(T, mul, hip_cpu_detail::op_mul, (T x, T y), (x, y))                                                 \
    WB_CPU_ROUNDED(T, div, hip_cpu_detail::op_div, (T x, T y), (x, y))                                                 \
    WB_CPU_ROUNDED(T, fma, hip_cpu_detail::op_fma, (T x, T y, T z), (x, y, z))                                         \
    WB_CPU_ROUNDED(T, rcp, hip_cpu_detail::op_rcp, (T x), (x))                                                         \
    WB_CPU_ROUNDED(T, sqrt, hip_cpu_detail::op_sqrt, (T x), (x))
WB_CPU_ROUNDED_ARITHMETIC(float, __fadd, __fsub, __fmul, __fdiv, __fmaf, __frcp, __fsqrt)
WB_CPU_ROUNDED_ARITHMETIC(double, __dadd, __dsub, __dmul, __ddiv, __fma, __drcp, __dsqrt)

// Integer to floating point, and double to float.
#define WB_CPU_CONVERT(I, F, name) WB_CPU_ROUNDED(F, name, hip_cpu_detail::op_convert<F>, (I x), (x))
WB_CPU_CONVERT(int, float, __int2float)
WB_CPU_CONVERT(unsigned, float, __uint2float)
WB_CPU_CONVERT(long long, float, __ll2float)
WB_CPU_CONVERT(unsigned long long, float, __ull2float)
WB_CPU_CONVERT(long long, double, __ll2double)
WB_CPU_CONVERT(unsigned long long, double, __ull2double)
WB_CPU_CONVERT(double, float, __double2float)
inline double __int2double_rn(int x) { return x; }
inline double __uint2double_rn(unsigned x) { return x; }

// Floating point to integer: the value rounded to an integer in the mode, then saturated.
#define WB_CPU_TO_INTEGER(F, I, name)                                                                                  \
    inline I name##_rn(F x) { return hip_cpu_detail::saturate<I>(std::nearbyint(x)); }                                 \
    inline I name##_rz(F x) { return hip_cpu_detail::saturate<I>(std::trunc(x)); }                                     \
    inline I name##_rd(F x) { return hip_cpu_detail::saturate<I>(std::floor(x)); }                                     \
    inline I name##_ru(F x) { return hip_cpu_detail::saturate<I>(std::ceil(x)); }
WB_CPU_TO_INTEGER(float, int, __float2int)
WB_CPU_TO_INTEGER(float, unsigned, __float2uint)
WB_CPU_TO_INTEGER(float, long long, __float2ll)
WB_CPU_TO_INTEGER(float, unsigned long long, __float2ull)
WB_CPU_TO_INTEGER(double, int, __double2int)
WB_CPU_TO_INTEGER(double, unsigned, __double2uint)
WB_CPU_TO_INTEGER(double, long long, __double2ll)
WB_CPU_TO_INTEGER(double, unsigned long long, __double2ull)

#undef WB_CPU_TO_INTEGER
#undef WB_CPU_CONVERT
#undef WB_CPU_ROUNDED_ARITHMETIC
#undef WB_CPU_ROUNDED
#undef WB_CPU_UNPAREN
