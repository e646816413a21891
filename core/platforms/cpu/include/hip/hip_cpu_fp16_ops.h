// The cpu platform's arithmetic on 16-bit floating-point types, shared by __half and __half2
// (hip_fp16.h) and __hip_bfloat16 and __hip_bfloat162 (hip_bf16.h): HIP's __hadd ... __hmax2 and
// the operators. Each operation is computed in float (fma in double) and rounded once: float holds
// the exact sum, difference and product of two halves or bfloat16s, and its quotient rounded to
// 24 bits rounds to the same 11 or 8 bits as the exact one (24 >= 2 * 11 + 2). Each intrinsic takes
// its type from its first argument; the others convert to it, as HIP's overloads convert.
#pragma once

#include <hip/hip_runtime.h>

#include <hip/hip_cpu_fp_round.h>

namespace hip_cpu_fp {

/// The 16-bit types: hip_fp16.h and hip_bf16.h specialize it with `format` (half_format, bf16_format).
template <class T> struct scalar16 {
    static constexpr bool value = false;
};
/// Their pairs: specialized with `elem`, the type of the members x and y.
template <class T> struct pair16 {
    static constexpr bool value = false;
};
template <class T> struct id {
    using type = T;
};
template <class T> using same = typename id<T>::type; // a parameter that takes its type from another one
template <class T> using if_arithmetic = typename std::enable_if<std::is_arithmetic<T>::value, int>::type;
template <class T> using if_floating = typename std::enable_if<std::is_floating_point<T>::value, int>::type;
template <class T> using if_integral = typename std::enable_if<std::is_integral<T>::value, int>::type;
/// A class other than S that converts to double (hip_bfloat16 through its operator float, ...) but
/// not to S: S (__half, __hip_bfloat16) is made from its value, as ROCm's are (explicitly: `S(x)`,
/// `static_cast<S>(x)`), so that `S h = 1;` and `S(2.0)` still take the arithmetic constructors.
template <class T, class S>
using if_class_value = typename std::enable_if<std::is_class<T>::value && !std::is_same<T, S>::value &&
                                                   std::is_convertible<const T&, double>::value &&
                                                   !std::is_convertible<const T&, S>::value,
                                               int>::type;
template <class T, class R = T> using if_scalar = typename std::enable_if<scalar16<T>::value, R>::type;
template <class T, class R = T> using if_pair = typename std::enable_if<pair16<T>::value, R>::type;

template <class T> inline uint16_t bits(T h) { return __builtin_bit_cast(uint16_t, h); }
template <class T> inline T of_bits(uint32_t b) { return __builtin_bit_cast(T, uint16_t(b)); }
template <class T> inline float value(T h) { return scalar16<T>::format::to_float(bits(h)); }

/// v rounded to nearest even in format F: float (the fast paths), double, an integer.
template <class F> inline uint16_t round_rn(float v)
{
    return std::is_same<F, half_format>::value ? float_to_half_rn(v) : float_to_bf16_rn(v);
}
template <class F> inline uint16_t round_rn(double v) { return uint16_t(F::from_double(v, round_mode::rn)); }
template <class F> inline uint16_t round_rn(long double v) { return round_rn<F>(double(v)); }
template <class F> inline uint16_t round_rn(bool v) { return round_rn<F>(v ? 1.0f : 0.0f); }
template <class F, class I, class = typename std::enable_if<std::is_integral<I>::value>::type>
inline uint16_t round_rn(I v)
{
    return uint16_t(F::from_exact(exact_of_integer(v), round_mode::rn));
}
template <class T, class V> inline T rn(V v) { return of_bits<T>(round_rn<typename scalar16<T>::format>(v)); }

/// The value of a 16-bit float as an integer type, truncated as C++ does (HIP's conversion
/// operators), saturating, NaN giving 0.
template <class I> inline I to_integer(float f)
{
    return std::is_same<I, bool>::value ? I(f != 0) : float_to_integer<I>(f, round_mode::rz);
}

/// a * b + c rounded once to format F. a, b, c hold values of F, so a * b is exact in double; the
/// sum is made exact enough by rounding it to odd (the error from TwoSum decides the last bit),
/// which rounds to the same 11 or 8 bits as the exact value.
template <class F> inline uint16_t fma_round(double a, double b, double c)
{
    const double p = a * b, s = p + c;
    if (s - s != 0 || s == 0) return uint16_t(F::from_double(s, round_mode::rn)); // inf, NaN, exact zero
    const double t = s - p, err = (p - (s - t)) + (c - t);
    uint64_t sb = double_bits(s);
    if (err != 0 && (sb & 1) == 0) sb += (err > 0) == (s > 0) ? 1 : -1; // to the odd neighbour toward the exact sum
    return uint16_t(F::from_double(__builtin_bit_cast(double, sb), round_mode::rn));
}

template <class T> inline bool is_nan(T h) { return (bits(h) & 0x7fff) > scalar16<T>::format::inf; }
template <class T> inline T canonical_nan() { return of_bits<T>(0x7fff); }
template <class T> inline T saturate(T h)
{
    const float f = value(h);
    return f > 0 ? (f < 1 ? h : rn<T>(1.0f)) : of_bits<T>(0); // NaN and negatives give +0
}
template <class T> inline T relu(T h) { return is_nan(h) ? canonical_nan<T>() : value(h) < 0 ? of_bits<T>(0) : h; }
/// max, or min with `want_min`: NaN loses to a number (fmax), +0 beats -0.
template <class T> inline T pick(T a, T b, bool want_min)
{
    if (is_nan(a) || is_nan(b)) return is_nan(a) && is_nan(b) ? canonical_nan<T>() : is_nan(a) ? b : a;
    const float fa = value(a), fb = value(b);
    if (fa == fb) return ((bits(a) >> 15) != 0) == want_min ? a : b; // only zeros differ: -0 for min
    return (fa < fb) == want_min ? a : b;
}
template <class T> inline T one_if(bool c) { return rn<T>(c ? 1.0f : 0.0f); }

/// Rounds to an integer, ties to even, whatever the host's rounding mode.
inline double rint_even(double x)
{
    const double fl = __builtin_floor(x), frac = x - fl;
    return frac > 0.5 || (frac == 0.5 && __builtin_fmod(fl, 2.0) != 0) ? fl + 1 : fl;
}

/// The operators of a 16-bit type T: friends found through T (as HIP's are), so that a mixed
/// expression such as h + 1.0f is ambiguous as it is with HIP, instead of silently using float.
template <class T> struct scalar_operators {
    friend T operator+(const T& a, const T& b) { return rn<T>(value(a) + value(b)); }
    friend T operator-(const T& a, const T& b) { return rn<T>(value(a) - value(b)); }
    friend T operator*(const T& a, const T& b) { return rn<T>(value(a) * value(b)); }
    friend T operator/(const T& a, const T& b) { return rn<T>(value(a) / value(b)); }
    friend T& operator+=(T& a, const T& b) { return a = a + b; }
    friend T& operator-=(T& a, const T& b) { return a = a - b; }
    friend T& operator*=(T& a, const T& b) { return a = a * b; }
    friend T& operator/=(T& a, const T& b) { return a = a / b; }
    friend T& operator++(T& a) { return a = a + rn<T>(1.0f); }
    friend T& operator--(T& a) { return a = a - rn<T>(1.0f); }
    friend T operator++(T& a, int)
    {
        const T old = a;
        ++a;
        return old;
    }
    friend T operator--(T& a, int)
    {
        const T old = a;
        --a;
        return old;
    }
    friend T operator+(const T& a) { return a; }
    friend T operator-(const T& a) { return of_bits<T>(bits(a) ^ 0x8000u); }
    friend bool operator==(const T& a, const T& b) { return value(a) == value(b); }
    friend bool operator!=(const T& a, const T& b) { return value(a) != value(b); }
    friend bool operator<(const T& a, const T& b) { return value(a) < value(b); }
    friend bool operator>(const T& a, const T& b) { return value(a) > value(b); }
    friend bool operator<=(const T& a, const T& b) { return value(a) <= value(b); }
    friend bool operator>=(const T& a, const T& b) { return value(a) >= value(b); }
};

/// The operators of a pair type T2, lane by lane. A comparison holds when it holds in both lanes;
/// != is the negation of == (as HIP has it).
template <class T2> struct pair_operators {
    friend T2 operator+(const T2& a, const T2& b) { return T2(a.x + b.x, a.y + b.y); }
    friend T2 operator-(const T2& a, const T2& b) { return T2(a.x - b.x, a.y - b.y); }
    friend T2 operator*(const T2& a, const T2& b) { return T2(a.x * b.x, a.y * b.y); }
    friend T2 operator/(const T2& a, const T2& b) { return T2(a.x / b.x, a.y / b.y); }
    friend T2& operator+=(T2& a, const T2& b) { return a = a + b; }
    friend T2& operator-=(T2& a, const T2& b) { return a = a - b; }
    friend T2& operator*=(T2& a, const T2& b) { return a = a * b; }
    friend T2& operator/=(T2& a, const T2& b) { return a = a / b; }
    friend T2& operator++(T2& a)
    {
        ++a.x, ++a.y;
        return a;
    }
    friend T2& operator--(T2& a)
    {
        --a.x, --a.y;
        return a;
    }
    friend T2 operator++(T2& a, int)
    {
        const T2 old = a;
        ++a;
        return old;
    }
    friend T2 operator--(T2& a, int)
    {
        const T2 old = a;
        --a;
        return old;
    }
    friend T2 operator+(const T2& a) { return a; }
    friend T2 operator-(const T2& a) { return T2(-a.x, -a.y); }
    friend bool operator==(const T2& a, const T2& b) { return a.x == b.x && a.y == b.y; }
    friend bool operator!=(const T2& a, const T2& b) { return !(a == b); }
    friend bool operator<(const T2& a, const T2& b) { return a.x < b.x && a.y < b.y; }
    friend bool operator>(const T2& a, const T2& b) { return a.x > b.x && a.y > b.y; }
    friend bool operator<=(const T2& a, const T2& b) { return a.x <= b.x && a.y <= b.y; }
    friend bool operator>=(const T2& a, const T2& b) { return a.x >= b.x && a.y >= b.y; }
};

} // namespace hip_cpu_fp

