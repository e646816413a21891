// The conv reference: run-time ISA choice (xsimd::dispatch), threads over chunks of outputs.
#include "conv.h"
#include "core/chunks.h"
#include "reference.h"
#include "simd_kernels.hpp"

namespace wb::ref {

void conv_i32(const int32_t* in, size_t n, const int32_t* k, size_t m, int32_t* out, unsigned threads)
{
    static auto dispatched = xsimd::dispatch<simd_archs>(detail::conv_i32_kernel{});
    for_chunks(n, 4096, 1, threads, [=](size_t begin, size_t end) { dispatched(in, n, k, m, out, begin, end); });
}

__attribute__((optimize("no-tree-vectorize"))) void conv_i32_scalar(const int32_t* in, size_t n, const int32_t* k,
                                                                    size_t m, int32_t* out)
{
    const int64_t h = int64_t(m / 2);
    for (size_t i = 0; i < n; ++i) {
        uint32_t t = 0;
        for (size_t j = 0; j < m; ++j) {
            const int64_t x = int64_t(i) + int64_t(j) - h;
            if (x >= 0 && x < int64_t(n)) t += uint32_t(in[x]) * uint32_t(k[j]);
        }
        out[i] = int32_t(t);
    }
}

const family_reference& reference_conv()
{
    static const family_reference r{
        .compute = [](const param_map&, const std::vector<host_buffer>& in, std::vector<host_buffer>& out) {
            const auto x = in[0].as<int32_t>(), k = in[1].as<int32_t>();
            conv_i32(x.data(), x.size(), k.data(), k.size(), out[0].as<int32_t>().data());
        }};
    return r;
}

} // namespace wb::ref
