// The reduce reference: the sum with the best instruction set of this CPU, and the scalar oracle.
#include "reduce.h"
#include "reference.h"
#include "simd_kernels.hpp"

namespace wb::ref {

int32_t sum_i32(const int32_t* data, size_t n)
{
    static auto dispatched = xsimd::dispatch<simd_archs>(detail::sum_i32_kernel{});
    return dispatched(data, n);
}

// The oracle must stay scalar: GCC would otherwise vectorize the loop at -O3.
__attribute__((optimize("no-tree-vectorize"))) int32_t sum_i32_scalar(const int32_t* data, size_t n)
{
    uint32_t s = 0;
    for (size_t i = 0; i < n; ++i) s += uint32_t(data[i]);
    return int32_t(s);
}

const family_reference& reference_reduce()
{
    static const family_reference r{
        .compute = [](const param_map&, const std::vector<host_buffer>& in, std::vector<host_buffer>& out) {
            const auto data = in[0].as<int32_t>();
            out[0].as<int32_t>()[0] = sum_i32(data.data(), data.size());
        }};
    return r;
}

} // namespace wb::ref