// ---- scalar arithmetic ----------------------------------------------------------------------------
#define WB_CPU_H16_BINARY(name, expr)                                                                                  \
    template <class T> inline hip_cpu_fp::if_scalar<T> name(T a, hip_cpu_fp::same<T> b)                                \
    {                                                                                                                  \
        using namespace hip_cpu_fp;                                                                                    \
        return expr;                                                                                                   \
    }
WB_CPU_H16_BINARY(__hadd, rn<T>(value(a) + value(b)))
WB_CPU_H16_BINARY(__hsub, rn<T>(value(a) - value(b)))
WB_CPU_H16_BINARY(__hmul, rn<T>(value(a) * value(b)))
WB_CPU_H16_BINARY(__hdiv, rn<T>(value(a) / value(b)))
WB_CPU_H16_BINARY(__hadd_rn, __hadd(a, b)) // the _rn forms only forbid contraction into an fma
WB_CPU_H16_BINARY(__hsub_rn, __hsub(a, b))
WB_CPU_H16_BINARY(__hmul_rn, __hmul(a, b))
WB_CPU_H16_BINARY(__hadd_sat, saturate(__hadd(a, b)))
WB_CPU_H16_BINARY(__hsub_sat, saturate(__hsub(a, b)))
WB_CPU_H16_BINARY(__hmul_sat, saturate(__hmul(a, b)))
WB_CPU_H16_BINARY(__hmax, pick(a, b, false))
WB_CPU_H16_BINARY(__hmin, pick(a, b, true))
WB_CPU_H16_BINARY(__hmax_nan, is_nan(a) || is_nan(b) ? canonical_nan<T>() : pick(a, b, false))
WB_CPU_H16_BINARY(__hmin_nan, is_nan(a) || is_nan(b) ? canonical_nan<T>() : pick(a, b, true))
#undef WB_CPU_H16_BINARY

