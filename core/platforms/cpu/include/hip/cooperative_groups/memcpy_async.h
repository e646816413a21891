// Cooperative groups' memcpy_async on the cpu platform, as HIP's
// hip/cooperative_groups/memcpy_async.h has it: every thread of a group (the block, a tile, a
// coalesced group) calls memcpy_async(group, dst, src, bytes), or memcpy_async(group, dst,
// dst_count, src, src_count) for the smaller count of elements, and copies its share of the bytes.
// HIP's contract: the destination may be read once the group has synchronized after the call
// (group.sync(), or a split barrier's barrier_wait). There is no wait() or wait_prior(): HIP has
// none (CUDA's copies need them). Here each thread's share is copied before the call returns, so
// a thread that reads another's share before the group synchronizes has a race, as on a GPU.
#pragma once

#include <hip/hip_cooperative_groups.h>

namespace cooperative_groups {
namespace detail {
/// The calling thread's share of a copy of `bytes` bytes over a group of `size` threads: a
/// contiguous run, the first bytes % size threads one byte longer. A plain loop (the compiler makes
/// it a memcpy), so that wavebench-hipcc --checked sees each thread's writes to shared memory.
inline void copy_share(void* dst, const void* src, size_t bytes, size_t size, size_t rank)
{
    const size_t each = bytes / size, extra = bytes % size;
    const size_t begin = rank * each + (rank < extra ? rank : extra), end = begin + each + (rank < extra ? 1 : 0);
    unsigned char* const d = static_cast<unsigned char*>(dst);
    const unsigned char* const s = static_cast<const unsigned char*>(src);
    for (size_t i = begin; i < end; ++i) d[i] = s[i];
}
} // namespace detail

template <class G, class TyElem, class TySizeT>
inline void memcpy_async(const G& group, TyElem* __restrict__ dst, const TyElem* __restrict__ src, const TySizeT& bytes)
{
    detail::copy_share(dst, src, size_t(bytes), size_t(group.size()), size_t(group.thread_rank()));
}

template <class G, class TyElem, class DstLayout, class SrcLayout>
inline void memcpy_async(const G& group, TyElem* __restrict__ dst, const DstLayout& dst_count,
                         const TyElem* __restrict__ src, const SrcLayout& src_count)
{
    const size_t count = size_t(dst_count) < size_t(src_count) ? size_t(dst_count) : size_t(src_count);
    memcpy_async(group, dst, src, count * sizeof(TyElem));
}

} // namespace cooperative_groups
