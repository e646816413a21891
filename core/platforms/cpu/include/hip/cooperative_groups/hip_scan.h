// Cooperative groups' scans on the cpu platform, as HIP's hip/cooperative_groups/hip_scan.h has
// them: inclusive_scan(group, value[, op]) and exclusive_scan(group, value[, op]) over a static tile
// (thread_block_tile<N>) or a coalesced group, op one of the functors of hip_cooperative_groups.h
// (plus when none is given) or any associative function object, the value trivially copyable and
// of at most 32 bytes. The scan is built on the group's shuffles, in rank order (op(lower, higher)),
// so an op need not commute. Exclusive scans give the first thread op's identity, as HIP on AMD
// does: 0 for plus, bit_or and bit_xor, every bit set for bit_and, the greatest value (infinity for
// floating point) for less, the lowest (minus infinity) for greater, and T{} for other functions.
#pragma once

#include <hip/hip_cooperative_groups.h>

#include <limits>

namespace cooperative_groups {
namespace detail {

template <class T> using plain = typename std::remove_cv<typename std::remove_reference<T>::type>::type;

/// The groups a scan takes, and how far its steps reach: a tile's width, or a wavefront for a
/// coalesced group (the same for every group at the call site, so that all take the same steps).
template <class G> struct scan_group {
    static constexpr bool value = false;
};
template <unsigned N> struct scan_group<thread_block_tile<N>> {
    static constexpr bool value = true;
    static unsigned reach() { return N; }
};
template <> struct scan_group<coalesced_group> {
    static constexpr bool value = true;
    static unsigned reach() { return unsigned(warpSize); }
};

/// The value v of the group's thread of rank src, for values of up to 32 bytes: the shuffles move
/// 8 bytes each, so larger values go in pieces, all from the caller's call site.
template <class G, class T> inline T shfl_value(const G& g, const T& v, unsigned src, const std::source_location& l)
{
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 32,
                  "cooperative groups' collectives take trivially copyable values of at most 32 bytes");
    uint64_t words[(sizeof(T) + 7) / 8] = {};
    std::memcpy(words, &v, sizeof(T));
    for (uint64_t& w : words) w = g.shfl(w, src, l);
    T r = v;
    std::memcpy(&r, words, sizeof(T));
    return r;
}

/// The inclusive scan: at step k each thread combines the partial result 2^k ranks below it
/// (Hillis and Steele). Every thread at the call site takes the same steps.
template <class G, class T, class Op> inline T inclusive(const G& g, T x, Op& op, const std::source_location& l)
{
    static_assert(scan_group<G>::value, "a scan takes a thread_block_tile or a coalesced_group");
    const unsigned rank = unsigned(g.thread_rank());
    for (unsigned step = 1; step < scan_group<G>::reach(); step *= 2) {
        const T lower = shfl_value(g, x, rank >= step ? rank - step : rank, l);
        if (rank >= step) x = op(lower, x);
    }
    return x;
}

/// The value an exclusive scan gives the first thread: op's identity.
template <class T, class Op> inline T identity(const Op&) { return T(); }
template <class T> inline T identity(const plus<T>&) { return T(); }
template <class T> inline T identity(const bit_or<T>&) { return T(); }
template <class T> inline T identity(const bit_xor<T>&) { return T(); }
template <class T> inline T identity(const bit_and<T>&) { return T(~T()); }
template <class T> inline T identity(const less<T>&)
{
    using L = std::numeric_limits<T>;
    return L::has_infinity ? L::infinity() : L::max();
}
template <class T> inline T identity(const greater<T>&)
{
    using L = std::numeric_limits<T>;
    return L::has_infinity ? T(-L::infinity()) : L::lowest();
}

template <class T, class R> inline void check_op()
{
    static_assert(std::is_same<T, plain<R>>::value, "the operator's result must have the value's type");
}

} // namespace detail

template <class G, class TyVal, class TyFn>
inline auto inclusive_scan(const G& group, TyVal&& val, TyFn&& op,
                           std::source_location l = std::source_location::current()) -> decltype(op(val, val))
{
    using T = detail::plain<TyVal>;
    detail::check_op<T, decltype(op(val, val))>();
    return detail::inclusive(group, T(val), op, l);
}
template <class G, class TyVal>
inline detail::plain<TyVal> inclusive_scan(const G& group, TyVal&& val,
                                           std::source_location l = std::source_location::current())
{
    using T = detail::plain<TyVal>;
    plus<T> op;
    return detail::inclusive(group, T(val), op, l);
}

template <class G, class TyVal, class TyFn>
inline auto exclusive_scan(const G& group, TyVal&& val, TyFn&& op,
                           std::source_location l = std::source_location::current()) -> decltype(op(val, val))
{
    using T = detail::plain<TyVal>;
    detail::check_op<T, decltype(op(val, val))>();
    const T inclusive = detail::inclusive(group, T(val), op, l);
    const unsigned rank = unsigned(group.thread_rank());
    const T lower = detail::shfl_value(group, inclusive, rank ? rank - 1 : 0, l);
    return rank ? lower : detail::identity<T>(op);
}
template <class G, class TyVal>
inline detail::plain<TyVal> exclusive_scan(const G& group, TyVal&& val,
                                           std::source_location l = std::source_location::current())
{
    return exclusive_scan(group, val, plus<detail::plain<TyVal>>(), l);
}

} // namespace cooperative_groups
