// HIP device functions that CUDA lacks, for the nvidia platform (included at the end of
// hip_runtime.h): the atomics HIP has for types CUDA has none for (unsigned long; subtraction,
// min, max and compare-and-swap of float and double; ...), in HIP's three scopes, HIP's safe and
// unsafe floating-point atomics, HIP's bit-field intrinsics (__bitextract_u32 ...), __fns32,
// __fns64, __lastbit_u32_u64, and powif and powi. The semantics are those of the cpu platform's
// headers (core/platforms/cpu/include/hip), which follow HIP's.
#pragma once

#if defined(__CUDACC__)

namespace hip_nvidia_detail {
/// Atomically replaces *a by f(*a) with compare-and-swap on the bits (`cas`, of the scope wanted)
/// and returns the old value; an update that keeps the bits writes nothing.
template <class U, class T, class F, class C> __device__ inline T atomic_update(T* a, F f, C cas)
{
    static_assert(sizeof(U) == sizeof(T), "the bits of T");
    U* p = reinterpret_cast<U*>(a);
    U old = *reinterpret_cast<volatile U*>(p);
    for (;;) {
        T o, n;
        memcpy(&o, &old, sizeof(T));
        n = f(o);
        U bits;
        memcpy(&bits, &n, sizeof(T));
        if (bits == old) return o;
        const U seen = cas(p, old, bits);
        if (seen == old) return o;
        old = seen;
    }
}
template <class T, class U> __device__ inline T as(U u)
{
    T t;
    memcpy(&t, &u, sizeof(T));
    return t;
}
/// The n-th set bit (n >= 1) of `mask` (`bits` wide) from bit `base` upward, or downward; or -1.
__device__ inline int nth_set_bit(unsigned long long mask, int bits, int base, int n, bool down)
{
    for (int i = base; i >= 0 && i < bits; i += down ? -1 : 1)
        if ((mask >> i & 1) && --n == 0) return i;
    return -1;
}
} // namespace hip_nvidia_detail

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600 // the scoped and double atomics need sm_60
// S is the scope suffix: nothing (the device), _system or _block.
#define HIP_NV_WIDE(S)                                                                                                 \
    __device__ inline unsigned long long atomicSub##S(unsigned long long* a, unsigned long long v)                     \
    {                                                                                                                  \
        return atomicAdd##S(a, 0ull - v);                                                                              \
    }                                                                                                                  \
    __device__ inline unsigned long atomicCAS##S(unsigned long* a, unsigned long compare, unsigned long v)             \
    {                                                                                                                  \
        return atomicCAS##S(reinterpret_cast<unsigned long long*>(a), compare, v);                                     \
    }                                                                                                                  \
    __device__ inline double atomicExch##S(double* a, double v)                                                        \
    {                                                                                                                  \
        return hip_nvidia_detail::as<double>(                                                                          \
            atomicExch##S(reinterpret_cast<unsigned long long*>(a), hip_nvidia_detail::as<unsigned long long>(v)));    \
    }
// unsigned long is 64 bits wide, as unsigned long long.
#define HIP_NV_UL(op, S)                                                                                               \
    __device__ inline unsigned long atomic##op##S(unsigned long* a, unsigned long v)                                   \
    {                                                                                                                  \
        return atomic##op##S(reinterpret_cast<unsigned long long*>(a), (unsigned long long)v);                         \
    }
// Floating-point min and max replace the value only when the new one compares less (greater).
#define HIP_NV_FLOAT(T, U, S)                                                                                          \
    __device__ inline T atomicSub##S(T* a, T v) { return atomicAdd##S(a, -v); }                                        \
    __device__ inline T atomicCAS##S(T* a, T compare, T v)                                                             \
    {                                                                                                                  \
        return hip_nvidia_detail::as<T>(                                                                               \
            atomicCAS##S(reinterpret_cast<U*>(a), hip_nvidia_detail::as<U>(compare), hip_nvidia_detail::as<U>(v)));    \
    }                                                                                                                  \
    __device__ inline T atomicMin##S(T* a, T v)                                                                        \
    {                                                                                                                  \
        return hip_nvidia_detail::atomic_update<U>(                                                                    \
            a, [v](T o) { return v < o ? v : o; }, [](U* p, U c, U n) { return atomicCAS##S(p, c, n); });              \
    }                                                                                                                  \
    __device__ inline T atomicMax##S(T* a, T v)                                                                        \
    {                                                                                                                  \
        return hip_nvidia_detail::atomic_update<U>(                                                                    \
            a, [v](T o) { return o < v ? v : o; }, [](U* p, U c, U n) { return atomicCAS##S(p, c, n); });              \
    }
#define HIP_NV_ATOMICS(S)                                                                                              \
    HIP_NV_WIDE(S)                                                                                                     \
    HIP_NV_UL(Add, S)                                                                                                  \
    HIP_NV_UL(Sub, S)                                                                                                  \
    HIP_NV_UL(Exch, S)                                                                                                 \
    HIP_NV_UL(Min, S)                                                                                                  \
    HIP_NV_UL(Max, S)                                                                                                  \
    HIP_NV_UL(And, S)                                                                                                  \
    HIP_NV_UL(Or, S)                                                                                                   \
    HIP_NV_UL(Xor, S)                                                                                                  \
    HIP_NV_FLOAT(float, unsigned, S)                                                                                   \
    HIP_NV_FLOAT(double, unsigned long long, S)
HIP_NV_ATOMICS()
HIP_NV_ATOMICS(_system)
HIP_NV_ATOMICS(_block)
#undef HIP_NV_FLOAT
#undef HIP_NV_UL
#undef HIP_NV_WIDE
#undef HIP_NV_ATOMICS

// HIP's explicitly safe and unsafe floating-point atomics: on NVIDIA GPUs the ordinary ones.
#define HIP_NV_SAFETY(T)                                                                                               \
    __device__ inline T unsafeAtomicAdd(T* a, T v) { return atomicAdd(a, v); }                                         \
    __device__ inline T safeAtomicAdd(T* a, T v) { return atomicAdd(a, v); }                                           \
    __device__ inline T unsafeAtomicMin(T* a, T v) { return atomicMin(a, v); }                                         \
    __device__ inline T safeAtomicMin(T* a, T v) { return atomicMin(a, v); }                                           \
    __device__ inline T unsafeAtomicMax(T* a, T v) { return atomicMax(a, v); }                                         \
    __device__ inline T safeAtomicMax(T* a, T v) { return atomicMax(a, v); }
HIP_NV_SAFETY(float)
HIP_NV_SAFETY(double)
#undef HIP_NV_SAFETY
#endif // sm_60

// ---- HIP's integer intrinsics that CUDA does not have ----------------------------------------------
/// The position of the lowest set bit, 0xffffffff for 0.
__device__ inline unsigned __lastbit_u32_u64(unsigned long long x) { return x == 0 ? ~0u : unsigned(__ffsll(x) - 1); }
/// Bits [offset, offset + width) of `src` (offset and width taken modulo the word size).
__device__ inline unsigned __bitextract_u32(unsigned src, unsigned offset, unsigned width)
{
    width &= 31;
    return width == 0 ? 0 : src >> (offset & 31) & ((1u << width) - 1);
}
__device__ inline unsigned long long __bitextract_u64(unsigned long long src, unsigned offset, unsigned width)
{
    width &= 63;
    return width == 0 ? 0 : src >> (offset & 63) & ((1ull << width) - 1);
}
/// `src` with bits [offset, offset + width) replaced by the low `width` bits of `ins`.
__device__ inline unsigned __bitinsert_u32(unsigned src, unsigned ins, unsigned offset, unsigned width)
{
    const unsigned mask = ((1u << (width & 31)) - 1) << (offset & 31);
    return (src & ~mask) | (ins << (offset & 31) & mask);
}
__device__ inline unsigned long long __bitinsert_u64(unsigned long long src, unsigned long long ins, unsigned offset,
                                                     unsigned width)
{
    const unsigned long long mask = ((1ull << (width & 63)) - 1) << (offset & 63);
    return (src & ~mask) | (ins << (offset & 63) & mask);
}
/// The n-th set bit of `mask` from bit `base`, upward for n > 0, downward for n < 0; for n == 0,
/// `base` itself when it is set. -1 when there is none. (CUDA's __fns is the 32-bit form.)
__device__ inline int __fns64(unsigned long long mask, unsigned base, int offset)
{
    if (base > 63) return -1;
    if (offset == 0) return mask >> base & 1 ? int(base) : -1;
    return hip_nvidia_detail::nth_set_bit(mask, 64, int(base), offset < 0 ? -offset : offset, offset < 0);
}
__device__ inline int __fns32(unsigned long long mask, unsigned base, int offset)
{
    return __fns64(mask & 0xffffffffull, base > 31 ? 64 : base, offset);
}
// HIP's integer powers.
__device__ inline float powif(float x, int n) { return float(pow(double(x), double(n))); }
__device__ inline double powi(double x, int n) { return pow(x, double(n)); }

#endif // __CUDACC__