template <class T> inline hip_cpu_fp::if_scalar<T> __hfma(T a, hip_cpu_fp::same<T> b, hip_cpu_fp::same<T> c)
{
    using namespace hip_cpu_fp;
    return of_bits<T>(fma_round<typename scalar16<T>::format>(value(a), value(b), value(c)));
}
template <class T> inline hip_cpu_fp::if_scalar<T> __hfma_sat(T a, hip_cpu_fp::same<T> b, hip_cpu_fp::same<T> c)
{
    return hip_cpu_fp::saturate(__hfma(a, b, c));
}
template <class T> inline hip_cpu_fp::if_scalar<T> __hfma_relu(T a, hip_cpu_fp::same<T> b, hip_cpu_fp::same<T> c)
{
    return hip_cpu_fp::relu(__hfma(a, b, c));
}
template <class T> inline hip_cpu_fp::if_scalar<T> __hneg(T a) { return -a; }
template <class T> inline hip_cpu_fp::if_scalar<T> __habs(T a)
{
    return hip_cpu_fp::of_bits<T>(hip_cpu_fp::bits(a) & 0x7fffu);
}
template <class T> inline hip_cpu_fp::if_scalar<T, bool> __hisnan(T a) { return hip_cpu_fp::is_nan(a); }
template <class T> inline hip_cpu_fp::if_scalar<T, int> __hisinf(T a)
{
    return (hip_cpu_fp::bits(a) & 0x7fffu) == hip_cpu_fp::scalar16<T>::format::inf;
}

