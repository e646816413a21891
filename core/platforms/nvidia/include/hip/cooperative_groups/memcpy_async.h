// HIP's hip/cooperative_groups/memcpy_async.h on CUDA: memcpy_async(group, dst, src, bytes) and
// memcpy_async(group, dst, dst_count, src, src_count) are CUDA's (cooperative_groups/memcpy_async.h),
// with HIP's contract: the destination may be read once the group has synchronized after the call
// (group.sync(), or a split barrier's barrier_wait). CUDA's copies may still be in flight then,
// until cg::wait, which HIP does not have; so for the groups HIP names (the block, its tiles, a
// coalesced group) memcpy_async here also waits for the calling thread's own copies before it
// returns. CUDA's wait and wait_prior remain (they then only synchronize the group).
#pragma once

#include <hip/hip_cooperative_groups.h>

#include <cooperative_groups/memcpy_async.h>

namespace cooperative_groups {

// For each group type G (its template parameters in TEMPLATE, both in parentheses): overloads
// more specialized than CUDA's (which take any group), that call CUDA's copy (with explicit
// template arguments, which these do not take), then wait for it.
#define WB_NV_UNPAREN(...) __VA_ARGS__
#define WB_NV_MEMCPY_ASYNC(TEMPLATE, G)                                                                                \
    template <WB_NV_UNPAREN TEMPLATE typename TyElem, typename TySizeT>                                                \
    __device__ inline void memcpy_async(const WB_NV_UNPAREN G& group, TyElem* __restrict__ dst,                        \
                                        const TyElem* __restrict__ src, const TySizeT& bytes)                          \
    {                                                                                                                  \
        memcpy_async<WB_NV_UNPAREN G, TyElem, TySizeT>(group, dst, src, bytes);                                        \
        __pipeline_wait_prior(0);                                                                                      \
    }                                                                                                                  \
    template <WB_NV_UNPAREN TEMPLATE typename TyElem, typename DstLayout, typename SrcLayout>                          \
    __device__ inline void memcpy_async(const WB_NV_UNPAREN G& group, TyElem* __restrict__ dst,                        \
                                        const DstLayout& dst_count, const TyElem* __restrict__ src,                    \
                                        const SrcLayout& src_count)                                                    \
    {                                                                                                                  \
        memcpy_async<WB_NV_UNPAREN G, TyElem, DstLayout, SrcLayout>(group, dst, dst_count, src, src_count);            \
        __pipeline_wait_prior(0);                                                                                      \
    }
WB_NV_MEMCPY_ASYNC((), (thread_block))
WB_NV_MEMCPY_ASYNC((), (coalesced_group))
WB_NV_MEMCPY_ASYNC((unsigned int Size, typename ParentT, ), (thread_block_tile<Size, ParentT>))
#undef WB_NV_MEMCPY_ASYNC
#undef WB_NV_UNPAREN

} // namespace cooperative_groups
