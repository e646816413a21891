// The cpu platform's vector types (included by hip_runtime.h): HIP's char1 ... double4, with the
// sizes and alignments HIP gives them, HIP's constructors, make_*, HIP's operators
// (../../../hip_vector_ops.h, shared with the nvidia platform), and dim3. Self-contained:
// hip_runtime.h needs it before its own declarations.
#pragma once

#include "../../../hip_vector_ops.h"

/// The components, x y z w. Two and four components are aligned to their whole size (float2 8,
/// float4 16, double4 32), one and three to the component's own alignment (float3: 12 bytes,
/// aligned 4), as in HIP.
template <class T, unsigned N> struct hip_cpu_vector_storage;
template <class T> struct hip_cpu_vector_storage<T, 1> {
    T x;
};
template <class T> struct alignas(2 * sizeof(T)) hip_cpu_vector_storage<T, 2> {
    T x, y;
};
template <class T> struct hip_cpu_vector_storage<T, 3> {
    T x, y, z;
};
template <class T> struct alignas(4 * sizeof(T)) hip_cpu_vector_storage<T, 4> {
    T x, y, z, w;
};

/// One vector type (float4 is hip_cpu_vector<float, 4>), with HIP's constructors: none (the
/// components are left uninitialised; `float4 v{}` is zero), one value for every component
/// (explicit: `float4(0.5f)`), or one value per component (2 to 4 of them, each converted to T:
/// `float4 v = {1, 2, 3, 4}`). Trivially copyable and standard layout, as shuffles and memcpy
/// need.
template <class T, unsigned N> struct hip_cpu_vector : hip_cpu_vector_storage<T, N> {
    using value_type = T;

    hip_cpu_vector() = default;
    template <class U, std::enable_if_t<std::is_convertible<U, T>::value, int> = 0>
    explicit constexpr hip_cpu_vector(U v) noexcept : hip_cpu_vector(static_cast<T>(v), std::make_index_sequence<N>{})
    {
    }
    template <class... U, std::enable_if_t<(N > 1 && sizeof...(U) == N) &&
                                               hip_vector_detail::all_of(std::is_convertible<U, T>::value...),
                                           int> = 0>
    constexpr hip_cpu_vector(U... v) noexcept : hip_cpu_vector_storage<T, N>{static_cast<T>(v)...}
    {
    }

private:
    template <std::size_t... I>
    constexpr hip_cpu_vector(T v, std::index_sequence<I...>) noexcept : hip_cpu_vector_storage<T, N>{((void)I, v)...}
    {
    }
};

namespace hip_vector_detail {
template <class T, unsigned N> struct traits<hip_cpu_vector<T, N>> : shape<T, N> {
};
} // namespace hip_vector_detail

// HIP's names for the 48 types, and make_<name>(components).
#define WB_CPU_VECTOR_TYPES(NAME, T)                                                                                   \
    using NAME##1 = hip_cpu_vector<T, 1>;                                                                              \
    using NAME##2 = hip_cpu_vector<T, 2>;                                                                              \
    using NAME##3 = hip_cpu_vector<T, 3>;                                                                              \
    using NAME##4 = hip_cpu_vector<T, 4>;                                                                              \
    inline constexpr NAME##1 make_##NAME##1(T x) noexcept { return NAME##1(x); }                                       \
    inline constexpr NAME##2 make_##NAME##2(T x, T y) noexcept { return NAME##2(x, y); }                               \
    inline constexpr NAME##3 make_##NAME##3(T x, T y, T z) noexcept { return NAME##3(x, y, z); }                       \
    inline constexpr NAME##4 make_##NAME##4(T x, T y, T z, T w) noexcept { return NAME##4(x, y, z, w); }
WB_CPU_VECTOR_TYPES(char, char)
WB_CPU_VECTOR_TYPES(uchar, unsigned char)
WB_CPU_VECTOR_TYPES(short, short)
WB_CPU_VECTOR_TYPES(ushort, unsigned short)
WB_CPU_VECTOR_TYPES(int, int)
WB_CPU_VECTOR_TYPES(uint, unsigned)
WB_CPU_VECTOR_TYPES(long, long)
WB_CPU_VECTOR_TYPES(ulong, unsigned long)
WB_CPU_VECTOR_TYPES(longlong, long long)
WB_CPU_VECTOR_TYPES(ulonglong, unsigned long long)
WB_CPU_VECTOR_TYPES(float, float)
WB_CPU_VECTOR_TYPES(double, double)
#undef WB_CPU_VECTOR_TYPES

static_assert(sizeof(float3) == 12 && alignof(float3) == 4 && alignof(float4) == 16 && alignof(double4) == 32 &&
                  sizeof(char3) == 3 && alignof(char4) == 4 && alignof(short4) == 8,
              "HIP's vector sizes and alignments");
static_assert(std::is_trivial<float4>::value && std::is_standard_layout<float4>::value,
              "vector types are trivial (uninitialised by default, copied as bytes) and standard layout");

/// A launch's dimensions: unspecified ones are 1. threadIdx and blockIdx are uint3.
struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