// ---- scalar comparisons: ordered (false when either is NaN) and unordered (true then) --------------
#define WB_CPU_H16_COMPARE(name, expr)                                                                                 \
    template <class T> inline hip_cpu_fp::if_scalar<T, bool> name(T a, hip_cpu_fp::same<T> b)                          \
    {                                                                                                                  \
        const float x = hip_cpu_fp::value(a), y = hip_cpu_fp::value(b);                                                \
        return expr;                                                                                                   \
    }
WB_CPU_H16_COMPARE(__heq, x == y)
WB_CPU_H16_COMPARE(__hne, x<y || x> y)
WB_CPU_H16_COMPARE(__hlt, x < y)
WB_CPU_H16_COMPARE(__hle, x <= y)
WB_CPU_H16_COMPARE(__hgt, x > y)
WB_CPU_H16_COMPARE(__hge, x >= y)
WB_CPU_H16_COMPARE(__hequ, !(x < y || x > y))
WB_CPU_H16_COMPARE(__hneu, x != y)
WB_CPU_H16_COMPARE(__hltu, !(x >= y))
WB_CPU_H16_COMPARE(__hleu, !(x > y))
WB_CPU_H16_COMPARE(__hgtu, !(x <= y))
WB_CPU_H16_COMPARE(__hgeu, !(x < y))
#undef WB_CPU_H16_COMPARE

// ---- pairs: the same, lane by lane ------------------------------------------------------------------
#define WB_CPU_H16_PAIR_BINARY(name2, name)                                                                            \
    template <class T2> inline hip_cpu_fp::if_pair<T2> name2(T2 a, hip_cpu_fp::same<T2> b)                             \
    {                                                                                                                  \
        return T2(name(a.x, b.x), name(a.y, b.y));                                                                     \
    }
WB_CPU_H16_PAIR_BINARY(__hadd2, __hadd)
WB_CPU_H16_PAIR_BINARY(__hsub2, __hsub)
WB_CPU_H16_PAIR_BINARY(__hmul2, __hmul)
WB_CPU_H16_PAIR_BINARY(__h2div, __hdiv)
WB_CPU_H16_PAIR_BINARY(__hadd2_rn, __hadd)
WB_CPU_H16_PAIR_BINARY(__hsub2_rn, __hsub)
WB_CPU_H16_PAIR_BINARY(__hmul2_rn, __hmul)
WB_CPU_H16_PAIR_BINARY(__hadd2_sat, __hadd_sat)
WB_CPU_H16_PAIR_BINARY(__hsub2_sat, __hsub_sat)
WB_CPU_H16_PAIR_BINARY(__hmul2_sat, __hmul_sat)
WB_CPU_H16_PAIR_BINARY(__hmax2, __hmax)
WB_CPU_H16_PAIR_BINARY(__hmin2, __hmin)
WB_CPU_H16_PAIR_BINARY(__hmax2_nan, __hmax_nan)
WB_CPU_H16_PAIR_BINARY(__hmin2_nan, __hmin_nan)
#undef WB_CPU_H16_PAIR_BINARY

#define WB_CPU_H16_PAIR_TERNARY(name2, name)                                                                           \
    template <class T2> inline hip_cpu_fp::if_pair<T2> name2(T2 a, hip_cpu_fp::same<T2> b, hip_cpu_fp::same<T2> c)     \
    {                                                                                                                  \
        return T2(name(a.x, b.x, c.x), name(a.y, b.y, c.y));                                                           \
    }
WB_CPU_H16_PAIR_TERNARY(__hfma2, __hfma)
WB_CPU_H16_PAIR_TERNARY(__hfma2_sat, __hfma_sat)
WB_CPU_H16_PAIR_TERNARY(__hfma2_relu, __hfma_relu)
#undef WB_CPU_H16_PAIR_TERNARY

