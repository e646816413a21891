// Run-time choice of the reference loops' instruction set (the dispatch every reference uses),
// and the probe's CPU measurements made with those loops.
#include "simd.h"
#include "simd_kernels.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

namespace wb::ref {

const char* simd_isa()
{
    const auto a = xsimd::available_architectures();
    return a.avx512f ? "avx512f" : a.avx2 ? "avx2" : "sse2";
}

uint64_t stream_read(const void* data, size_t bytes)
{
    static auto dispatched = xsimd::dispatch<simd_archs>(detail::stream_read_kernel{});
    return dispatched(data, bytes);
}

double imad_rate_one_thread()
{
    static auto run = xsimd::dispatch<simd_archs>(detail::imad_kernel{});
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
