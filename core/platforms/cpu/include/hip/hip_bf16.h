// The cpu platform's bfloat16, as HIP's hip_bf16.h: __hip_bfloat16 and __hip_bfloat162, the raw
// structs, conversions, intrinsics and operators (the same __hadd ... h2sqrt family as for __half,
// hip_cpu_fp16_ops.h). Storage is the top 16 bits of a float; arithmetic is done in float and
// rounded once to nearest even, subnormals, infinities and NaN included. Both types are trivially
// copyable, so the shuffles move them.
#pragma once

#include <hip/hip_runtime.h>

#include <hip/hip_cpu_fp16_ops.h>

struct __hip_bfloat16_raw {
    unsigned short x;
};
struct alignas(4) __hip_bfloat162_raw {
    unsigned short x;
    unsigned short y;
};

/// A bfloat16: converts from and to every arithmetic type implicitly, as HIP's does (from one with
/// rounding to nearest even, to an integer by truncation), and explicitly from a class that
/// converts to one (`__hip_bfloat16(x)`, through x's operator float or the like: if_class_value).
struct alignas(2) __hip_bfloat16 : hip_cpu_fp::scalar_operators<__hip_bfloat16> {
protected:
    unsigned short __x;

public:
    __hip_bfloat16() = default;
    constexpr __hip_bfloat16(const __hip_bfloat16_raw& r) : __x(r.x) {}
    template <class T, hip_cpu_fp::if_arithmetic<T> = 0>
    __hip_bfloat16(T v) : __x(hip_cpu_fp::round_rn<hip_cpu_fp::bf16_format>(v))
    {
    }
    template <class T, hip_cpu_fp::if_class_value<T, __hip_bfloat16> = 0>
    explicit __hip_bfloat16(const T& v) : __hip_bfloat16(double(v))
    {
    }
    __hip_bfloat16& operator=(const __hip_bfloat16_raw& r)
    {
        __x = r.x;
        return *this;
    }
    volatile __hip_bfloat16& operator=(const __hip_bfloat16_raw& r) volatile
    {
        __x = r.x;
        return *this;
    }
    template <class T, hip_cpu_fp::if_arithmetic<T> = 0> __hip_bfloat16& operator=(T v)
    {
        return *this = __hip_bfloat16(v);
    }
    operator __hip_bfloat16_raw() const { return {__x}; }
    operator __hip_bfloat16_raw() const volatile { return {__x}; }
    template <class T, hip_cpu_fp::if_floating<T> = 0> operator T() const
    {
        return T(hip_cpu_fp::bf16_format::to_float(__x));
    }
    template <class T, hip_cpu_fp::if_integral<T> = 0> operator T() const
    {
        return hip_cpu_fp::to_integer<T>(hip_cpu_fp::bf16_format::to_float(__x));
    }
};

/// Two bfloat16s, x the low one.
struct alignas(4) __hip_bfloat162 : hip_cpu_fp::pair_operators<__hip_bfloat162> {
    __hip_bfloat16 x, y;

    __hip_bfloat162() = default;
    constexpr __hip_bfloat162(const __hip_bfloat16& a, const __hip_bfloat16& b) : x(a), y(b) {}
    constexpr __hip_bfloat162(const __hip_bfloat162_raw& r) : x(__hip_bfloat16_raw{r.x}), y(__hip_bfloat16_raw{r.y}) {}
    __hip_bfloat162& operator=(const __hip_bfloat162_raw& r) { return *this = __hip_bfloat162(r); }
    operator __hip_bfloat162_raw() const
    {
        return {static_cast<__hip_bfloat16_raw>(x).x, static_cast<__hip_bfloat16_raw>(y).x};
    }
    operator float2() const { return make_float2(float(x), float(y)); }
};

namespace hip_cpu_fp {
template <> struct scalar16<__hip_bfloat16> {
    static constexpr bool value = true;
    using format = bf16_format;
};
template <> struct pair16<__hip_bfloat162> {
    static constexpr bool value = true;
    using elem = __hip_bfloat16;
};
static_assert(sizeof(__hip_bfloat16) == 2 && sizeof(__hip_bfloat162) == 4 && alignof(__hip_bfloat162) == 4,
              "HIP's layout");
static_assert(std::is_trivially_copyable<__hip_bfloat16>::value && std::is_trivially_copyable<__hip_bfloat162>::value,
              "the shuffles move trivially copyable values");
} // namespace hip_cpu_fp

