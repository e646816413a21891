// The cpu platform's 8-bit floating point, as HIP's hip_fp8.h: the OCP formats E4M3 and E5M2
// (__hip_fp8_e4m3, __hip_fp8_e5m2: the GPUs' gfx950 and gfx12, and NVIDIA's), AMD's FNUZ formats
// (__hip_fp8_e4m3_fnuz, __hip_fp8_e5m2_fnuz: gfx942; no infinity, no negative zero, 0x80 the only
// NaN), their x2 and x4 forms, and the __hip_cvt_* conversions.
//
// float to fp8 rounds to nearest even, once, with subnormals, and follows HIP's rules for the rest:
// NaN gives NaN (OCP: the sign with 0x7f; FNUZ: 0x80); an infinity gives E5M2's infinity, NaN in
// the others; a finite value beyond the largest finite one gives, with __HIP_SATFINITE, the
// largest finite value of its sign, with __HIP_NOSAT E5M2's infinity or NaN in the others. (CUDA
// differs in two cases: a value within half a unit above the largest finite one rounds to it,
// and __NV_SATFINITE also saturates infinities.) The structs convert with __HIP_SATFINITE, as
// HIP's do. fp8 to float is exact.
#pragma once

#include <hip/hip_runtime.h>

#include <hip/hip_bf16.h>
#include <hip/hip_fp16.h>

enum __hip_fp8_interpretation_t {
    __HIP_E4M3 = 0,      ///< OCP E4M3: 448 the largest, NaN 0x7f/0xff, no infinity
    __HIP_E5M2 = 1,      ///< OCP E5M2: 57344 the largest, infinities 0x7c/0xfc
    __HIP_E4M3_FNUZ = 2, ///< AMD's E4M3 FNUZ: 240 the largest
    __HIP_E5M2_FNUZ = 3, ///< AMD's E5M2 FNUZ: 57344 the largest
};
enum __hip_saturation_t {
    __HIP_NOSAT = 0,
    __HIP_SATFINITE = 1,
};
typedef unsigned char __hip_fp8_storage_t;
typedef unsigned short int __hip_fp8x2_storage_t;
typedef unsigned int __hip_fp8x4_storage_t;

namespace hip_cpu_fp {
/// A format's fraction bits, exponent bias, largest finite code (without the sign) and kind.
struct fp8_format {
    int mant, bias;
    uint32_t max_code;
    bool fnuz, has_inf;
};
inline fp8_format fp8_format_of(__hip_fp8_interpretation_t i)
{
    switch (i) {
    case __HIP_E4M3:
        return {3, 7, 0x7e, false, false};
    case __HIP_E5M2:
        return {2, 15, 0x7b, false, true};
    case __HIP_E4M3_FNUZ:
        return {3, 8, 0x7f, true, false};
    default:
        return {2, 16, 0x7f, true, false};
    }
}

/// The value of a finite code without its sign, as a float (exact).
inline float fp8_magnitude(uint32_t c, const fp8_format& f)
{
    const uint32_t e = c >> f.mant, m = c & ((1u << f.mant) - 1);
    if (e != 0) return bits_float(((e + 127 - f.bias) << 23) | (m << (23 - f.mant)));
    if (m == 0) return 0.0f;
    const int p = 31 - __builtin_clz(m); // the leading bit of a subnormal
    return bits_float((uint32_t(p + 127 + 1 - f.bias - f.mant) << 23) | ((m << (23 - p)) & 0x7fffffu));
}

inline __hip_fp8_storage_t fp8_from_double(double d, __hip_saturation_t sat, __hip_fp8_interpretation_t interp)
{
    const fp8_format f = fp8_format_of(interp);
    const uint64_t b = double_bits(d);
    const uint32_t sign = (b >> 63) ? 0x80u : 0u, nan = f.fnuz ? 0x80u : sign | 0x7fu;
    if (((b >> 52) & 0x7ff) == 0x7ff) return __hip_fp8_storage_t((b << 12) == 0 && f.has_inf ? sign | 0x7cu : nan);
    if ((b << 1) == 0) return __hip_fp8_storage_t(f.fnuz ? 0u : sign);
    if ((d < 0 ? -d : d) > double(fp8_magnitude(f.max_code, f))) {
        if (sat == __HIP_SATFINITE) return __hip_fp8_storage_t(sign | f.max_code);
        return __hip_fp8_storage_t(f.has_inf ? sign | 0x7cu : nan);
    }
    const uint32_t c = round_code(exact_of(d), f.mant, f.bias, round_mode::rn);
    return __hip_fp8_storage_t(c == 0 && f.fnuz ? 0u : sign | c); // FNUZ has no -0
}

inline float fp8_to_float(__hip_fp8_storage_t x, __hip_fp8_interpretation_t interp)
{
    const fp8_format f = fp8_format_of(interp);
    const uint32_t sign = (x & 0x80u) ? 0x80000000u : 0u, c = x & 0x7fu;
    if (f.fnuz ? x == 0x80 : (f.has_inf ? c > 0x7c : c == 0x7f)) return bits_float(0x7fc00000u | sign);
    if (f.has_inf && c == 0x7c) return bits_float(0x7f800000u | sign);
    return bits_float(float_bits(fp8_magnitude(c, f)) | sign);
}

inline bool fp8_is_nan(__hip_fp8_storage_t x, __hip_fp8_interpretation_t interp)
{
    const float f = fp8_to_float(x, interp);
    return f != f;
}

/// A two-double vector (double2), whichever way the vector header defines it.
template <class D, unsigned N>
using if_doubles =
    typename std::enable_if<std::is_same<decltype(D::x), double>::value && sizeof(D) == N * 8, int>::type;
} // namespace hip_cpu_fp

