// The conv reference: run-time ISA choice (xsimd::dispatch), threads over chunks of outputs.
#include "conv.h"
#include "chunks.h"
#include "simd_kernels.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

namespace wb::ref {

namespace {
using archs = xsimd::arch_list<xsimd::avx512f, xsimd::avx2, xsimd::sse2>;
}

void conv_i32(const int32_t* in, size_t n, const int32_t* k, size_t m, int32_t* out, unsigned threads)
{
    static auto dispatched = xsimd::dispatch<archs>(detail::conv_i32_kernel{});
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

double imad_rate_one_thread()
{
    static auto run = xsimd::dispatch<archs>(detail::imad_kernel{});
    int32_t sink = 0;
    run(int32_t(7), size_t(1000), &sink); // warm up
    std::vector<double> rates;
    for (int r = 0; r < 5; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        const size_t macs = run(int32_t(r + 3), size_t(20) << 20, &sink);
        rates.push_back(double(macs) / std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    volatile int32_t keep = sink;
    (void)keep;
    std::sort(rates.begin(), rates.end());
    return rates[rates.size() / 2];
}

} // namespace wb::ref
