// Pieces the converge plugins share: the problem as a kernel sees it and the two paths. The
// paths are separate loops (not one loop with selected constants) so that a divergent wavefront
// really runs both.
#pragma once

#include "wavebench/families/converge.h"
#include "wavebench/plugin.h"

#include <type_traits>

namespace common {

/// Work-groups of at least one 64-wide wavefront.
inline constexpr auto block_size = wb::block_size.at_least(64);

struct problem {
    const uint32_t* bits;
    uint32_t* folds;
    uint32_t lanes, iterations;
    int branch_len, nonbranch_len;
};

inline problem of(const wb_args* a)
{
    return {wb::in<uint32_t>(a, 0),           wb::out<uint32_t>(a, 0),
            uint32_t(wb::converge::lanes(a)), uint32_t(wb::converge::iterations(a)),
            int(wb::converge::branch_len(a)), int(wb::converge::nonbranch_len(a))};
}

/// A lane's branch directions, read a word (32 iterations) at a time: the load is paid once per
/// 32 iterations, not on every test.
struct directions {
    const uint32_t* bits;
    uint32_t lanes, lane, index = ~0u, word = 0;

    __device__ directions(const problem& p, uint32_t lane) : bits(p.bits), lanes(p.lanes), lane(lane) {}
    __device__ bool taken(uint32_t i)
    {
        if (i / 32 != index) {
            index = i / 32;
            word = bits[uint64_t(index) * lanes + lane];
        }
        return (word >> (i % 32)) & 1u;
    }
};

__device__ inline float path_t(float v, int len)
{
    for (int k = 0; k < len; ++k) v = fmaf(v, wb::converge::t_mul, wb::converge::t_add);
    return v;
}

__device__ inline float path_f(float v, int len)
{
    for (int k = 0; k < len; ++k) v = fmaf(v, wb::converge::f_mul, wb::converge::f_add);
    return v;
}

/// The non-branch work after either path, and the value's bits for the order-free fold.
__device__ inline uint32_t finish(float v, int len)
{
    for (int k = 0; k < len; ++k) v = fmaf(v, wb::converge::n_mul, wb::converge::n_add);
    return __float_as_uint(v);
}

/// One work-item per lane; lanes past the end take part in the wavefront's votes with nothing to do.
/// A kernel's parameters after the problem are given as `more`. A failed launch names the plugin's line.
template <class... P>
void launch(const wb::kernel<problem, P...>& k, wb::launch_site at, std::type_identity_t<P>... more)
{
    const problem p = of(at.args);
    k.launch_over(at, p.lanes, p, more...);
}

} // namespace common