// ---- the conversions ----------------------------------------------------------------------------
inline __hip_fp8_storage_t __hip_cvt_float_to_fp8(float f, __hip_saturation_t sat, __hip_fp8_interpretation_t interp)
{
    return hip_cpu_fp::fp8_from_double(f, sat, interp);
}
inline __hip_fp8_storage_t __hip_cvt_double_to_fp8(double d, __hip_saturation_t sat, __hip_fp8_interpretation_t interp)
{
    return hip_cpu_fp::fp8_from_double(d, sat, interp); // rounded once, not through float
}
inline __hip_fp8x2_storage_t __hip_cvt_float2_to_fp8x2(float2 f, __hip_saturation_t sat,
                                                       __hip_fp8_interpretation_t interp)
{
    return __hip_fp8x2_storage_t(__hip_cvt_float_to_fp8(f.x, sat, interp) | __hip_cvt_float_to_fp8(f.y, sat, interp)
                                                                                << 8);
}
template <class D2, hip_cpu_fp::if_doubles<D2, 2> = 0>
inline __hip_fp8x2_storage_t __hip_cvt_double2_to_fp8x2(D2 d, __hip_saturation_t sat, __hip_fp8_interpretation_t interp)
{
    return __hip_fp8x2_storage_t(__hip_cvt_double_to_fp8(d.x, sat, interp) | __hip_cvt_double_to_fp8(d.y, sat, interp)
                                                                                 << 8);
}
inline __hip_fp8_storage_t __hip_cvt_halfraw_to_fp8(__half_raw h, __hip_saturation_t sat,
                                                    __hip_fp8_interpretation_t interp)
{
    return __hip_cvt_float_to_fp8(__half2float(h), sat, interp);
}
inline __hip_fp8x2_storage_t __hip_cvt_halfraw2_to_fp8x2(__half2_raw h, __hip_saturation_t sat,
                                                         __hip_fp8_interpretation_t interp)
{
    return __hip_cvt_float2_to_fp8x2(__half22float2(h), sat, interp);
}
inline __hip_fp8_storage_t __hip_cvt_bfloat16raw_to_fp8(__hip_bfloat16_raw h, __hip_saturation_t sat,
                                                        __hip_fp8_interpretation_t interp)
{
    return __hip_cvt_float_to_fp8(__bfloat162float(h), sat, interp);
}
inline __hip_fp8x2_storage_t __hip_cvt_bfloat16raw2_to_fp8x2(__hip_bfloat162_raw h, __hip_saturation_t sat,
                                                             __hip_fp8_interpretation_t interp)
{
    return __hip_cvt_float2_to_fp8x2(__bfloat1622float2(h), sat, interp);
}
inline __half_raw __hip_cvt_fp8_to_halfraw(__hip_fp8_storage_t x, __hip_fp8_interpretation_t interp)
{
    return __half(hip_cpu_fp::fp8_to_float(x, interp)); // exact: every fp8 value is a half
}
inline __half2_raw __hip_cvt_fp8x2_to_halfraw2(__hip_fp8x2_storage_t x, __hip_fp8_interpretation_t interp)
{
    return __half2(__hip_cvt_fp8_to_halfraw(__hip_fp8_storage_t(x & 0xff), interp),
                   __hip_cvt_fp8_to_halfraw(__hip_fp8_storage_t(x >> 8), interp));
}

