// The SIMD loops of the references, declared as templates over the xsimd architecture. Their
// bodies (simd_kernels_impl.hpp) are compiled only in the per-ISA translation units
// (simd_<isa>.cpp), each with its own -m flags; simd.cpp picks one at run time (xsimd::dispatch).
#pragma once

#include <cassert> // xsimd 8.1's xsimd_arch.hpp uses assert without including it
#include <xsimd/config/xsimd_arch.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace wb::ref {

/// The instruction sets the references are compiled for, best first (one simd_<isa>.cpp each).
using simd_archs = xsimd::arch_list<xsimd::avx512f, xsimd::avx2, xsimd::sse2>;

} // namespace wb::ref

namespace wb::ref::detail {

struct sum_i32_kernel {
    template <class Arch> int32_t operator()(Arch, const int32_t* p, size_t n) const;
};

struct stream_read_kernel {
    template <class Arch> uint64_t operator()(Arch, const void* data, size_t bytes) const;
};

/// out[i] for i in [begin, end) of the zero-padded convolution (reference/conv.h).
struct conv_i32_kernel {
    template <class Arch>
    void operator()(Arch, const int32_t* in, size_t n, const int32_t* k, size_t m, int32_t* out, size_t begin,
                    size_t end) const;
};

/// `iterations` rounds of 8 independent vector multiply-add chains; stores a value that depends on
/// all of them in *sink (so none is optimized away) and returns how many multiply-adds it did.
struct imad_kernel {
    template <class Arch> size_t operator()(Arch, int32_t seed, size_t iterations, int32_t* sink) const;
};

/// Lanes [begin, end) of the converge family's folds (wavebench/families/converge.h): both paths computed
/// for every lane and selected, with fused multiply-adds rounded once (as on the GPUs).
struct converge_kernel {
    template <class Arch>
    void operator()(Arch, const uint32_t* bits, uint32_t lanes, uint32_t iterations, int branch_len, int nonbranch_len,
                    uint32_t* out, uint32_t begin, uint32_t end) const;
};

} // namespace wb::ref::detail
