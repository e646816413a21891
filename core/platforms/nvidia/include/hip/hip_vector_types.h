// The nvidia platform's vector types (included by hip_runtime.h): CUDA's own char1 ... double4 and
// make_*, which have no operators, given HIP's (../../../hip_vector_ops.h, the set the cpu
// platform has). Sizes and alignments stay CUDA's: long4, ulong4, longlong4, ulonglong4 and double4
// are aligned 16 (32 in HIP), and CUDA 13 deprecates them for their _16a and _32a forms. Shuffles
// also take vector types of up to 8 bytes (`__shfl(float2)`), as on the cpu platform.
#pragma once

#include <vector_functions.h>
#include <vector_types.h>

#include "../../../hip_vector_ops.h"

#if defined(__NV_SILENCE_DEPRECATION_BEGIN)
#define HIP_NVIDIA_SILENCE_BEGIN __NV_SILENCE_DEPRECATION_BEGIN
#define HIP_NVIDIA_SILENCE_END __NV_SILENCE_DEPRECATION_END
#else
#define HIP_NVIDIA_SILENCE_BEGIN
#define HIP_NVIDIA_SILENCE_END
#endif

// CUDA's 48 types, named to the operators with their component type.
#define HIP_NVIDIA_VECTOR_TYPES(NAME, T)                                                                               \
    template <> struct traits<NAME##1> : shape<T, 1> {                                                                 \
    };                                                                                                                 \
    template <> struct traits<NAME##2> : shape<T, 2> {                                                                 \
    };                                                                                                                 \
    template <> struct traits<NAME##3> : shape<T, 3> {                                                                 \
    };                                                                                                                 \
    template <> struct traits<NAME##4> : shape<T, 4> {                                                                 \
    };
namespace hip_vector_detail {
HIP_NVIDIA_SILENCE_BEGIN
HIP_NVIDIA_VECTOR_TYPES(char, signed char)
HIP_NVIDIA_VECTOR_TYPES(uchar, unsigned char)
HIP_NVIDIA_VECTOR_TYPES(short, short)
HIP_NVIDIA_VECTOR_TYPES(ushort, unsigned short)
HIP_NVIDIA_VECTOR_TYPES(int, int)
HIP_NVIDIA_VECTOR_TYPES(uint, unsigned)
HIP_NVIDIA_VECTOR_TYPES(long, long)
HIP_NVIDIA_VECTOR_TYPES(ulong, unsigned long)
HIP_NVIDIA_VECTOR_TYPES(longlong, long long)
HIP_NVIDIA_VECTOR_TYPES(ulonglong, unsigned long long)
HIP_NVIDIA_VECTOR_TYPES(float, float)
HIP_NVIDIA_VECTOR_TYPES(double, double)
HIP_NVIDIA_SILENCE_END
} // namespace hip_vector_detail
#undef HIP_NVIDIA_VECTOR_TYPES
#undef HIP_NVIDIA_SILENCE_BEGIN
#undef HIP_NVIDIA_SILENCE_END

#if defined(__CUDACC__)
namespace hip_vector_detail {
/// A vector of up to 8 bytes as the 32- or 64-bit word that CUDA's shuffles move, and back.
template <class V> using word_t = std::conditional_t<sizeof(V) <= 4, unsigned, unsigned long long>;
template <class V> __device__ inline word_t<V> to_word(const V& v)
{
    word_t<V> w = 0;
    memcpy(&w, &v, sizeof(V));
    return w;
}
template <class V> __device__ inline V from_word(word_t<V> w)
{
    V v;
    memcpy(&v, &w, sizeof(V));
    return v;
}
template <class V> using if_shuffled = std::enable_if_t<(traits<V>::size > 0) && sizeof(V) <= 8, int>;
} // namespace hip_vector_detail

// CUDA's shuffles for vector types (which hip_runtime.h's __shfl ... call).
template <class V, hip_vector_detail::if_shuffled<V> = 0>
__device__ inline V __shfl_sync(unsigned mask, V var, int src_lane, int width = warpSize)
{
    return hip_vector_detail::from_word<V>(__shfl_sync(mask, hip_vector_detail::to_word(var), src_lane, width));
}
template <class V, hip_vector_detail::if_shuffled<V> = 0>
__device__ inline V __shfl_up_sync(unsigned mask, V var, unsigned delta, int width = warpSize)
{
    return hip_vector_detail::from_word<V>(__shfl_up_sync(mask, hip_vector_detail::to_word(var), delta, width));
}
template <class V, hip_vector_detail::if_shuffled<V> = 0>
__device__ inline V __shfl_down_sync(unsigned mask, V var, unsigned delta, int width = warpSize)
{
    return hip_vector_detail::from_word<V>(__shfl_down_sync(mask, hip_vector_detail::to_word(var), delta, width));
}
template <class V, hip_vector_detail::if_shuffled<V> = 0>
__device__ inline V __shfl_xor_sync(unsigned mask, V var, int lane_mask, int width = warpSize)
{
    return hip_vector_detail::from_word<V>(__shfl_xor_sync(mask, hip_vector_detail::to_word(var), lane_mask, width));
}
#endif // __CUDACC__
