// HIP's operators on its vector types (char1 ... double4), shared by the cpu and nvidia platforms.
// Each platform's hip/hip_vector_types.h names its vector types to hip_vector_detail::traits (the
// cpu platform's own types, or CUDA's, which have no operators), and these templates give them the
// set HIP defines: + - * / on every type and % & | ^ << >> on integer ones, each with a vector or
// a scalar (converted to the component type) on either side, and their compound assignments; unary
// - (signed components), + and ~ (integer components); ++ and --; == and != (every component).
// Templates rather than functions per type, so that a program's own operator for a vector type
// (CUDA samples' helper_math.h) is preferred instead of being ambiguous. Self-contained.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#if defined(__CUDACC__)
#define HIP_VECTOR_FN __host__ __device__ inline constexpr
#else
#define HIP_VECTOR_FN inline constexpr
#endif

namespace hip_vector_detail {
/// A platform's vector type V specialises traits<V> as shape<component type, count>.
template <class T, unsigned N> struct shape {
    using value_type = T;
    static constexpr unsigned size = N;
};
template <class V> struct traits : shape<void, 0> {
};

template <class V> using value_t = typename traits<V>::value_type;
template <class V> using indices = std::make_index_sequence<traits<V>::size>;
/// For enable_if: V is a vector type whose component type passes IS (std::is_integral ...).
template <class V, template <class> class IS>
using if_vector = std::enable_if_t<(traits<V>::size > 0) && IS<value_t<V>>::value, int>;
/// ... and S is a scalar.
template <class V, class S, template <class> class IS>
using if_vector_scalar =
    std::enable_if_t<(traits<V>::size > 0) && IS<value_t<V>>::value && std::is_arithmetic<S>::value, int>;

/// Component I of a vector: x, y, z or w.
template <unsigned I> struct part;
template <> struct part<0> {
    template <class V> HIP_VECTOR_FN static auto& of(V& v) noexcept { return v.x; }
};
template <> struct part<1> {
    template <class V> HIP_VECTOR_FN static auto& of(V& v) noexcept { return v.y; }
};
template <> struct part<2> {
    template <class V> HIP_VECTOR_FN static auto& of(V& v) noexcept { return v.z; }
};
template <> struct part<3> {
    template <class V> HIP_VECTOR_FN static auto& of(V& v) noexcept { return v.w; }
};

HIP_VECTOR_FN bool all_of() noexcept { return true; }
template <class... B> HIP_VECTOR_FN bool all_of(bool first, B... rest) noexcept { return first && all_of(rest...); }

/// A vector whose every component is `s`, converted to the component type.
template <class V, class S, std::size_t... I> HIP_VECTOR_FN V splat(S s, std::index_sequence<I...>) noexcept
{
    return V{((void)I, static_cast<value_t<V>>(s))...};
}
template <class V, class S> HIP_VECTOR_FN V splat(S s) noexcept { return splat<V>(s, indices<V>{}); }

template <class V, std::size_t... I>
HIP_VECTOR_FN bool equal(const V& a, const V& b, std::index_sequence<I...>) noexcept
{
    return all_of((part<I>::of(a) == part<I>::of(b))...);
}
template <class V, std::size_t... I> HIP_VECTOR_FN V negate(const V& a, std::index_sequence<I...>) noexcept
{
    return V{static_cast<value_t<V>>(-part<I>::of(a))...};
}
template <class V, std::size_t... I> HIP_VECTOR_FN V complement(const V& a, std::index_sequence<I...>) noexcept
{
    return V{static_cast<value_t<V>>(~part<I>::of(a))...};
}
} // namespace hip_vector_detail

// One binary operator: vector OP vector, vector OP scalar, scalar OP vector, and OP= with a vector
// or a scalar, for vectors whose components pass IS. NAME is the component-wise function.
#define HIP_VECTOR_BINARY(OP, NAME, IS)                                                                                \
    namespace hip_vector_detail {                                                                                      \
    template <class V, std::size_t... I>                                                                               \
    HIP_VECTOR_FN V NAME(const V& a, const V& b, std::index_sequence<I...>) noexcept                                   \
    {                                                                                                                  \
        return V{static_cast<value_t<V>>(part<I>::of(a) OP part<I>::of(b))...};                                        \
    }                                                                                                                  \
    }                                                                                                                  \
    template <class V, hip_vector_detail::if_vector<V, IS> = 0>                                                        \
    HIP_VECTOR_FN V operator OP(const V& a, const V& b) noexcept                                                       \
    {                                                                                                                  \
        return hip_vector_detail::NAME(a, b, hip_vector_detail::indices<V>{});                                         \
    }                                                                                                                  \
    template <class V, class S, hip_vector_detail::if_vector_scalar<V, S, IS> = 0>                                     \
    HIP_VECTOR_FN V operator OP(const V& a, S s) noexcept                                                              \
    {                                                                                                                  \
        return a OP hip_vector_detail::splat<V>(s);                                                                    \
    }                                                                                                                  \
    template <class V, class S, hip_vector_detail::if_vector_scalar<V, S, IS> = 0>                                     \
    HIP_VECTOR_FN V operator OP(S s, const V& b) noexcept                                                              \
    {                                                                                                                  \
        return hip_vector_detail::splat<V>(s) OP b;                                                                    \
    }                                                                                                                  \
    template <class V, hip_vector_detail::if_vector<V, IS> = 0>                                                        \
    HIP_VECTOR_FN V& operator OP##=(V& a, const V& b) noexcept                                                         \
    {                                                                                                                  \
        return a = a OP b;                                                                                             \
    }                                                                                                                  \
    template <class V, class S, hip_vector_detail::if_vector_scalar<V, S, IS> = 0>                                     \
    HIP_VECTOR_FN V& operator OP##=(V& a, S s) noexcept                                                                \
    {                                                                                                                  \
        return a = a OP hip_vector_detail::splat<V>(s);                                                                \
    }

