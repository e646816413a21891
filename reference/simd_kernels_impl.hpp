// The bodies of the reference loops: include only from simd_<isa>.cpp.
#pragma once

#include "simd_kernels.hpp"

#include <xsimd/xsimd.hpp>

#include "wavebench/families/converge.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace wb::ref::detail {

template <class Arch> int32_t sum_i32_kernel::operator()(Arch, const int32_t* p, size_t n) const
{
    // Unsigned lanes: the sum wraps around, as on the GPUs. (xsimd's hadd adds halves of the
    // vector in scalar code, where int32_t overflow would be undefined behaviour.)
    using batch = xsimd::batch<uint32_t, Arch>;
    constexpr size_t w = batch::size;
    const auto* u = reinterpret_cast<const uint32_t*>(p);
    // Four independent accumulators hide the add latency.
    batch a0(0u), a1(0u), a2(0u), a3(0u);
    size_t i = 0;
    for (; i + 4 * w <= n; i += 4 * w) {
        a0 += batch::load_unaligned(u + i);
        a1 += batch::load_unaligned(u + i + w);
        a2 += batch::load_unaligned(u + i + 2 * w);
        a3 += batch::load_unaligned(u + i + 3 * w);
    }
    for (; i + w <= n; i += w) a0 += batch::load_unaligned(u + i);
    uint32_t s = xsimd::hadd((a0 + a1) + (a2 + a3));
    for (; i < n; ++i) s += u[i];
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

template <class Arch>
void conv_i32_kernel::operator()(Arch, const int32_t* in, size_t n, const int32_t* k, size_t m, int32_t* out,
                                 size_t begin, size_t end) const
{
    using batch = xsimd::batch<int32_t, Arch>;
    constexpr size_t w = batch::size, lanes = 4 * w;
    const size_t h = m / 2;
    // Outputs whose every tap lands inside the input: [h, n - h).
    const size_t inner_begin = std::max(begin, h), inner_end = n > h ? std::min(end, n - h) : 0;
    auto scalar = [&](size_t i) {
        uint32_t t = 0;
        for (size_t j = 0; j < m; ++j) {
            const int64_t x = int64_t(i) + int64_t(j) - int64_t(h);
            if (x >= 0 && x < int64_t(n)) t += uint32_t(in[x]) * uint32_t(k[j]);
        }
        out[i] = int32_t(t);
    };
    size_t i = begin;
    for (; i < std::min(end, inner_begin); ++i) scalar(i);
    // Four vectors of outputs at a time: each tap is one broadcast and four multiply-adds.
    for (; i + lanes <= inner_end; i += lanes) {
        batch a0(0), a1(0), a2(0), a3(0);
        const int32_t* x = in + i - h;
        for (size_t j = 0; j < m; ++j) {
            const batch kj(k[j]);
            a0 += batch::load_unaligned(x + j) * kj;
            a1 += batch::load_unaligned(x + j + w) * kj;
            a2 += batch::load_unaligned(x + j + 2 * w) * kj;
            a3 += batch::load_unaligned(x + j + 3 * w) * kj;
        }
        a0.store_unaligned(out + i);
        a1.store_unaligned(out + i + w);
        a2.store_unaligned(out + i + 2 * w);
        a3.store_unaligned(out + i + 3 * w);
    }
    for (; i < end; ++i) scalar(i);
}

template <class Arch> size_t imad_kernel::operator()(Arch, int32_t seed, size_t iterations, int32_t* sink) const
{
    // Unsigned lanes: the multiply-adds wrap around (the same instructions as int32_t's, without
    // the undefined overflow in xsimd's scalar hadd or in seed + 7).
    using batch = xsimd::batch<uint32_t, Arch>;
    const uint32_t s = uint32_t(seed);
    const batch b(s | 1), c(s ^ 0x5bd1e995);
    batch x0(s), x1(s + 1), x2(s + 2), x3(s + 3), x4(s + 4), x5(s + 5), x6(s + 6), x7(s + 7);
    for (size_t i = 0; i < iterations; ++i) {
        x0 = x0 * b + c;
        x1 = x1 * b + c;
        x2 = x2 * b + c;
        x3 = x3 * b + c;
        x4 = x4 * b + c;
        x5 = x5 * b + c;
        x6 = x6 * b + c;
        x7 = x7 * b + c;
    }
    *sink = int32_t(xsimd::hadd(((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7))));
    return iterations * 8 * batch::size;
}

/// a * b + c rounded once: the instruction where this translation unit has it, else std::fma per
/// element (exact too, slowly). xsimd 8.1's fma is a * b + c rounded twice on these targets.
template <class Arch>
inline xsimd::batch<float, Arch> fma_exact(xsimd::batch<float, Arch> a, xsimd::batch<float, Arch> b,
                                           xsimd::batch<float, Arch> c)
{
#if defined(__AVX512F__)
    if constexpr (std::is_same_v<Arch, xsimd::avx512f>) return _mm512_fmadd_ps(a, b, c);
#endif
#if defined(__AVX2__) && defined(__FMA__)
    if constexpr (std::is_same_v<Arch, xsimd::fma3<xsimd::avx2>>) return _mm256_fmadd_ps(a, b, c);
#endif
    constexpr size_t w = xsimd::batch<float, Arch>::size;
    alignas(64) float x[w], y[w], z[w];
    a.store_aligned(x);
    b.store_aligned(y);
    c.store_aligned(z);
    for (size_t j = 0; j < w; ++j) x[j] = std::fma(x[j], y[j], z[j]);
    return xsimd::batch<float, Arch>::load_aligned(x);
}

template <class Arch>
void converge_kernel::operator()(Arch, const uint32_t* bits, uint32_t lanes, uint32_t iterations, int branch_len,
                                 int nonbranch_len, uint32_t* out, uint32_t begin, uint32_t end) const
{
    using fb = xsimd::batch<float, Arch>;
    using ub = xsimd::batch<uint32_t, Arch>;
    using ib = xsimd::batch<int32_t, Arch>;
    constexpr uint32_t w = uint32_t(fb::size);
    namespace cv = wb::converge;
    auto scalar = [&](uint32_t lane) {
        uint32_t acc = 0;
        for (uint32_t i = 0; i < iterations; ++i) {
            float v = cv::start(lane, i);
            const bool t = cv::taken(bits, lanes, lane, i);
            for (int k = 0; k < branch_len; ++k)
                v = t ? std::fma(v, cv::t_mul, cv::t_add) : std::fma(v, cv::f_mul, cv::f_add);
            for (int k = 0; k < nonbranch_len; ++k) v = std::fma(v, cv::n_mul, cv::n_add);
            uint32_t u;
            std::memcpy(&u, &v, 4);
            acc += u;
        }
        out[lane] = acc;
    };
    alignas(64) uint32_t idx[w];
    for (uint32_t j = 0; j < w; ++j) idx[j] = j;
    const ub offsets = ub::load_aligned(idx);
    uint32_t lane = begin;
    for (; lane + w <= end; lane += w) {
        const ub l = ub(lane) + offsets;
        ub acc(0u);
        for (uint32_t i = 0; i < iterations; ++i) {
            // The start value, as cv::start computes it, w lanes at a time.
            ub h = (l * ub(0x9e3779b1u)) ^ ub((i + 0x7f4a7c15u) * 0x85ebca77u);
            h ^= h >> 15;
            h *= ub(0x2c1b3c6du);
            h ^= h >> 12;
            h *= ub(0x297a2d39u);
            h ^= h >> 15;
            const fb x = xsimd::to_float(xsimd::bitwise_cast<ib>(h >> 8)) * fb(1.0f / 16777216.0f);
            const ub word = ub::load_unaligned(bits + uint64_t(i / 32) * lanes + lane);
            const auto t = xsimd::bool_cast(xsimd::bitwise_cast<ib>((word >> (i % 32)) & ub(1u)) != ib(0));
            fb vt = x, vf = x;
            for (int k = 0; k < branch_len; ++k) {
                vt = fma_exact(vt, fb(cv::t_mul), fb(cv::t_add));
                vf = fma_exact(vf, fb(cv::f_mul), fb(cv::f_add));
            }
            fb v = xsimd::select(t, vt, vf);
            for (int k = 0; k < nonbranch_len; ++k) v = fma_exact(v, fb(cv::n_mul), fb(cv::n_add));
            acc += xsimd::bitwise_cast<ub>(v);
        }
        acc.store_unaligned(out + lane);
    }
    for (; lane < end; ++lane) scalar(lane);
}

} // namespace wb::ref::detail

#define WB_REF_INSTANTIATE(ARCH)                                                                                       \
    template int32_t wb::ref::detail::sum_i32_kernel::operator()<ARCH>(ARCH, const int32_t*, size_t) const;            \
    template uint64_t wb::ref::detail::stream_read_kernel::operator()<ARCH>(ARCH, const void*, size_t) const;          \
    template void wb::ref::detail::conv_i32_kernel::operator()<ARCH>(ARCH, const int32_t*, size_t, const int32_t*,     \
                                                                     size_t, int32_t*, size_t, size_t) const;          \
    template size_t wb::ref::detail::imad_kernel::operator()<ARCH>(ARCH, int32_t, size_t, int32_t*) const;             \
    template void wb::ref::detail::converge_kernel::operator()<ARCH>(ARCH, const uint32_t*, uint32_t, uint32_t, int,   \
                                                                     int, uint32_t*, uint32_t, uint32_t) const;
