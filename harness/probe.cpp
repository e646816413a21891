#include "harness/probe.h"

#include "harness/report.h"

#include "core/random.h"
#include "core/stats.h"
#include "reference/reduce.h"

#include <barrier>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <thread>

namespace wb {

namespace fs = std::filesystem;

std::string utc_now()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

namespace {

constexpr int samples = 9; // medians of at least 9 runs on this noisy host

/// Median GB/s of `f` moving `bytes` per call, after one warm-up call.
template <class F> double median_gbs(double bytes, F&& f)
{
    using clock = std::chrono::steady_clock;
    f();
    std::vector<double> rates;
    for (int i = 0; i < samples; ++i) {
        const auto t0 = clock::now();
        f();
        rates.push_back(bytes / std::chrono::duration<double>(clock::now() - t0).count() / 1e9);
    }
    return summarize(rates).median;
}

volatile uint64_t sink; // keeps the reads from being optimized away

probe_report probe_cpu(size_t bytes)
{
    bytes &= ~size_t(63);
    std::vector<uint32_t> data(bytes / 4);
    fill_random(data, 1); // real pages with real data: no zero-page shortcuts
    const int32_t* ints = reinterpret_cast<const int32_t*>(data.data());
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());

    const double one = median_gbs(double(bytes), [&] { sink = ref::stream_read(data.data(), bytes); });
    const double all = median_gbs(double(bytes), [&] {
        std::barrier start(threads);
        std::vector<std::thread> pool;
        const size_t chunk = (bytes / threads) & ~size_t(63);
        for (unsigned t = 0; t < threads; ++t)
            pool.emplace_back([&, t] {
                start.arrive_and_wait();
                const size_t len = t + 1 == threads ? bytes - t * chunk : chunk;
                sink = ref::stream_read(reinterpret_cast<const char*>(data.data()) + t * chunk, len);
            });
        for (auto& th : pool) th.join();
    });
    std::vector<uint32_t> dst(data.size() / 2);
    const double copy = median_gbs(2.0 * double(dst.size() * 4),
                                   [&] { std::memcpy(dst.data(), data.data(), dst.size() * 4); });
    const double simd = median_gbs(double(bytes), [&] { sink = uint64_t(ref::sum_i32(ints, data.size())); });
    const double scalar = median_gbs(double(bytes), [&] { sink = uint64_t(ref::sum_i32_scalar(ints, data.size())); });

    probe_report r;
    const std::string mib = std::to_string(bytes >> 20) + " MiB";
    const std::string day = utc_now();
    r.values["read_bandwidth"] = {all, "GB/s", "read, " + std::to_string(threads) + " threads, " + mib, day};
    r.values["read_bandwidth_one_thread"] = {one, "GB/s", "read, one thread, " + mib, day};
    r.values["copy_bandwidth"] = {copy, "GB/s", "memcpy, one thread, read + write bytes", day};
    r.details = {{"bytes", bytes},
                 {"threads", threads},
                 {"samples", samples},
                 {"simd_isa", ref::simd_isa()},
                 {"reference_sum_gbs", simd},
                 {"scalar_oracle_gbs", scalar},
                 {"reference_vs_one_thread_read", simd / one},
                 {"reference_speedup_over_scalar", simd / scalar}};
    auto add = [&](const std::string& what, double gbs, const std::string& note) {
        char line[200];
        std::snprintf(line, sizeof line, "%-32s %8.2f GB/s   %s", what.c_str(), gbs, note.c_str());
        r.summary.emplace_back(line);
    };
    char ratio[96];
    add("read, " + std::to_string(threads) + " threads", all, "(the ceiling results are reported against)");
    add("read, one thread", one, "");
    add("copy (memcpy), one thread", copy, "(bytes read + written)");
    std::snprintf(ratio, sizeof ratio, "= %.2f x the one-thread read", simd / one);
    add(std::string("reference sum (xsimd, ") + ref::simd_isa() + ")", simd, ratio);
    std::snprintf(ratio, sizeof ratio, "(the reference is %.2f x faster)", simd / scalar);
    add("scalar oracle", scalar, ratio);
    return r;
}

fs::path cache_dir()
{
    if (const char* d = std::getenv("WAVEBENCH_CACHE_DIR"); d && *d) return d;
    if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return fs::path(d) / "wavebench";
    if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "wavebench";
    return fs::temp_directory_path() / "wavebench-cache";
}

} // namespace

probe_report probe(platform& p, size_t bytes)
{
    if (p.name() == "cpu") return probe_cpu(bytes);
    throw std::runtime_error("no probe is implemented for platform '" + p.name() + "' yet");
}

fs::path ceiling_cache_path(const platform& p)
{
    std::string dev = p.device().name;
    for (char& c : dev)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return cache_dir() / ("ceilings-" + p.name() + "-" + dev + ".json");
}

std::optional<ceilings> load_ceilings(const platform& p)
{
    std::ifstream in(ceiling_cache_path(p));
    if (!in) return std::nullopt;
    try {
        const auto j = nlohmann::json::parse(in);
        ceilings c;
        for (const auto& [k, v] : j.at("ceilings").items())
            c[k] = {v.at("value").get<double>(), v.at("unit").get<std::string>(), v.at("what").get<std::string>(),
                    v.at("measured").get<std::string>()};
        return c;
    } catch (const std::exception&) {
        return std::nullopt; // a damaged cache is measured again
    }
}

void save_ceilings(const platform& p, const probe_report& r)
{
    const fs::path path = ceiling_cache_path(p);
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    std::ofstream out(path);
    out << nlohmann::json{{"platform", p.name()}, {"device", p.device().name}, {"ceilings", ceilings_json(r.values)},
                          {"details", r.details}}
               .dump(2)
        << "\n";
}

} // namespace wb