namespace hip_cpu_fp {
/// One fp8 number of format I: from and to the arithmetic types, __half and __hip_bfloat16, with
/// HIP's saturation (__HIP_SATFINITE); to an integer by truncation, NaN giving 0, saturating.
template <__hip_fp8_interpretation_t I> struct fp8_scalar {
    __hip_fp8_storage_t __x;
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;
    static constexpr __hip_fp8_interpretation_t __default_interpret = I;
    static constexpr unsigned int __we = I == __HIP_E4M3 || I == __HIP_E4M3_FNUZ ? 4 : 5;
    static constexpr unsigned int __wm = 7 - __we;

    fp8_scalar() = default;
    fp8_scalar(float f) : __x(__hip_cvt_float_to_fp8(f, __HIP_SATFINITE, I)) {}
    fp8_scalar(double d) : __x(__hip_cvt_double_to_fp8(d, __HIP_SATFINITE, I)) {}
    template <class T, if_integral<T> = 0> fp8_scalar(T v) : fp8_scalar(double(v)) {}
    fp8_scalar(__half h) : fp8_scalar(__half2float(h)) {}
    fp8_scalar(__hip_bfloat16 h) : fp8_scalar(__bfloat162float(h)) {}

    operator float() const { return fp8_to_float(__x, I); }
    operator double() const { return fp8_to_float(__x, I); }
    operator __half() const { return __hip_cvt_fp8_to_halfraw(__x, I); }
    operator __hip_bfloat16() const { return __hip_bfloat16(fp8_to_float(__x, I)); }
    operator bool() const { return (__x & 0x7f) != 0 || (I >= __HIP_E4M3_FNUZ && __x != 0); } // NaN is true
    template <class T,
              typename std::enable_if<std::is_integral<T>::value && !std::is_same<T, bool>::value, int>::type = 0>
    operator T() const
    {
        return float_to_integer<T>(fp8_to_float(__x, I), round_mode::rz);
    }
};

/// Two fp8 numbers, x in the low byte.
template <__hip_fp8_interpretation_t I> struct fp8_pair {
    __hip_fp8x2_storage_t __x;
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;
    static constexpr __hip_fp8_interpretation_t __default_interpret = I;
    static constexpr unsigned int __we = fp8_scalar<I>::__we, __wm = fp8_scalar<I>::__wm;

    fp8_pair() = default;
    fp8_pair(float2 f) : __x(__hip_cvt_float2_to_fp8x2(f, __HIP_SATFINITE, I)) {}
    template <class D2, if_doubles<D2, 2> = 0> fp8_pair(D2 d) : __x(__hip_cvt_double2_to_fp8x2(d, __HIP_SATFINITE, I))
    {
    }
    fp8_pair(__half2 h) : __x(__hip_cvt_halfraw2_to_fp8x2(h, __HIP_SATFINITE, I)) {}
    fp8_pair(__hip_bfloat162 h) : __x(__hip_cvt_bfloat16raw2_to_fp8x2(h, __HIP_SATFINITE, I)) {}

    operator __half2() const { return __hip_cvt_fp8x2_to_halfraw2(__x, I); }
    operator float2() const
    {
        return make_float2(fp8_to_float(__hip_fp8_storage_t(__x & 0xff), I),
                           fp8_to_float(__hip_fp8_storage_t(__x >> 8), I));
    }
};

/// Four fp8 numbers, x in the lowest byte. From two pairs, the first goes to the low half (as in
/// CUDA, and as HIP's float4 conversion reads it back).
template <__hip_fp8_interpretation_t I> struct fp8_quad {
    __hip_fp8x4_storage_t __x;
    static constexpr __hip_saturation_t __default_saturation = __HIP_SATFINITE;
    static constexpr __hip_fp8_interpretation_t __default_interpret = I;
    static constexpr unsigned int __we = fp8_scalar<I>::__we, __wm = fp8_scalar<I>::__wm;

    fp8_quad() = default;
    fp8_quad(float4 f) : __x(pack(make_float2(f.x, f.y), make_float2(f.z, f.w))) {}
    template <class D4, if_doubles<D4, 4> = 0>
    fp8_quad(D4 d)
        : __x(pack_bytes(
              __hip_cvt_double_to_fp8(d.x, __HIP_SATFINITE, I), __hip_cvt_double_to_fp8(d.y, __HIP_SATFINITE, I),
              __hip_cvt_double_to_fp8(d.z, __HIP_SATFINITE, I), __hip_cvt_double_to_fp8(d.w, __HIP_SATFINITE, I)))
    {
    }
    fp8_quad(__half2 lo, __half2 hi) : __x(pack(__half22float2(lo), __half22float2(hi))) {}
    fp8_quad(__hip_bfloat162 lo, __hip_bfloat162 hi) : __x(pack(__bfloat1622float2(lo), __bfloat1622float2(hi))) {}

    operator float4() const
    {
        const auto at = [this](int k) { return fp8_to_float(__hip_fp8_storage_t(__x >> (8 * k)), I); };
        return make_float4(at(0), at(1), at(2), at(3));
    }

private:
    static __hip_fp8x4_storage_t pack(float2 lo, float2 hi)
    {
        return __hip_cvt_float2_to_fp8x2(lo, __HIP_SATFINITE, I) |
               __hip_fp8x4_storage_t(__hip_cvt_float2_to_fp8x2(hi, __HIP_SATFINITE, I)) << 16;
    }
    static __hip_fp8x4_storage_t pack_bytes(unsigned a, unsigned b, unsigned c, unsigned d)
    {
        return a | b << 8 | c << 16 | d << 24;
    }
};
#if __cplusplus < 201703L // C++17 makes these inline; before, a use by reference needs a definition
template <__hip_fp8_interpretation_t I> constexpr __hip_saturation_t fp8_scalar<I>::__default_saturation;
template <__hip_fp8_interpretation_t I> constexpr __hip_fp8_interpretation_t fp8_scalar<I>::__default_interpret;
template <__hip_fp8_interpretation_t I> constexpr unsigned int fp8_scalar<I>::__we;
template <__hip_fp8_interpretation_t I> constexpr unsigned int fp8_scalar<I>::__wm;
template <__hip_fp8_interpretation_t I> constexpr __hip_saturation_t fp8_pair<I>::__default_saturation;
template <__hip_fp8_interpretation_t I> constexpr __hip_fp8_interpretation_t fp8_pair<I>::__default_interpret;
template <__hip_fp8_interpretation_t I> constexpr unsigned int fp8_pair<I>::__we;
template <__hip_fp8_interpretation_t I> constexpr unsigned int fp8_pair<I>::__wm;
template <__hip_fp8_interpretation_t I> constexpr __hip_saturation_t fp8_quad<I>::__default_saturation;
template <__hip_fp8_interpretation_t I> constexpr __hip_fp8_interpretation_t fp8_quad<I>::__default_interpret;
template <__hip_fp8_interpretation_t I> constexpr unsigned int fp8_quad<I>::__we;
template <__hip_fp8_interpretation_t I> constexpr unsigned int fp8_quad<I>::__wm;
#endif
} // namespace hip_cpu_fp