template <class T2> inline hip_cpu_fp::if_pair<T2> __hneg2(T2 a) { return T2(-a.x, -a.y); }
template <class T2> inline hip_cpu_fp::if_pair<T2> __habs2(T2 a) { return T2(__habs(a.x), __habs(a.y)); }
template <class T2> inline hip_cpu_fp::if_pair<T2> __hisnan2(T2 a)
{
    using T = typename hip_cpu_fp::pair16<T2>::elem;
    return T2(hip_cpu_fp::one_if<T>(__hisnan(a.x)), hip_cpu_fp::one_if<T>(__hisnan(a.y)));
}
template <class T2> inline hip_cpu_fp::if_pair<T2> __hisinf2(T2 a)
{
    using T = typename hip_cpu_fp::pair16<T2>::elem;
    return T2(hip_cpu_fp::one_if<T>(__hisinf(a.x)), hip_cpu_fp::one_if<T>(__hisinf(a.y)));
}
template <class T2> inline hip_cpu_fp::if_pair<T2, float> __low2float(T2 a) { return hip_cpu_fp::value(a.x); }
template <class T2> inline hip_cpu_fp::if_pair<T2, float> __high2float(T2 a) { return hip_cpu_fp::value(a.y); }
template <class T2> inline hip_cpu_fp::if_pair<T2> __lowhigh2highlow(T2 a) { return T2(a.y, a.x); }

// Pair comparisons, three ways: 1.0 or 0.0 in each lane (__heq2), 0xffff or 0 in each half of an
// unsigned (__heq2_mask), one bool for both lanes (__hbeq2).
#define WB_CPU_H16_PAIR_COMPARE(name)                                                                                  \
    template <class T2> inline hip_cpu_fp::if_pair<T2> name##2(T2 a, hip_cpu_fp::same<T2> b)                           \
    {                                                                                                                  \
        using T = typename hip_cpu_fp::pair16<T2>::elem;                                                               \
        return T2(hip_cpu_fp::one_if<T>(name(a.x, b.x)), hip_cpu_fp::one_if<T>(name(a.y, b.y)));                       \
    }                                                                                                                  \
    template <class T2> inline hip_cpu_fp::if_pair<T2, unsigned> name##2_mask(T2 a, hip_cpu_fp::same<T2> b)            \
    {                                                                                                                  \
        return (name(a.x, b.x) ? 0xffffu : 0u) | (name(a.y, b.y) ? 0xffff0000u : 0u);                                  \
    }
#define WB_CPU_H16_PAIR_BOOL(bname, name)                                                                              \
    template <class T2> inline hip_cpu_fp::if_pair<T2, bool> bname(T2 a, hip_cpu_fp::same<T2> b)                       \
    {                                                                                                                  \
        return name(a.x, b.x) && name(a.y, b.y);                                                                       \
    }
WB_CPU_H16_PAIR_COMPARE(__heq)
WB_CPU_H16_PAIR_COMPARE(__hne)
WB_CPU_H16_PAIR_COMPARE(__hlt)
WB_CPU_H16_PAIR_COMPARE(__hle)
WB_CPU_H16_PAIR_COMPARE(__hgt)
WB_CPU_H16_PAIR_COMPARE(__hge)
WB_CPU_H16_PAIR_COMPARE(__hequ)
WB_CPU_H16_PAIR_COMPARE(__hneu)
WB_CPU_H16_PAIR_COMPARE(__hltu)
WB_CPU_H16_PAIR_COMPARE(__hleu)
WB_CPU_H16_PAIR_COMPARE(__hgtu)
WB_CPU_H16_PAIR_COMPARE(__hgeu)
WB_CPU_H16_PAIR_BOOL(__hbeq2, __heq)
WB_CPU_H16_PAIR_BOOL(__hbne2, __hne)
WB_CPU_H16_PAIR_BOOL(__hblt2, __hlt)
WB_CPU_H16_PAIR_BOOL(__hble2, __hle)
WB_CPU_H16_PAIR_BOOL(__hbgt2, __hgt)
WB_CPU_H16_PAIR_BOOL(__hbge2, __hge)
WB_CPU_H16_PAIR_BOOL(__hbequ2, __hequ)
WB_CPU_H16_PAIR_BOOL(__hbneu2, __hneu)
WB_CPU_H16_PAIR_BOOL(__hbltu2, __hltu)
WB_CPU_H16_PAIR_BOOL(__hbleu2, __hleu)
WB_CPU_H16_PAIR_BOOL(__hbgtu2, __hgtu)
WB_CPU_H16_PAIR_BOOL(__hbgeu2, __hgeu)
#undef WB_CPU_H16_PAIR_COMPARE
#undef WB_CPU_H16_PAIR_BOOL