#define HIP_FP_CONSTANTS_BF16
#include "../../../hip_fp_constants.h" // HIPRT_*_BF16

// ---- bits ---------------------------------------------------------------------------------------
inline short __bfloat16_as_short(__hip_bfloat16 h) { return short(static_cast<__hip_bfloat16_raw>(h).x); }
inline unsigned short __bfloat16_as_ushort(__hip_bfloat16 h) { return static_cast<__hip_bfloat16_raw>(h).x; }
inline __hip_bfloat16 __short_as_bfloat16(short i) { return __hip_bfloat16_raw{(unsigned short)i}; }
inline __hip_bfloat16 __ushort_as_bfloat16(unsigned short i) { return __hip_bfloat16_raw{i}; }

// ---- float and double ---------------------------------------------------------------------------
namespace hip_cpu_fp {
inline __hip_bfloat16 bf16_of(float f, round_mode mode)
{
    return of_bits<__hip_bfloat16>(bf16_format::from_double(f, mode));
}
} // namespace hip_cpu_fp
inline __hip_bfloat16 __float2bfloat16(float f) { return __hip_bfloat16(f); }
inline __hip_bfloat16 __float2bfloat16_rn(float f) { return __hip_bfloat16(f); }
inline __hip_bfloat16 __float2bfloat16_rz(float f) { return hip_cpu_fp::bf16_of(f, hip_cpu_fp::round_mode::rz); }
inline __hip_bfloat16 __float2bfloat16_rd(float f) { return hip_cpu_fp::bf16_of(f, hip_cpu_fp::round_mode::rd); }
inline __hip_bfloat16 __float2bfloat16_ru(float f) { return hip_cpu_fp::bf16_of(f, hip_cpu_fp::round_mode::ru); }
inline __hip_bfloat16 __double2bfloat16(double d) { return __hip_bfloat16(d); } // rounded once
inline float __bfloat162float(__hip_bfloat16 h) { return hip_cpu_fp::value(h); }
inline __hip_bfloat162 __float2bfloat162_rn(float f) { return __hip_bfloat162(__hip_bfloat16(f), __hip_bfloat16(f)); }
inline __hip_bfloat162 __floats2bfloat162_rn(float a, float b)
{
    return __hip_bfloat162(__hip_bfloat16(a), __hip_bfloat16(b));
}
inline __hip_bfloat162 __float22bfloat162_rn(float2 f) { return __floats2bfloat162_rn(f.x, f.y); }
inline float2 __bfloat1622float2(__hip_bfloat162 h) { return make_float2(float(h.x), float(h.y)); }

// ---- integers: __bfloat162int_rn ... __ull2bfloat16_ru, __bfloat162char_rz, __bfloat162uchar_rz ----
WB_CPU_H16_INTEGERS(__hip_bfloat16, bfloat16)

// ---- moving bfloat16s ---------------------------------------------------------------------------
inline __hip_bfloat162 make_bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat162(a, b); }
inline __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat162(a, b); }
inline __hip_bfloat162 __bfloat162bfloat162(__hip_bfloat16 a) { return __hip_bfloat162(a, a); }
inline __hip_bfloat16 __low2bfloat16(__hip_bfloat162 h) { return h.x; }
inline __hip_bfloat16 __high2bfloat16(__hip_bfloat162 h) { return h.y; }
inline __hip_bfloat162 __low2bfloat162(__hip_bfloat162 h) { return __hip_bfloat162(h.x, h.x); }
inline __hip_bfloat162 __high2bfloat162(__hip_bfloat162 h) { return __hip_bfloat162(h.y, h.y); }
inline __hip_bfloat162 __lows2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) { return __hip_bfloat162(a.x, b.x); }
inline __hip_bfloat162 __highs2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) { return __hip_bfloat162(a.y, b.y); }