HIP_VECTOR_BINARY(+, add, std::is_arithmetic)
HIP_VECTOR_BINARY(-, subtract, std::is_arithmetic)
HIP_VECTOR_BINARY(*, multiply, std::is_arithmetic)
HIP_VECTOR_BINARY(/, divide, std::is_arithmetic)
HIP_VECTOR_BINARY(%, modulo, std::is_integral)
HIP_VECTOR_BINARY(&, bit_and, std::is_integral)
HIP_VECTOR_BINARY(|, bit_or, std::is_integral)
HIP_VECTOR_BINARY(^, bit_xor, std::is_integral)
HIP_VECTOR_BINARY(<<, shift_left, std::is_integral)
HIP_VECTOR_BINARY(>>, shift_right, std::is_integral)
#undef HIP_VECTOR_BINARY

template <class V, hip_vector_detail::if_vector<V, std::is_signed> = 0> HIP_VECTOR_FN V operator-(const V& a) noexcept
{
    return hip_vector_detail::negate(a, hip_vector_detail::indices<V>{});
}
template <class V, hip_vector_detail::if_vector<V, std::is_arithmetic> = 0>
HIP_VECTOR_FN V operator+(const V& a) noexcept
{
    return a;
}
template <class V, hip_vector_detail::if_vector<V, std::is_integral> = 0> HIP_VECTOR_FN V operator~(const V& a) noexcept
{
    return hip_vector_detail::complement(a, hip_vector_detail::indices<V>{});
}

template <class V, hip_vector_detail::if_vector<V, std::is_arithmetic> = 0> HIP_VECTOR_FN V& operator++(V& a) noexcept
{
    return a += 1;
}
template <class V, hip_vector_detail::if_vector<V, std::is_arithmetic> = 0> HIP_VECTOR_FN V& operator--(V& a) noexcept
{
    return a -= 1;
}
template <class V, hip_vector_detail::if_vector<V, std::is_arithmetic> = 0>
HIP_VECTOR_FN V operator++(V& a, int) noexcept
{
    const auto old = a; // auto: naming V would repeat CUDA 13's deprecation warning for double4 ...
    a += 1;
    return old;
}
template <class V, hip_vector_detail::if_vector<V, std::is_arithmetic> = 0>
HIP_VECTOR_FN V operator--(V& a, int) noexcept
{
    const auto old = a; // auto: naming V would repeat CUDA 13's deprecation warning for double4 ...
    a -= 1;
    return old;
}

template <class V, hip_vector_detail::if_vector<V, std::is_arithmetic> = 0>
HIP_VECTOR_FN bool operator==(const V& a, const V& b) noexcept
{
    return hip_vector_detail::equal(a, b, hip_vector_detail::indices<V>{});
}
template <class V, class S, hip_vector_detail::if_vector_scalar<V, S, std::is_arithmetic> = 0>
HIP_VECTOR_FN bool operator==(const V& a, S s) noexcept
{
    return a == hip_vector_detail::splat<V>(s);
}
template <class V, class S, hip_vector_detail::if_vector_scalar<V, S, std::is_arithmetic> = 0>
HIP_VECTOR_FN bool operator==(S s, const V& b) noexcept
{
    return hip_vector_detail::splat<V>(s) == b;
}
template <class V, hip_vector_detail::if_vector<V, std::is_arithmetic> = 0>
HIP_VECTOR_FN bool operator!=(const V& a, const V& b) noexcept
{
    return !(a == b);
}
template <class V, class S, hip_vector_detail::if_vector_scalar<V, S, std::is_arithmetic> = 0>
HIP_VECTOR_FN bool operator!=(const V& a, S s) noexcept
{
    return !(a == s);
}
template <class V, class S, hip_vector_detail::if_vector_scalar<V, S, std::is_arithmetic> = 0>
HIP_VECTOR_FN bool operator!=(S s, const V& b) noexcept
{
    return !(s == b);
}

#undef HIP_VECTOR_FN
