// The cpu platform's rounding into narrow floating-point formats (half, bfloat16, fp8), shared by
// hip_fp16.h, hip_bf16.h and hip_fp8.h. It works on the bits with integer arithmetic only, so a
// result depends neither on the host's rounding mode nor on excess precision: every conversion
// rounds once, from the exact value, as the GPUs' conversion instructions do.
#pragma once

#include <hip/hip_runtime.h>

#include <cstdint>
#include <limits>
#include <type_traits>

namespace hip_cpu_fp {

/// A rounding direction: to nearest (ties to even), toward zero, down (toward -inf), up (toward +inf).
enum class round_mode { rn, rz, rd, ru };

/// An exact nonzero value, sig * 2^exp2, and its sign.
struct exact {
    uint64_t sig;
    int exp2;
    bool neg;
};

inline uint32_t float_bits(float f) { return __builtin_bit_cast(uint32_t, f); }
inline float bits_float(uint32_t b) { return __builtin_bit_cast(float, b); }
inline uint64_t double_bits(double d) { return __builtin_bit_cast(uint64_t, d); }

/// The value of a finite, nonzero double.
inline exact exact_of(double d)
{
    const uint64_t b = double_bits(d);
    const int e = int(b >> 52) & 0x7ff;
    const uint64_t m = b & ((uint64_t(1) << 52) - 1);
    return e == 0 ? exact{m, -1074, (b >> 63) != 0} : exact{m | (uint64_t(1) << 52), e - 1075, (b >> 63) != 0};
}

/// |v| rounded in a format with `mant` fraction bits and exponent bias `bias` whose exponents are
/// unbounded above, encoded as (biased exponent << mant) + fraction: the codes of the format's
/// finite values, and beyond them larger codes that grow with |v|, which the caller compares with
/// its largest finite code. Subnormals are rounded at the subnormal quantum.
inline uint32_t round_code(exact v, int mant, int bias, round_mode mode)
{
    const int msb = v.exp2 + 63 - __builtin_clzll(v.sig);          // floor(log2 |v|)
    const int lowest = 1 - bias - mant;                            // the exponent of the smallest subnormal
    const int quantum = msb - mant > lowest ? msb - mant : lowest; // the exponent of the last place
    const int shift = quantum - v.exp2;
    uint64_t n = 0; // |v| in units of the last place, truncated
    bool inexact = false, tie = false, above = false;
    if (shift <= 0) {
        n = v.sig << -shift;
    } else if (shift <= 64) {
        const uint64_t rem = shift == 64 ? v.sig : v.sig & ((uint64_t(1) << shift) - 1);
        const uint64_t half = uint64_t(1) << (shift - 1);
        n = shift == 64 ? 0 : v.sig >> shift;
        inexact = rem != 0, tie = rem == half, above = rem > half;
    } else {
        inexact = true; // far below half a unit
    }
    bool up = false;
    switch (mode) {
    case round_mode::rn:
        up = above || (tie && (n & 1));
        break;
    case round_mode::rz:
        break;
    case round_mode::rd:
        up = inexact && v.neg;
        break;
    case round_mode::ru:
        up = inexact && !v.neg;
        break;
    }
    return uint32_t((uint64_t(quantum - lowest) << mant) + n + (up ? 1 : 0));
}

/// An IEEE binary format of 16 bits at most with infinities and NaNs: half (10, 5) or bfloat16 (7, 8).
template <int Mant, int Expo> struct ieee {
    static constexpr int bias = (1 << (Expo - 1)) - 1;
    static constexpr uint32_t inf = ((1u << Expo) - 1) << Mant;
    static constexpr uint32_t sign = 1u << (Mant + Expo);

    /// A finite value, or zero when v.sig is 0. Overflow follows IEEE: infinity, or the largest
    /// finite value where the direction of rounding points away from infinity.
    static uint32_t from_exact(exact v, round_mode mode)
    {
        if (v.sig == 0) return v.neg ? sign : 0;
        uint32_t c = round_code(v, Mant, bias, mode);
        if (c >= inf) {
            const bool to_inf =
                mode == round_mode::rn || (mode == round_mode::ru && !v.neg) || (mode == round_mode::rd && v.neg);
            c = to_inf ? inf : inf - 1;
        }
        return c | (v.neg ? sign : 0);
    }
    /// NaN keeps its sign and leading payload, made quiet (as x86's and AMD's conversions do).
    static uint32_t from_double(double d, round_mode mode)
    {
        const uint64_t b = double_bits(d);
        const uint32_t s = (b >> 63) ? sign : 0;
        if (((b >> 52) & 0x7ff) == 0x7ff)
            return (b << 12) == 0 ? s | inf
                                  : s | inf | (1u << (Mant - 1)) | uint32_t((b >> (52 - Mant)) & ((1u << Mant) - 1));
        if ((b << 1) == 0) return s;
        return from_exact(exact_of(d), mode);
    }
    /// The float of the same value (exact: every such format fits in float).
    static float to_float(uint32_t c)
    {
        if (Expo == 8) return bits_float(c << (23 - Mant)); // bfloat16: the top of a float, subnormals too
        const uint32_t s = (c & sign) ? 0x80000000u : 0, e = (c >> Mant) & ((1u << Expo) - 1),
                       m = c & ((1u << Mant) - 1);
        if (e == (1u << Expo) - 1) return bits_float(s | 0x7f800000u | (m << (23 - Mant)));
        if (e != 0) return bits_float(s | ((e + 127 - bias) << 23) | (m << (23 - Mant)));
        if (m == 0) return bits_float(s);
        const int p = 31 - __builtin_clz(m); // the leading bit of a subnormal
        return bits_float(s | (uint32_t(p + 127 + 1 - bias - Mant) << 23) | ((m << (23 - p)) & 0x7fffffu));
    }
};
using half_format = ieee<10, 5>;
using bf16_format = ieee<7, 8>;

/// float to half, to nearest even: the common case (a normal result) by integer rounding of the
/// rebiased bits, which carries into the exponent and on to infinity as it should.
inline uint16_t float_to_half_rn(float f)
{
    const uint32_t b = float_bits(f), a = b & 0x7fffffffu, s = (b >> 16) & 0x8000u;
    if (a < 0x38800000u || a >= 0x7f800000u) return uint16_t(half_format::from_double(f, round_mode::rn));
    const uint32_t x = a - 0x38000000u; // the exponent rebiased from 127 to 15
    const uint32_t r = (x + 0xfffu + ((x >> 13) & 1)) >> 13;
    return uint16_t(s | (r < 0x7c00u ? r : 0x7c00u));
}

/// float to bfloat16, to nearest even: the same exponent range, so integer rounding of the top
/// half of the bits is exact for every finite value, subnormals and overflow included.
inline uint16_t float_to_bf16_rn(float f)
{
    const uint32_t b = float_bits(f);
    if ((b & 0x7fffffffu) > 0x7f800000u) return uint16_t((b >> 16) | 0x40u); // NaN, made quiet
    return uint16_t((b + 0x7fffu + ((b >> 16) & 1)) >> 16);
}

/// The value of an integer.
template <class I> inline exact exact_of_integer(I i)
{
    const bool neg = std::is_signed<I>::value && i < 0;
    const uint64_t u = neg ? uint64_t(0) - uint64_t(i) : uint64_t(i);
    return exact{u, 0, neg};
}

/// A float rounded to an integer of type I in the given direction, as the GPUs' conversions do:
/// NaN gives 0, values beyond I's range give its minimum or maximum.
template <class I> inline I float_to_integer(float f, round_mode mode)
{
    if (f != f) return 0;
    double r = f; // exact; so are floor and the fraction of a float's value
    const double fl = __builtin_floor(r), frac = r - fl;
    switch (mode) {
    case round_mode::rn:
        r = frac > 0.5 || (frac == 0.5 && __builtin_fmod(fl, 2.0) != 0) ? fl + 1 : fl;
        break;
    case round_mode::rz:
        r = __builtin_trunc(r);
        break;
    case round_mode::rd:
        r = fl;
        break;
    case round_mode::ru:
        r = __builtin_ceil(r);
        break;
    }
    if (r <= double(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
    if (r >= double(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
    return I(r);
}

} // namespace hip_cpu_fp
