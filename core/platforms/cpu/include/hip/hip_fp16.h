// The cpu platform's half precision, as HIP's hip_fp16.h: __half and __half2 (and `half`,
// `half2`), the raw structs, conversions, intrinsics and operators. Storage is IEEE binary16 bits;
// arithmetic is done in float and rounded once to nearest even (hip_cpu_fp16_ops.h), conversions
// round exactly as the GPUs' instructions do, subnormals, infinities and NaN included. Both types
// are trivially copyable, so the shuffles move them.
#pragma once

#include <hip/hip_runtime.h>

#include <hip/hip_cpu_fp16_ops.h>

struct __half_raw {
    unsigned short x;
};
struct alignas(4) __half2_raw {
    unsigned short x;
    unsigned short y;
};

/// A half: converts from and to every arithmetic type implicitly, as HIP's does (from one with
/// rounding to nearest even, to an integer by truncation), and explicitly from a class that
/// converts to one (`__half(x)`, through x's operator float or the like: if_class_value).
struct __half : hip_cpu_fp::scalar_operators<__half> {
protected:
    unsigned short __x;

public:
    __half() = default;
    constexpr __half(const __half_raw& r) : __x(r.x) {}
    template <class T, hip_cpu_fp::if_arithmetic<T> = 0>
    __half(T v) : __x(hip_cpu_fp::round_rn<hip_cpu_fp::half_format>(v))
    {
    }
    template <class T, hip_cpu_fp::if_class_value<T, __half> = 0> explicit __half(const T& v) : __half(double(v)) {}
    __half& operator=(const __half_raw& r)
    {
        __x = r.x;
        return *this;
    }
    volatile __half& operator=(const __half_raw& r) volatile
    {
        __x = r.x;
        return *this;
    }
    template <class T, hip_cpu_fp::if_arithmetic<T> = 0> __half& operator=(T v) { return *this = __half(v); }
    operator __half_raw() const { return {__x}; }
    operator __half_raw() const volatile { return {__x}; }
    template <class T, hip_cpu_fp::if_floating<T> = 0> operator T() const
    {
        return T(hip_cpu_fp::half_format::to_float(__x));
    }
    template <class T, hip_cpu_fp::if_integral<T> = 0> operator T() const
    {
        return hip_cpu_fp::to_integer<T>(hip_cpu_fp::half_format::to_float(__x));
    }
};

/// Two halves, x the low one.
struct alignas(4) __half2 : hip_cpu_fp::pair_operators<__half2> {
    __half x, y;

    __half2() = default;
    constexpr __half2(const __half& a, const __half& b) : x(a), y(b) {}
    constexpr __half2(const __half2_raw& r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
    __half2& operator=(const __half2_raw& r) { return *this = __half2(r); }
    operator __half2_raw() const { return {static_cast<__half_raw>(x).x, static_cast<__half_raw>(y).x}; }
};

typedef __half half;
typedef __half2 half2;

namespace hip_cpu_fp {
template <> struct scalar16<__half> {
    static constexpr bool value = true;
    using format = half_format;
};
template <> struct pair16<__half2> {
    static constexpr bool value = true;
    using elem = __half;
};
static_assert(sizeof(__half) == 2 && sizeof(__half2) == 4 && alignof(__half2) == 4, "HIP's layout");
static_assert(std::is_trivially_copyable<__half>::value && std::is_trivially_copyable<__half2>::value,
              "the shuffles move trivially copyable values");
} // namespace hip_cpu_fp

#define HIP_FP_CONSTANTS_FP16
#include "../../../hip_fp_constants.h" // HIPRT_*_FP16

// ---- bits ---------------------------------------------------------------------------------------
inline short __half_as_short(__half h) { return short(static_cast<__half_raw>(h).x); }
inline unsigned short __half_as_ushort(__half h) { return static_cast<__half_raw>(h).x; }
inline __half __short_as_half(short i) { return __half_raw{(unsigned short)i}; }
inline __half __ushort_as_half(unsigned short i) { return __half_raw{i}; }

// ---- float and double ---------------------------------------------------------------------------
namespace hip_cpu_fp {
inline __half half_of(float f, round_mode mode) { return of_bits<__half>(half_format::from_double(f, mode)); }
} // namespace hip_cpu_fp
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __float2half_rz(float f) { return hip_cpu_fp::half_of(f, hip_cpu_fp::round_mode::rz); }
inline __half __float2half_rd(float f) { return hip_cpu_fp::half_of(f, hip_cpu_fp::round_mode::rd); }
inline __half __float2half_ru(float f) { return hip_cpu_fp::half_of(f, hip_cpu_fp::round_mode::ru); }
inline __half __double2half(double d) { return __half(d); } // rounded once, not through float
inline float __half2float(__half h) { return hip_cpu_fp::value(h); }
inline __half2 __float2half2_rn(float f) { return __half2(__half(f), __half(f)); }
inline __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
inline __half2 __float22half2_rn(float2 f) { return __half2(__half(f.x), __half(f.y)); }
inline float2 __half22float2(__half2 h) { return make_float2(__half2float(h.x), __half2float(h.y)); }

// ---- integers: __half2int_rn ... __ull2half_ru, __half2char_rz, __half2uchar_rz -----------------------
WB_CPU_H16_INTEGERS(__half, half)

// ---- moving halves ------------------------------------------------------------------------------
inline __half2 make_half2(__half a, __half b) { return __half2(a, b); }
inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
inline __half2 __half2half2(__half a) { return __half2(a, a); }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline __half2 __low2half2(__half2 h) { return __half2(h.x, h.x); }
inline __half2 __high2half2(__half2 h) { return __half2(h.y, h.y); }
inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
