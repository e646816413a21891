// Run-time choice of the reference loops' instruction set, and the scalar oracle.
#include "reduce.h"
#include "simd_kernels.hpp"

namespace wb::ref {

namespace {
using archs = xsimd::arch_list<xsimd::avx512f, xsimd::avx2, xsimd::sse2>;
}

int32_t sum_i32(const int32_t* data, size_t n)
{
    static auto dispatched = xsimd::dispatch<archs>(detail::sum_i32_kernel{});
    return dispatched(data, n);
}

uint64_t stream_read(const void* data, size_t bytes)
{
    static auto dispatched = xsimd::dispatch<archs>(detail::stream_read_kernel{});
    return dispatched(data, bytes);
}

const char* simd_isa()
{
    const auto a = xsimd::available_architectures();
    return a.avx512f ? "avx512f" : a.avx2 ? "avx2" : "sse2";
}

// The oracle must stay scalar: GCC would otherwise vectorize the loop at -O3.
__attribute__((optimize("no-tree-vectorize"))) int32_t sum_i32_scalar(const int32_t* data, size_t n)
{
    uint32_t s = 0;
    for (size_t i = 0; i < n; ++i) s += uint32_t(data[i]);
    return int32_t(s);
}

} // namespace wb::ref
