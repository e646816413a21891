// The cpu platform's warp collectives: votes and shuffles, unmasked and masked (included by
// hip_runtime.h). Lanes of one wavefront that reach the same call site together form one
// collective; lanes that have exited, or are elsewhere, are inactive (see the README). Every
// collective takes its caller's source location, so that two call sites are two collectives.
#pragma once

#include <hip/hip_runtime.h>

enum hip_cpu_op { hip_cpu_ballot = 0, hip_cpu_shfl, hip_cpu_shfl_up, hip_cpu_shfl_down, hip_cpu_shfl_xor };

inline unsigned long long __ballot(int predicate, std::source_location l = std::source_location::current())
{
    return hip_cpu_collective(hip_cpu_ballot, predicate != 0, 0, 0, l.file_name(), l.line(), l.column());
}
inline int __any(int predicate, std::source_location l = std::source_location::current())
{
    return __ballot(predicate, l) != 0;
}
inline int __all(int predicate, std::source_location l = std::source_location::current())
{
    // Every active lane's bit is set exactly when nobody voted "false".
    return __ballot(!predicate, l) == 0;
}

namespace hip_cpu_detail {
template <class T> inline T shuffle(int op, T var, int arg, int width, const std::source_location& l)
{
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8, "shuffles move values of 8 bytes at most");
    uint64_t bits = 0;
    std::memcpy(&bits, &var, sizeof(T));
    bits = hip_cpu_collective(op, bits, arg, width, l.file_name(), l.line(), l.column());
    T r;
    std::memcpy(&r, &bits, sizeof(T));
    return r;
}
} // namespace hip_cpu_detail

template <class T>
inline T __shfl(T var, int src_lane, int width = warpSize, std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::shuffle(hip_cpu_shfl, var, src_lane, width, l);
}
template <class T>
inline T __shfl_up(T var, unsigned delta, int width = warpSize,
                   std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::shuffle(hip_cpu_shfl_up, var, int(delta), width, l);
}
template <class T>
inline T __shfl_down(T var, unsigned delta, int width = warpSize,
                     std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::shuffle(hip_cpu_shfl_down, var, int(delta), width, l);
}
template <class T>
inline T __shfl_xor(T var, int lane_mask, int width = warpSize,
                    std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::shuffle(hip_cpu_shfl_xor, var, lane_mask, width, l);
}

// The masked spellings (CUDA's, and HIP's since ROCm 6.2). The mask is not checked: as for the
// unmasked ones, the lanes of the wavefront that reach the call site together take part.
inline unsigned long long __activemask(std::source_location l = std::source_location::current())
{
    return __ballot(1, l);
}
inline void __syncwarp(unsigned long long = ~0ull, std::source_location l = std::source_location::current())
{
    (void)__ballot(1, l); // a wavefront's lanes meet here: what each wrote before is seen by all after
}
inline unsigned long long __ballot_sync(unsigned long long, int predicate,
                                        std::source_location l = std::source_location::current())
{
    return __ballot(predicate, l);
}
inline int __any_sync(unsigned long long, int predicate, std::source_location l = std::source_location::current())
{
    return __any(predicate, l);
}
inline int __all_sync(unsigned long long, int predicate, std::source_location l = std::source_location::current())
{
    return __all(predicate, l);
}
template <class T>
inline T __shfl_sync(unsigned long long, T var, int src_lane, int width = warpSize,
                     std::source_location l = std::source_location::current())
{
    return __shfl(var, src_lane, width, l);
}
template <class T>
inline T __shfl_up_sync(unsigned long long, T var, unsigned delta, int width = warpSize,
                        std::source_location l = std::source_location::current())
{
    return __shfl_up(var, delta, width, l);
}
template <class T>
inline T __shfl_down_sync(unsigned long long, T var, unsigned delta, int width = warpSize,
                          std::source_location l = std::source_location::current())
{
    return __shfl_down(var, delta, width, l);
}
template <class T>
inline T __shfl_xor_sync(unsigned long long, T var, int lane_mask, int width = warpSize,
                         std::source_location l = std::source_location::current())
{
    return __shfl_xor(var, lane_mask, width, l);
}
