// The cpu platform's ceilings: read bandwidth of one thread, of all threads and per working-set
// size, copy bandwidth, the multiply-add rate, and the xsimd reference against the scalar oracle.
#include "harness/ceilings/probe.h"

#include "harness/common/utc_time.h"

#include "core/random.h"
#include "core/stats.h"
#include "reference/conv.h"
#include "reference/reduce.h"
#include "reference/simd.h"

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstring>
#include <thread>

namespace wb {

namespace {

/// Median GB/s of `f` moving `bytes` per call, after one warm-up call.
template <class F> double median_gbs(double bytes, F&& f)
{
    using clock = std::chrono::steady_clock;
    f();
    std::vector<double> rates;
    for (int i = 0; i < probe_samples; ++i) {
        const auto t0 = clock::now();
        f();
        rates.push_back(bytes / std::chrono::duration<double>(clock::now() - t0).count() / 1e9);
    }
    return summarize(rates).median;
}

volatile uint64_t sink; // keeps the reads from being optimized away

/// Median GB/s of `threads` threads each reading its share of the first `size` bytes of `data`,
/// `total / size` times over (so that a small working set, which the caches hold, is timed over at
/// least `total` bytes of reads).
double read_gbs(const uint32_t* data, size_t size, size_t total, unsigned threads)
{
    const size_t reps = std::max<size_t>(1, total / size);
    return median_gbs(double(size) * double(reps), [&] {
        std::barrier start(threads);
        std::vector<std::thread> pool;
        const size_t chunk = (size / threads) & ~size_t(63);
        for (unsigned t = 0; t < threads; ++t)
            pool.emplace_back([&, t] {
                start.arrive_and_wait();
                const size_t len = t + 1 == threads ? size - t * chunk : chunk;
                uint64_t s = 0;
                for (size_t k = 0; k < reps; ++k)
                    s += ref::stream_read(reinterpret_cast<const char*>(data) + t * chunk, len);
                sink = s;
            });
        for (auto& th : pool) th.join();
    });
}

unsigned cpu_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

/// What probe_cpu measures: rates in GB/s (multiply-adds in GMAC/s).
struct cpu_rates {
    size_t bytes;
    unsigned threads;
    double one, all;                               // read, one thread and every thread
    std::vector<std::pair<size_t, double>> levels; // read, every thread, by working set in MiB
    double copy, simd, scalar, imad, conv_simd, conv_scalar;
};

cpu_rates measure_cpu(size_t bytes)
{
    bytes &= ~size_t(63);
    std::vector<uint32_t> data(bytes / 4);
    fill_random(data, 1); // real pages with real data: no zero-page shortcuts
    const int32_t* ints = reinterpret_cast<const int32_t*>(data.data());
    const unsigned threads = cpu_threads();

    const double one = median_gbs(double(bytes), [&] { sink = ref::stream_read(data.data(), bytes); });
    auto threaded_read = [&](size_t size) { return read_gbs(data.data(), size, bytes, threads); };
    const double all = threaded_read(bytes);
    // The same at working sets of 1, 4, 16 and 64 MiB: data that a cache holds reads faster than
    // DRAM, and a configuration whose inputs stay in a cache is set against that cache's rate (at
    // other sizes `run` measures it when a configuration needs it: cpu_read_bandwidth).
    std::vector<std::pair<size_t, double>> levels;
    for (size_t mib = 1; (mib << 20) < bytes; mib *= 4) levels.emplace_back(mib, threaded_read(mib << 20));
    std::vector<uint32_t> dst(data.size() / 2);
    const double copy =
        median_gbs(2.0 * double(dst.size() * 4), [&] { std::memcpy(dst.data(), data.data(), dst.size() * 4); });
    const double simd = median_gbs(double(bytes), [&] { sink = uint64_t(ref::sum_i32(ints, data.size())); });
    const double scalar = median_gbs(double(bytes), [&] { sink = uint64_t(ref::sum_i32_scalar(ints, data.size())); });

    // Multiply-adds: one thread's rate, times the threads (the workers of the cpu platform); and
    // the conv reference against its scalar oracle, one thread each, at the seed's 257 taps.
    const double imad = ref::imad_rate_one_thread() * threads / 1e9;
    const size_t conv_n = 1 << 16, conv_m = 257;
    std::vector<int32_t> conv_out(conv_n);
    const double conv_simd = median_gbs(
        double(conv_n * conv_m), [&] { ref::conv_i32(ints, conv_n, ints + conv_n, conv_m, conv_out.data(), 1); });
    const double conv_scalar = median_gbs(
        double(conv_n * conv_m), [&] { ref::conv_i32_scalar(ints, conv_n, ints + conv_n, conv_m, conv_out.data()); });
    return {bytes, threads, one, all, levels, copy, simd, scalar, imad, conv_simd, conv_scalar};
}

/// The rates measured, a line each for a person.
void cpu_summary(probe_report& r, const cpu_rates& m)
{
    const auto& [bytes, threads, one, all, levels, copy, simd, scalar, imad, conv_simd, conv_scalar] = m;
    auto add = [&](const std::string& what, double gbs, const std::string& note) {
        char line[200];
        std::snprintf(line, sizeof line, "%-32s %8.2f GB/s   %s", what.c_str(), gbs, note.c_str());
        r.summary.emplace_back(line);
    };
    char ratio[96];
    add("read, " + std::to_string(threads) + " threads", all,
        "(DRAM: the ceiling of working sets the caches do not raise)");
    for (const auto& [level, gbs] : levels)
        add("read, " + std::to_string(threads) + " threads, " + std::to_string(level) + " MiB", gbs,
            "(the ceiling of working sets within 2.2% of " + std::to_string(level) + " MiB)");
    r.summary.emplace_back("(at other working sets below " + std::to_string(bytes >> 20) +
                           " MiB, `run` measures the read bandwidth at a configuration's own size)");
    add("read, one thread", one, "");
    add("copy (memcpy), one thread", copy, "(bytes read + written)");
    std::snprintf(ratio, sizeof ratio, "= %.2f x the one-thread read", simd / one);
    add(std::string("reference sum (xsimd, ") + ref::simd_isa() + ")", simd, ratio);
    std::snprintf(ratio, sizeof ratio, "(the reference is %.2f x faster)", simd / scalar);
    add("scalar oracle", scalar, ratio);
    char line[200];
    std::snprintf(line, sizeof line, "%-32s %8.2f GMAC/s (%u threads: the ceiling of conv)", "int32 multiply-adds",
                  imad, threads);
    r.summary.emplace_back(line);
    std::snprintf(line, sizeof line, "%-32s %8.2f GMAC/s = %.2f x the scalar oracle's %.2f (2^16 outputs, 257 taps)",
                  "conv reference, one thread", conv_simd, conv_simd / conv_scalar, conv_scalar);
    r.summary.emplace_back(line);
}

/// The ceilings and details of the rates measured.
probe_report cpu_report(const cpu_rates& m)
{
    const auto& [bytes, threads, one, all, levels, copy, simd, scalar, imad, conv_simd, conv_scalar] = m;
    probe_report r;
    const std::string mib = std::to_string(bytes >> 20) + " MiB";
    const std::string day = utc_now();
    r.values["read_bandwidth"] = {all, "GB/s", "read, " + std::to_string(threads) + " threads, " + mib, day};
    nlohmann::json by_size = nlohmann::json::object();
    for (const auto& [level, gbs] : levels) {
        const std::string name = "read_bandwidth@" + std::to_string(level) + "MiB";
        r.values[name] = {gbs, "GB/s",
                          "read, " + std::to_string(threads) + " threads, " + std::to_string(level) +
                              " MiB working set (held by the caches up to that size)",
                          day};
        by_size[std::to_string(level) + " MiB"] = gbs;
    }
    by_size[mib] = all;
    r.values["read_bandwidth_one_thread"] = {one, "GB/s", "read, one thread, " + mib, day};
    r.values["copy_bandwidth"] = {copy, "GB/s", "memcpy, one thread, read + write bytes", day};
    r.values["imad_rate"] = {
        imad, "GMAC/s", "int32 vector multiply-adds, one thread's rate x " + std::to_string(threads) + " threads", day};
    r.details = {{"bytes", bytes},
                 {"threads", threads},
                 {"samples", probe_samples},
                 {"simd_isa", ref::simd_isa()},
                 {"read_bandwidth_by_working_set_gbs", by_size},
                 {"reference_sum_gbs", simd},
                 {"scalar_oracle_gbs", scalar},
                 {"reference_vs_one_thread_read", simd / one},
                 {"reference_speedup_over_scalar", simd / scalar},
                 {"conv_reference_gmacs", conv_simd},
                 {"conv_scalar_oracle_gmacs", conv_scalar},
                 {"conv_reference_speedup_over_scalar", conv_simd / conv_scalar}};
    cpu_summary(r, m);
    return r;
}

} // namespace

probe_report probe_cpu(size_t bytes) { return cpu_report(measure_cpu(bytes)); }

double cpu_read_bandwidth(size_t size, size_t total, int rounds)
{
    const unsigned threads = cpu_threads();
    size = std::max<size_t>(size & ~size_t(63), size_t(64) * threads);
    std::vector<uint32_t> data(size / 4);
    fill_random(data, 1); // real pages with real data, as the probe's
    double best = 0;
    for (int r = 0; r < rounds; ++r) best = std::max(best, read_gbs(data.data(), size, std::max(total, size), threads));
    return best;
}

} // namespace wb
