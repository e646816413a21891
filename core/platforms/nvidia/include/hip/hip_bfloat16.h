// HIP's hip_bfloat16 on CUDA: HIP's older bfloat16 struct (rocBLAS's), the top 16 bits of a float
// in a public `data`, explicit conversion from float (to nearest even, or truncating), implicit
// conversion to float, and arithmetic done in float and rounded to nearest even, on the host and
// the device. Newer code uses __hip_bfloat16 (hip_bf16.h).
#pragma once

#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstring>
#include <ostream>

struct hip_bfloat16 {
    uint16_t data;

    enum truncate_t { truncate };

    hip_bfloat16() = default;
    __host__ __device__ explicit hip_bfloat16(float f) : data(round_bits(f)) {}
    __host__ __device__ explicit hip_bfloat16(float f, truncate_t) : data(truncate_bits(f)) {}
    __host__ __device__ operator float() const
    {
        const uint32_t b = uint32_t(data) << 16;
        float f;
        memcpy(&f, &b, sizeof f);
        return f;
    }

    __host__ __device__ static hip_bfloat16 round_to_bfloat16(float f) { return hip_bfloat16(f); }
    __host__ __device__ static hip_bfloat16 round_to_bfloat16(float f, truncate_t) { return hip_bfloat16(f, truncate); }

private:
    __host__ __device__ static uint32_t bits(float f)
    {
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        return b;
    }
    /// To nearest even; a NaN keeps a nonzero fraction, so a signaling one stays a NaN.
    __host__ __device__ static uint16_t round_bits(float f)
    {
        const uint32_t b = bits(f);
        if ((b & 0x7f800000u) != 0x7f800000u) return uint16_t((b + 0x7fffu + ((b >> 16) & 1)) >> 16);
        return uint16_t((b >> 16) | ((b & 0xffffu) ? 1 : 0));
    }
    __host__ __device__ static uint16_t truncate_bits(float f)
    {
        const uint32_t b = bits(f);
        const bool nan = (b & 0x7fffffffu) > 0x7f800000u;
        return uint16_t((b >> 16) | (nan && (b & 0xffffu) ? 1 : 0));
    }
};

inline std::ostream& operator<<(std::ostream& os, const hip_bfloat16& h) { return os << float(h); }

__host__ __device__ inline hip_bfloat16 operator+(hip_bfloat16 a) { return a; }
__host__ __device__ inline hip_bfloat16 operator-(hip_bfloat16 a)
{
    a.data ^= 0x8000;
    return a;
}
#define WB_NVIDIA_BF16_ARITHMETIC(OP)                                                                                  \
    __host__ __device__ inline hip_bfloat16 operator OP(hip_bfloat16 a, hip_bfloat16 b)                                \
    {                                                                                                                  \
        return hip_bfloat16(float(a) OP float(b));                                                                     \
    }                                                                                                                  \
    __host__ __device__ inline hip_bfloat16& operator OP##=(hip_bfloat16& a, hip_bfloat16 b) { return a = a OP b; }
WB_NVIDIA_BF16_ARITHMETIC(+)
WB_NVIDIA_BF16_ARITHMETIC(-)
WB_NVIDIA_BF16_ARITHMETIC(*)
WB_NVIDIA_BF16_ARITHMETIC(/)
#undef WB_NVIDIA_BF16_ARITHMETIC
#define WB_NVIDIA_BF16_COMPARE(OP)                                                                                     \
    __host__ __device__ inline bool operator OP(hip_bfloat16 a, hip_bfloat16 b) { return float(a) OP float(b); }
WB_NVIDIA_BF16_COMPARE(<)
WB_NVIDIA_BF16_COMPARE(>)
WB_NVIDIA_BF16_COMPARE(<=)
WB_NVIDIA_BF16_COMPARE(>=)
WB_NVIDIA_BF16_COMPARE(==)
WB_NVIDIA_BF16_COMPARE(!=)
#undef WB_NVIDIA_BF16_COMPARE
__host__ __device__ inline hip_bfloat16& operator++(hip_bfloat16& a) { return a += hip_bfloat16(1.0f); }
__host__ __device__ inline hip_bfloat16& operator--(hip_bfloat16& a) { return a -= hip_bfloat16(1.0f); }
__host__ __device__ inline hip_bfloat16 operator++(hip_bfloat16& a, int)
{
    const hip_bfloat16 old = a;
    ++a;
    return old;
}
__host__ __device__ inline hip_bfloat16 operator--(hip_bfloat16& a, int)
{
    const hip_bfloat16 old = a;
    --a;
    return old;
}

// HIP declares these in std, where code written for it calls them.
namespace std {
__host__ __device__ constexpr bool isinf(hip_bfloat16 a) { return (a.data & 0x7fff) == 0x7f80; }
__host__ __device__ constexpr bool isnan(hip_bfloat16 a) { return (a.data & 0x7fff) > 0x7f80; }
__host__ __device__ constexpr bool iszero(hip_bfloat16 a) { return (a.data & 0x7fff) == 0; }
} // namespace std