// ---- math: computed in double and rounded once (the GPUs approximate; this is never worse) ---------
#define WB_CPU_H16_MATH(name, expr)                                                                                    \
    template <class T> inline hip_cpu_fp::if_scalar<T> h##name(T h)                                                    \
    {                                                                                                                  \
        const double x = hip_cpu_fp::value(h);                                                                         \
        return hip_cpu_fp::rn<T>(double(expr));                                                                        \
    }                                                                                                                  \
    template <class T2> inline hip_cpu_fp::if_pair<T2> h2##name(T2 h) { return T2(h##name(h.x), h##name(h.y)); }
WB_CPU_H16_MATH(sqrt, __builtin_sqrt(x))
WB_CPU_H16_MATH(rsqrt, 1 / __builtin_sqrt(x))
WB_CPU_H16_MATH(rcp, 1 / x)
WB_CPU_H16_MATH(exp, __builtin_exp(x))
WB_CPU_H16_MATH(exp2, __builtin_exp2(x))
WB_CPU_H16_MATH(exp10, __builtin_pow(10.0, x))
WB_CPU_H16_MATH(log, __builtin_log(x))
WB_CPU_H16_MATH(log2, __builtin_log2(x))
WB_CPU_H16_MATH(log10, __builtin_log10(x))
WB_CPU_H16_MATH(sin, __builtin_sin(x))
WB_CPU_H16_MATH(cos, __builtin_cos(x))
WB_CPU_H16_MATH(tanh, __builtin_tanh(x))
WB_CPU_H16_MATH(ceil, __builtin_ceil(x))
WB_CPU_H16_MATH(floor, __builtin_floor(x))
WB_CPU_H16_MATH(trunc, __builtin_trunc(x))
WB_CPU_H16_MATH(rint, hip_cpu_fp::rint_even(x))
#undef WB_CPU_H16_MATH

// Integer conversions of a 16-bit type T named N (half, bfloat16): __N2int_rn ... __ull2N_ru,
// in the four directions, for int, unsigned (uint), short, unsigned short (ushort), long long
// (ll) and unsigned long long (ull). To an integer NaN gives 0 and values beyond its range its
// limits, as on the GPUs; from one each integer is rounded once.
#define WB_CPU_H16_INTEGER_DIRECTION(T, N, I, IN, R)                                                                   \
    inline I __##N##2##IN##_##R(T h)                                                                                   \
    {                                                                                                                  \
        return hip_cpu_fp::float_to_integer<I>(hip_cpu_fp::value(h), hip_cpu_fp::round_mode::R);                       \
    }                                                                                                                  \
    inline T __##IN##2##N##_##R(I i)                                                                                   \
    {                                                                                                                  \
        using F = hip_cpu_fp::scalar16<T>::format;                                                                     \
        return hip_cpu_fp::of_bits<T>(F::from_exact(hip_cpu_fp::exact_of_integer(i), hip_cpu_fp::round_mode::R));      \
    }
#define WB_CPU_H16_INTEGER(T, N, I, IN)                                                                                \
    WB_CPU_H16_INTEGER_DIRECTION(T, N, I, IN, rn)                                                                      \
    WB_CPU_H16_INTEGER_DIRECTION(T, N, I, IN, rz)                                                                      \
    WB_CPU_H16_INTEGER_DIRECTION(T, N, I, IN, rd)                                                                      \
    WB_CPU_H16_INTEGER_DIRECTION(T, N, I, IN, ru)
#define WB_CPU_H16_INTEGERS(T, N)                                                                                      \
    WB_CPU_H16_INTEGER(T, N, int, int)                                                                                 \
    WB_CPU_H16_INTEGER(T, N, unsigned, uint)                                                                           \
    WB_CPU_H16_INTEGER(T, N, short, short)                                                                             \
    WB_CPU_H16_INTEGER(T, N, unsigned short, ushort)                                                                   \
    WB_CPU_H16_INTEGER(T, N, long long, ll)                                                                            \
    WB_CPU_H16_INTEGER(T, N, unsigned long long, ull)                                                                  \
    inline signed char __##N##2char_rz(T h)                                                                            \
    {                                                                                                                  \
        return hip_cpu_fp::float_to_integer<signed char>(hip_cpu_fp::value(h), hip_cpu_fp::round_mode::rz);            \
    }                                                                                                                  \
    inline unsigned char __##N##2uchar_rz(T h)                                                                         \
    {                                                                                                                  \
        return hip_cpu_fp::float_to_integer<unsigned char>(hip_cpu_fp::value(h), hip_cpu_fp::round_mode::rz);          \
    }
