// The bodies of the reference loops: include only from simd_<isa>.cpp.
#pragma once

#include "simd_kernels.hpp"

#include <xsimd/xsimd.hpp>

namespace wb::ref::detail {

template <class Arch> int32_t sum_i32_kernel::operator()(Arch, const int32_t* p, size_t n) const
{
    using batch = xsimd::batch<int32_t, Arch>;
    constexpr size_t w = batch::size;
    // Four independent accumulators hide the add latency; SIMD adds wrap around.
    batch a0(0), a1(0), a2(0), a3(0);
    size_t i = 0;
    for (; i + 4 * w <= n; i += 4 * w) {
        a0 += batch::load_unaligned(p + i);
        a1 += batch::load_unaligned(p + i + w);
        a2 += batch::load_unaligned(p + i + 2 * w);
        a3 += batch::load_unaligned(p + i + 3 * w);
    }
    for (; i + w <= n; i += w) a0 += batch::load_unaligned(p + i);
    uint32_t s = uint32_t(xsimd::hadd((a0 + a1) + (a2 + a3)));
    for (; i < n; ++i) s += uint32_t(p[i]);
    return int32_t(s);
}

template <class Arch> uint64_t stream_read_kernel::operator()(Arch, const void* data, size_t bytes) const
{
    using batch = xsimd::batch<uint64_t, Arch>;
    constexpr size_t w = batch::size;
    const auto* p = static_cast<const uint64_t*>(data);
    const size_t n = bytes / 8;
    batch a0(0), a1(0), a2(0), a3(0);
    size_t i = 0;
    for (; i + 4 * w <= n; i += 4 * w) {
        a0 |= batch::load_unaligned(p + i);
        a1 |= batch::load_unaligned(p + i + w);
        a2 |= batch::load_unaligned(p + i + 2 * w);
        a3 |= batch::load_unaligned(p + i + 3 * w);
    }
    alignas(64) uint64_t lanes[w];
    ((a0 | a1) | (a2 | a3)).store_aligned(lanes);
    uint64_t r = 0;
    for (size_t k = 0; k < w; ++k) r |= lanes[k];
    for (; i < n; ++i) r |= p[i];
    return r;
}

} // namespace wb::ref::detail

#define WB_REF_INSTANTIATE(ARCH)                                                                   \
    template int32_t wb::ref::detail::sum_i32_kernel::operator()<ARCH>(ARCH, const int32_t*, size_t) const; \
    template uint64_t wb::ref::detail::stream_read_kernel::operator()<ARCH>(ARCH, const void*, size_t) const;
