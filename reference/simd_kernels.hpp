// The SIMD loops of the references, declared as templates over the xsimd architecture. Their
// bodies (simd_kernels_impl.hpp) are compiled only in the per-ISA translation units
// (simd_<isa>.cpp), each with its own -m flags; simd.cpp picks one at run time (xsimd::dispatch).
#pragma once

#include <cassert> // xsimd 8.1's xsimd_arch.hpp uses assert without including it
#include <xsimd/config/xsimd_arch.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace wb::ref::detail {

struct sum_i32_kernel {
    template <class Arch> int32_t operator()(Arch, const int32_t* p, size_t n) const;
};

struct stream_read_kernel {
    template <class Arch> uint64_t operator()(Arch, const void* data, size_t bytes) const;
};

} // namespace wb::ref::detail
