// Cooperative groups' reduce on the cpu platform, as HIP's hip/cooperative_groups/hip_reduce.h
// has it: reduce(group, value, op) over a static tile (thread_block_tile<N>) or a coalesced group
// gives every thread of the group op over all the group's values, combined in rank order, op one of
// the functors of hip_cooperative_groups.h or any associative function object. It is the inclusive
// scan (hip_scan.h) of the group's last thread, so a tile that the block does not fill (its last
// threads do not exist) reduces the threads it has.
#pragma once

#include <hip/cooperative_groups/hip_scan.h>

namespace cooperative_groups {
namespace detail {
/// The rank of the group's last thread that takes part.
template <unsigned N> inline unsigned last_rank(const thread_block_tile<N>& g, const std::source_location& l)
{
    return 63u - unsigned(__builtin_clzll(g.ballot(1, l)));
}
inline unsigned last_rank(const coalesced_group& g, const std::source_location&) { return unsigned(g.size() - 1); }
} // namespace detail

template <class G, class TyVal, class TyFn>
inline auto reduce(const G& group, TyVal&& val, TyFn&& op, std::source_location l = std::source_location::current())
    -> decltype(op(val, val))
{
    static_assert(detail::scan_group<G>::value, "reduce takes a thread_block_tile or a coalesced_group");
    using T = detail::plain<TyVal>;
    detail::check_op<T, decltype(op(val, val))>();
    const unsigned last = detail::last_rank(group, l);
    return detail::shfl_value(group, detail::inclusive(group, T(val), op, l), last, l);
}

} // namespace cooperative_groups
