// The cpu platform's atomics (included by hip_runtime.h): HIP's list, for the types HIP defines
// each for, as real atomics on host memory with relaxed order, like the GPU's device-scope
// atomics. The `_system` and `_block` variants are the same operations: host memory is coherent
// for every scope. Each function takes exactly HIP's parameter types (no templates), so a call
// with mixed argument types (`atomicAdd(&d, 1)`, `atomicMax(&i, u)`) converts the value to the
// pointer's type, as it does with HIP.
#pragma once

#include <hip/hip_runtime.h>

namespace hip_cpu_detail {
/// Atomically replaces *a by f(*a) and returns the old value: a compare-and-swap loop that
/// compares the bits, as the GPUs' compare-and-swap does (so -0.0 is not 0.0 and NaN is itself).
/// An update that leaves the bits as they are writes nothing.
template <class T, class F> inline T atomic_update(T* a, F f)
{
    T old;
    __atomic_load(a, &old, __ATOMIC_RELAXED);
    for (;;) {
        T next = f(old);
        if (std::memcmp(&next, &old, sizeof(T)) == 0) return old;
        if (__atomic_compare_exchange(a, &old, &next, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return old;
    }
}
template <class T> inline T atomic_cas(T* a, T compare, T v)
{
    __atomic_compare_exchange(a, &compare, &v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return compare;
}
template <class T> inline T atomic_exchange(T* a, T v)
{
    T old;
    __atomic_exchange(a, &v, &old, __ATOMIC_RELAXED);
    return old;
}
// Floating-point min and max replace the value only when the new one compares less (greater), as
// HIP's compare-and-swap loops do: a NaN argument changes nothing.
template <class T> inline T atomic_min(T* a, T v)
{
    return atomic_update(a, [v](T o) { return v < o ? v : o; });
}
template <class T> inline T atomic_max(T* a, T v)
{
    return atomic_update(a, [v](T o) { return o < v ? v : o; });
}
} // namespace hip_cpu_detail

// S is the scope suffix: nothing (the device), _system or _block.
#define WB_CPU_ATOMIC_ARITH(T, S)                                                                                      \
    inline T atomicAdd##S(T* a, T v) { return __atomic_fetch_add(a, v, __ATOMIC_RELAXED); }                            \
    inline T atomicSub##S(T* a, T v) { return __atomic_fetch_sub(a, v, __ATOMIC_RELAXED); }                            \
    inline T atomicExch##S(T* a, T v) { return __atomic_exchange_n(a, v, __ATOMIC_RELAXED); }                          \
    inline T atomicCAS##S(T* a, T compare, T v) { return hip_cpu_detail::atomic_cas(a, compare, v); }                  \
    inline T atomicAnd##S(T* a, T v) { return __atomic_fetch_and(a, v, __ATOMIC_RELAXED); }                            \
    inline T atomicOr##S(T* a, T v) { return __atomic_fetch_or(a, v, __ATOMIC_RELAXED); }                              \
    inline T atomicXor##S(T* a, T v) { return __atomic_fetch_xor(a, v, __ATOMIC_RELAXED); }
#define WB_CPU_ATOMIC_MIN_MAX(T, S)                                                                                    \
    inline T atomicMin##S(T* a, T v) { return hip_cpu_detail::atomic_min(a, v); }                                      \
    inline T atomicMax##S(T* a, T v) { return hip_cpu_detail::atomic_max(a, v); }
// atomicInc counts up to `limit`, then starts again at 0; atomicDec counts down from `limit` to 0,
// and a value of 0 or above `limit` becomes `limit`.
#define WB_CPU_ATOMIC_INC_DEC(S)                                                                                       \
    inline unsigned atomicInc##S(unsigned* a, unsigned limit)                                                          \
    {                                                                                                                  \
        return hip_cpu_detail::atomic_update(a, [limit](unsigned o) { return o >= limit ? 0u : o + 1; });              \
    }                                                                                                                  \
    inline unsigned atomicDec##S(unsigned* a, unsigned limit)                                                          \
    {                                                                                                                  \
        return hip_cpu_detail::atomic_update(a, [limit](unsigned o) { return o == 0 || o > limit ? limit : o - 1; });  \
    }
#define WB_CPU_ATOMIC_FLOAT(T, S)                                                                                      \
    inline T atomicAdd##S(T* a, T v)                                                                                   \
    {                                                                                                                  \
        return hip_cpu_detail::atomic_update(a, [v](T o) { return o + v; });                                           \
    }                                                                                                                  \
    inline T atomicSub##S(T* a, T v)                                                                                   \
    {                                                                                                                  \
        return hip_cpu_detail::atomic_update(a, [v](T o) { return o - v; });                                           \
    }                                                                                                                  \
    inline T atomicExch##S(T* a, T v) { return hip_cpu_detail::atomic_exchange(a, v); }                                \
    inline T atomicCAS##S(T* a, T compare, T v) { return hip_cpu_detail::atomic_cas(a, compare, v); }                  \
    WB_CPU_ATOMIC_MIN_MAX(T, S)
#define WB_CPU_ATOMIC_SCOPE(S)                                                                                         \
    WB_CPU_ATOMIC_ARITH(int, S)                                                                                        \
    WB_CPU_ATOMIC_ARITH(unsigned, S)                                                                                   \
    WB_CPU_ATOMIC_ARITH(unsigned long, S)                                                                              \
    WB_CPU_ATOMIC_ARITH(unsigned long long, S)                                                                         \
    WB_CPU_ATOMIC_MIN_MAX(int, S)                                                                                      \
    WB_CPU_ATOMIC_MIN_MAX(unsigned, S)                                                                                 \
    WB_CPU_ATOMIC_MIN_MAX(unsigned long, S)                                                                            \
    WB_CPU_ATOMIC_MIN_MAX(unsigned long long, S)                                                                       \
    WB_CPU_ATOMIC_MIN_MAX(long long, S)                                                                                \
    WB_CPU_ATOMIC_INC_DEC(S)                                                                                           \
    WB_CPU_ATOMIC_FLOAT(float, S)                                                                                      \
    WB_CPU_ATOMIC_FLOAT(double, S)
WB_CPU_ATOMIC_SCOPE()
WB_CPU_ATOMIC_SCOPE(_system)
WB_CPU_ATOMIC_SCOPE(_block)
#undef WB_CPU_ATOMIC_SCOPE
#undef WB_CPU_ATOMIC_FLOAT
#undef WB_CPU_ATOMIC_INC_DEC
#undef WB_CPU_ATOMIC_MIN_MAX
#undef WB_CPU_ATOMIC_ARITH

// HIP's explicitly safe and unsafe floating-point atomics (AMD GPUs may use faster instructions
// with other rounding for the unsafe ones): here both are the ordinary atomics.
#define WB_CPU_ATOMIC_SAFETY(T)                                                                                        \
    inline T unsafeAtomicAdd(T* a, T v) { return atomicAdd(a, v); }                                                    \
    inline T safeAtomicAdd(T* a, T v) { return atomicAdd(a, v); }                                                      \
    inline T unsafeAtomicMin(T* a, T v) { return atomicMin(a, v); }                                                    \
    inline T safeAtomicMin(T* a, T v) { return atomicMin(a, v); }                                                      \
    inline T unsafeAtomicMax(T* a, T v) { return atomicMax(a, v); }                                                    \
    inline T safeAtomicMax(T* a, T v) { return atomicMax(a, v); }
WB_CPU_ATOMIC_SAFETY(float)
WB_CPU_ATOMIC_SAFETY(double)
#undef WB_CPU_ATOMIC_SAFETY
