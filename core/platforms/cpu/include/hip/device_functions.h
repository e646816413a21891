// The cpu platform's device functions (included by hip_runtime.h): HIP's integer intrinsics, bit
// operations and type punning, with the results a GPU computes, bit for bit, and HIP's
// signatures (for instance __popc returns unsigned and __umul24 int, as in HIP). The conversions
// and the arithmetic with a rounding mode are in hip_cpu_rounding.h.
#pragma once

#include <hip/hip_runtime.h>

#include <climits>

namespace hip_cpu_detail {
template <class To, class From> inline To bit_cast(From from)
{
    static_assert(sizeof(To) == sizeof(From), "type punning keeps the size");
    To to;
    std::memcpy(&to, &from, sizeof(To));
    return to;
}
/// The n-th set bit (n >= 1) of `mask` (`bits` wide) counted from bit `base` upward, or downward
/// when `down`; -1 when there are fewer.
inline int nth_set_bit(unsigned long long mask, int bits, int base, int n, bool down)
{
    for (int i = base; i >= 0 && i < bits; i += down ? -1 : 1)
        if ((mask >> i & 1) && --n == 0) return i;
    return -1;
}
} // namespace hip_cpu_detail

// ---- bit counts -------------------------------------------------------------------------------------
inline unsigned __popc(unsigned x) { return unsigned(__builtin_popcount(x)); }
inline unsigned __popcll(unsigned long long x) { return unsigned(__builtin_popcountll(x)); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(unsigned(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline int __ffs(unsigned x) { return __builtin_ffs(int(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(unsigned long long x) { return __builtin_ffsll((long long)x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
/// The position of the lowest set bit, 0xffffffff for 0.
inline unsigned __lastbit_u32_u64(unsigned long long x) { return x == 0 ? ~0u : unsigned(__builtin_ctzll(x)); }
/// The n-th set bit of `mask` from bit `base`, upward for n > 0, downward for n < 0; for n == 0,
/// `base` itself when it is set. -1 when there is none.
inline int __fns64(unsigned long long mask, unsigned base, int offset)
{
    if (base > 63) return -1;
    if (offset == 0) return mask >> base & 1 ? int(base) : -1;
    return hip_cpu_detail::nth_set_bit(mask, 64, int(base), offset < 0 ? -offset : offset, offset < 0);
}
inline int __fns32(unsigned long long mask, unsigned base, int offset)
{
    return __fns64(mask & 0xffffffffull, base > 31 ? 64 : base, offset);
}
inline int __fns(unsigned mask, unsigned base, int offset) { return __fns32(mask, base, offset); }

// ---- bit fields, reversal, permutation, funnel shifts ----------------------------------------------------
inline unsigned __brev(unsigned x)
{
    x = (x >> 1 & 0x55555555u) | (x & 0x55555555u) << 1;
    x = (x >> 2 & 0x33333333u) | (x & 0x33333333u) << 2;
    x = (x >> 4 & 0x0f0f0f0fu) | (x & 0x0f0f0f0fu) << 4;
    return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x)
{
    return (unsigned long long)__brev(unsigned(x)) << 32 | __brev(unsigned(x >> 32));
}
/// Bits [offset, offset + width) of `src` (offset and width taken modulo the word size).
inline unsigned __bitextract_u32(unsigned src, unsigned offset, unsigned width)
{
    width &= 31;
    return width == 0 ? 0 : src >> (offset & 31) & ((1u << width) - 1);
}
inline unsigned long long __bitextract_u64(unsigned long long src, unsigned offset, unsigned width)
{
    width &= 63;
    return width == 0 ? 0 : src >> (offset & 63) & ((1ull << width) - 1);
}
/// `src` with bits [offset, offset + width) replaced by the low `width` bits of `ins`.
inline unsigned __bitinsert_u32(unsigned src, unsigned ins, unsigned offset, unsigned width)
{
    const unsigned mask = ((1u << (width & 31)) - 1) << (offset & 31);
    return (src & ~mask) | (ins << (offset & 31) & mask);
}
inline unsigned long long __bitinsert_u64(unsigned long long src, unsigned long long ins, unsigned offset,
                                          unsigned width)
{
    const unsigned long long mask = ((1ull << (width & 63)) - 1) << (offset & 63);
    return (src & ~mask) | (ins << (offset & 63) & mask);
}
/// Byte i of the result is byte (s >> 4i) & 7 of the eight bytes y:x (x the low word).
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    const unsigned long long bytes = (unsigned long long)y << 32 | x;
    unsigned r = 0;
    for (int i = 0; i < 4; ++i) r |= unsigned(bytes >> (8 * (s >> (4 * i) & 7)) & 0xff) << (8 * i);
    return r;
}
/// The high word of hi:lo shifted left, the low word of hi:lo shifted right; `shift` is taken
/// modulo 32, or clamped to 32 by the `c` forms.
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift)
{
    return unsigned(((unsigned long long)hi << 32 | lo) << (shift & 31) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift)
{
    return shift >= 32 ? lo : __funnelshift_l(lo, hi, shift);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift)
{
    return unsigned(((unsigned long long)hi << 32 | lo) >> (shift & 31));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift)
{
    return shift >= 32 ? hi : __funnelshift_r(lo, hi, shift);
}

// ---- integer arithmetic -----------------------------------------------------------------------------
/// The low 32 bits of the product of the low 24 bits of each operand (sign-extended for __mul24).
inline int __mul24(int x, int y)
{
    const int a = int(unsigned(x) << 8) >> 8, b = int(unsigned(y) << 8) >> 8;
    return int(unsigned((long long)a * b));
}
inline int __umul24(unsigned x, unsigned y)
{
    return int(unsigned((unsigned long long)(x & 0xffffff) * (y & 0xffffff)));
}
inline int __mulhi(int x, int y) { return int((long long)x * y >> 32); }
inline unsigned __umulhi(unsigned x, unsigned y) { return unsigned((unsigned long long)x * y >> 32); }
inline long long __mul64hi(long long x, long long y) { return (long long)((__int128)x * y >> 64); }
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y)
{
    return (unsigned long long)((unsigned __int128)x * y >> 64);
}
/// Averages without overflow: (x + y) >> 1 and (x + y + 1) >> 1 in wider arithmetic. The int
/// overloads are the integer intrinsics; __half ones belong to hip_fp16.h.
inline int __hadd(int x, int y) { return int(((long long)x + y) >> 1); }
inline int __rhadd(int x, int y) { return int(((long long)x + y + 1) >> 1); }
inline unsigned __uhadd(unsigned x, unsigned y) { return unsigned(((unsigned long long)x + y) >> 1); }
inline unsigned __urhadd(unsigned x, unsigned y) { return unsigned(((unsigned long long)x + y + 1) >> 1); }
/// |x - y| + z, modulo 2^32.
inline unsigned __sad(int x, int y, unsigned z)
{
    return (x > y ? unsigned(x) - unsigned(y) : unsigned(y) - unsigned(x)) + z;
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }

// ---- type punning -----------------------------------------------------------------------------------
inline int __float_as_int(float x) { return hip_cpu_detail::bit_cast<int>(x); }
inline unsigned __float_as_uint(float x) { return hip_cpu_detail::bit_cast<unsigned>(x); }
inline float __int_as_float(int x) { return hip_cpu_detail::bit_cast<float>(x); }
inline float __uint_as_float(unsigned x) { return hip_cpu_detail::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return hip_cpu_detail::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return hip_cpu_detail::bit_cast<double>(x); }
inline int __double2hiint(double x) { return int(hip_cpu_detail::bit_cast<unsigned long long>(x) >> 32); }
inline int __double2loint(double x) { return int(hip_cpu_detail::bit_cast<unsigned long long>(x)); }
inline double __hiloint2double(int hi, int lo)
{
    return hip_cpu_detail::bit_cast<double>((unsigned long long)unsigned(hi) << 32 | unsigned(lo));
}

#include <hip/hip_cpu_rounding.h>
