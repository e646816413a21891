// The one way of spreading host work over threads (the references, the comparison, the models):
// [0, n) in chunks of at least `min_chunk` elements, a multiple of `align`, one chunk per thread
// (0 threads: one per hardware thread), the first on the calling thread.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace wb {

template <class F> void for_chunks(size_t n, size_t min_chunk, size_t align, unsigned threads, F&& part)
{
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    size_t chunk = std::max(min_chunk, (n + threads - 1) / threads);
    chunk = (chunk + align - 1) / align * align;
    std::vector<std::thread> pool;
    for (size_t begin = chunk; begin < n; begin += chunk) pool.emplace_back(part, begin, std::min(n, begin + chunk));
    part(size_t(0), std::min(n, chunk));
    for (auto& t : pool) t.join();
}

} // namespace wb
