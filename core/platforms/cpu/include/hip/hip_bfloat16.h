// The cpu platform's hip_bfloat16, HIP's older bfloat16 struct (rocBLAS's): the top 16 bits of a
// float in a public `data`, explicit conversion from float (to nearest even, or truncating),
// implicit conversion to float, and arithmetic done in float and rounded to nearest even. Newer
// code uses __hip_bfloat16 (hip_bf16.h).
#pragma once

#include <hip/hip_runtime.h>

#include <cstdint>
#include <ostream>
#include <type_traits>

struct hip_bfloat16 {
    uint16_t data;

    enum truncate_t { truncate };

    hip_bfloat16() = default;
    explicit hip_bfloat16(float f) : data(round_bits(f)) {}
    explicit hip_bfloat16(float f, truncate_t) : data(truncate_bits(f)) {}
    operator float() const { return __builtin_bit_cast(float, uint32_t(data) << 16); }

    static hip_bfloat16 round_to_bfloat16(float f) { return hip_bfloat16(f); }
    static hip_bfloat16 round_to_bfloat16(float f, truncate_t) { return hip_bfloat16(f, truncate); }

private:
    /// To nearest even; a NaN keeps a nonzero fraction, so a signaling one stays a NaN.
    static uint16_t round_bits(float f)
    {
        const uint32_t b = __builtin_bit_cast(uint32_t, f);
        if ((b & 0x7f800000u) != 0x7f800000u) return uint16_t((b + 0x7fffu + ((b >> 16) & 1)) >> 16);
        return uint16_t((b >> 16) | ((b & 0xffffu) ? 1 : 0));
    }
    static uint16_t truncate_bits(float f)
    {
        const uint32_t b = __builtin_bit_cast(uint32_t, f);
        const bool nan = (b & 0x7fffffffu) > 0x7f800000u;
        return uint16_t((b >> 16) | (nan && (b & 0xffffu) ? 1 : 0));
    }
};

static_assert(std::is_trivial<hip_bfloat16>::value && std::is_standard_layout<hip_bfloat16>::value &&
                  sizeof(hip_bfloat16) == 2,
              "hip_bfloat16 is a plain 16-bit struct, as C sees it");

inline std::ostream& operator<<(std::ostream& os, const hip_bfloat16& h) { return os << float(h); }

inline hip_bfloat16 operator+(hip_bfloat16 a) { return a; }
inline hip_bfloat16 operator-(hip_bfloat16 a)
{
    a.data ^= 0x8000;
    return a;
}
inline hip_bfloat16 operator+(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16(float(a) + float(b)); }
inline hip_bfloat16 operator-(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16(float(a) - float(b)); }
inline hip_bfloat16 operator*(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16(float(a) * float(b)); }
inline hip_bfloat16 operator/(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16(float(a) / float(b)); }
inline bool operator<(hip_bfloat16 a, hip_bfloat16 b) { return float(a) < float(b); }
inline bool operator==(hip_bfloat16 a, hip_bfloat16 b) { return float(a) == float(b); }
inline bool operator>(hip_bfloat16 a, hip_bfloat16 b) { return b < a; }
inline bool operator<=(hip_bfloat16 a, hip_bfloat16 b) { return !(a > b); }
inline bool operator!=(hip_bfloat16 a, hip_bfloat16 b) { return !(a == b); }
inline bool operator>=(hip_bfloat16 a, hip_bfloat16 b) { return !(a < b); }
inline hip_bfloat16& operator+=(hip_bfloat16& a, hip_bfloat16 b) { return a = a + b; }
inline hip_bfloat16& operator-=(hip_bfloat16& a, hip_bfloat16 b) { return a = a - b; }
inline hip_bfloat16& operator*=(hip_bfloat16& a, hip_bfloat16 b) { return a = a * b; }
inline hip_bfloat16& operator/=(hip_bfloat16& a, hip_bfloat16 b) { return a = a / b; }
inline hip_bfloat16& operator++(hip_bfloat16& a) { return a += hip_bfloat16(1.0f); }
inline hip_bfloat16& operator--(hip_bfloat16& a) { return a -= hip_bfloat16(1.0f); }
inline hip_bfloat16 operator++(hip_bfloat16& a, int)
{
    const hip_bfloat16 old = a;
    ++a;
    return old;
}
inline hip_bfloat16 operator--(hip_bfloat16& a, int)
{
    const hip_bfloat16 old = a;
    --a;
    return old;
}

// HIP declares these in std, where code written for it calls them.
namespace std {
constexpr bool isinf(hip_bfloat16 a) { return (a.data & 0x7fff) == 0x7f80; }
constexpr bool isnan(hip_bfloat16 a) { return (a.data & 0x7fff) > 0x7f80; }
constexpr bool iszero(hip_bfloat16 a) { return (a.data & 0x7fff) == 0; }
} // namespace std