// HIP's names. Structs (not aliases), so that code may declare them as HIP's: struct __hip_fp8_e4m3.
#define WB_CPU_FP8_TYPES(SUFFIX, I)                                                                                    \
    struct __hip_fp8_##SUFFIX : hip_cpu_fp::fp8_scalar<I> {                                                            \
        using fp8_scalar::fp8_scalar;                                                                                  \
    };                                                                                                                 \
    struct __hip_fp8x2_##SUFFIX : hip_cpu_fp::fp8_pair<I> {                                                            \
        using fp8_pair::fp8_pair;                                                                                      \
    };                                                                                                                 \
    struct __hip_fp8x4_##SUFFIX : hip_cpu_fp::fp8_quad<I> {                                                            \
        using fp8_quad::fp8_quad;                                                                                      \
    };                                                                                                                 \
    static_assert(sizeof(__hip_fp8_##SUFFIX) == 1 && sizeof(__hip_fp8x4_##SUFFIX) == 4 &&                              \
                      std::is_trivially_copyable<__hip_fp8x4_##SUFFIX>::value,                                         \
                  "HIP's layout");
WB_CPU_FP8_TYPES(e4m3, __HIP_E4M3)
WB_CPU_FP8_TYPES(e5m2, __HIP_E5M2)
WB_CPU_FP8_TYPES(e4m3_fnuz, __HIP_E4M3_FNUZ)
WB_CPU_FP8_TYPES(e5m2_fnuz, __HIP_E5M2_FNUZ)
#undef WB_CPU_FP8_TYPES
