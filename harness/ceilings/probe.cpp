#include "harness/ceilings/probe.h"

#include "harness/commands/commands.h"
#include "harness/common/files.h"
#include "harness/report/results_json.h"
#include "harness/worker/worker.h"

#include "core/random.h"
#include "core/stats.h"
#include "reference/conv.h"
#include "reference/reduce.h"
#include "reference/simd.h"

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <map>
#include <sys/resource.h>
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
// 2: imad_rate on cpu too; 3: the cpu's read bandwidth per working-set size, and the GPUs' read
// kernel at its best work-group size. A cache of another version is measured again.
constexpr int probe_version = 3;

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
    // Every thread reads its share of the first `size` bytes, `reps` times over (so that a
    // small working set, which the caches hold, is timed over at least `bytes` of reads).
    auto threaded_read = [&](size_t size) {
        const size_t reps = std::max<size_t>(1, bytes / size);
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
                        s += ref::stream_read(reinterpret_cast<const char*>(data.data()) + t * chunk, len);
                    sink = s;
                });
            for (auto& th : pool) th.join();
        });
    };
    const double all = threaded_read(bytes);
    // The same at working sets of 1, 4, 16 and 64 MiB: data that a cache holds reads faster than
    // DRAM, and a configuration whose inputs stay in a cache is set against that cache's rate.
    std::vector<std::pair<size_t, double>> levels;
    for (size_t mib = 1; (mib << 20) < bytes; mib *= 4) levels.emplace_back(mib, threaded_read(mib << 20));
    std::vector<uint32_t> dst(data.size() / 2);
    const double copy = median_gbs(2.0 * double(dst.size() * 4),
                                   [&] { std::memcpy(dst.data(), data.data(), dst.size() * 4); });
    const double simd = median_gbs(double(bytes), [&] { sink = uint64_t(ref::sum_i32(ints, data.size())); });
    const double scalar = median_gbs(double(bytes), [&] { sink = uint64_t(ref::sum_i32_scalar(ints, data.size())); });

    // Multiply-adds: one thread's rate, times the threads (the workers of the cpu platform); and
    // the conv reference against its scalar oracle, one thread each, at the seed's 257 taps.
    const double imad = ref::imad_rate_one_thread() * threads / 1e9;
    const size_t conv_n = 1 << 16, conv_m = 257;
    std::vector<int32_t> conv_out(conv_n);
    const double conv_simd = median_gbs(double(conv_n * conv_m), [&] {
        ref::conv_i32(ints, conv_n, ints + conv_n, conv_m, conv_out.data(), 1);
    });
    const double conv_scalar = median_gbs(double(conv_n * conv_m), [&] {
        ref::conv_i32_scalar(ints, conv_n, ints + conv_n, conv_m, conv_out.data());
    });

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
    r.values["imad_rate"] = {imad, "GMAC/s",
                             "int32 vector multiply-adds, one thread's rate x " + std::to_string(threads) + " threads", day};
    r.details = {{"bytes", bytes},
                 {"threads", threads},
                 {"samples", samples},
                 {"simd_isa", ref::simd_isa()},
                 {"read_bandwidth_by_working_set_gbs", by_size},
                 {"reference_sum_gbs", simd},
                 {"scalar_oracle_gbs", scalar},
                 {"reference_vs_one_thread_read", simd / one},
                 {"reference_speedup_over_scalar", simd / scalar},
                 {"conv_reference_gmacs", conv_simd},
                 {"conv_scalar_oracle_gmacs", conv_scalar},
                 {"conv_reference_speedup_over_scalar", conv_simd / conv_scalar}};
    auto add = [&](const std::string& what, double gbs, const std::string& note) {
        char line[200];
        std::snprintf(line, sizeof line, "%-32s %8.2f GB/s   %s", what.c_str(), gbs, note.c_str());
        r.summary.emplace_back(line);
    };
    char ratio[96];
    add("read, " + std::to_string(threads) + " threads", all, "(the ceiling results are reported against)");
    for (const auto& [level, gbs] : levels)
        add("read, " + std::to_string(threads) + " threads, " + std::to_string(level) + " MiB", gbs,
            "(the ceiling of working sets up to " + std::to_string(level) + " MiB)");
    add("read, one thread", one, "");
    add("copy (memcpy), one thread", copy, "(bytes read + written)");
    std::snprintf(ratio, sizeof ratio, "= %.2f x the one-thread read", simd / one);
    add(std::string("reference sum (xsimd, ") + ref::simd_isa() + ")", simd, ratio);
    std::snprintf(ratio, sizeof ratio, "(the reference is %.2f x faster)", simd / scalar);
    add("scalar oracle", scalar, ratio);
    char line[200];
    std::snprintf(line, sizeof line, "%-32s %8.2f GMAC/s (%u threads: the ceiling of conv)", "int32 multiply-adds", imad,
                  threads);
    r.summary.emplace_back(line);
    std::snprintf(line, sizeof line, "%-32s %8.2f GMAC/s = %.2f x the scalar oracle's %.2f (2^16 outputs, 257 taps)",
                  "conv reference, one thread", conv_simd, conv_simd / conv_scalar, conv_scalar);
    r.summary.emplace_back(line);
    return r;
}

/// Median milliseconds of `enqueue` on the stream over `samples` runs, after one warm-up; `before`
/// runs untimed ahead of each.
template <class F, class B = void (*)()> double median_ms(timed_stream& s, F&& enqueue, B&& before = [] {})
{
    std::vector<double> ms;
    for (int i = 0; i <= samples; ++i) {
        before();
        s.start();
        enqueue();
        s.stop();
        s.sync();
        if (i > 0) ms.push_back(s.elapsed_ms());
    }
    return summarize(ms).median;
}

probe_report probe_gpu(const std::shared_ptr<platform>& p, size_t bytes)
{
    const wb_device_info& d = p->device();
    const wb_platform& api = p->api();
    bytes &= ~size_t(15);
    std::vector<uint32_t> host(bytes / 4);
    fill_random(host, 3);
    device_buffer data(p, bytes), sum(p, sizeof(int32_t)), copy_to(p, bytes / 2);
    p->copy_to_device(data.get(), host.data(), bytes);
    const int32_t want = ref::sum_i32(reinterpret_cast<const int32_t*>(host.data()), host.size());
    timed_stream s(p);

    // Read: enough work-groups to fill every multiprocessor, four 16-byte loads in flight per
    // work-item (the technique of reduce/unrolled, which nothing tried in reduce/streamed beat:
    // results/h100/reduce-hopper.md), at work-groups of 256, 512 and 1024: the fastest is the
    // ceiling, so that no tuned kernel measures above it. The sum must be right every time.
    double read_ms = 0;
    uint32_t read_threads = 0;
    for (const uint32_t t : {256u, 512u, 1024u}) {
        if (t > uint32_t(d.max_threads_per_multiprocessor)) continue;
        const uint32_t groups = uint32_t(d.multiprocessors) * uint32_t(d.max_threads_per_multiprocessor / t);
        const double ms = median_ms(
            s,
            [&] {
                platform::check(
                    api.probe_read(data.get(), bytes, groups, t, static_cast<int32_t*>(sum.get()), s.get()),
                    "probe read kernel");
            },
            [&] { platform::check(api.fill(sum.get(), 0, sizeof(int32_t), s.get()), "probe"); });
        int32_t got = 0;
        p->copy_to_host(&got, sum.get(), sizeof got);
        if (got != want)
            throw std::runtime_error("the probe's read kernel summed to " + std::to_string(got) + ", not " +
                                     std::to_string(want) + ": its bandwidth cannot be trusted");
        if (read_threads == 0 || ms < read_ms) read_ms = ms, read_threads = t;
    }
    const uint32_t threads = 256, blocks = uint32_t(d.multiprocessors) * uint32_t(d.max_threads_per_multiprocessor / threads);

    const double copy_ms = median_ms(s, [&] {
        platform::check(api.copy_async(copy_to.get(), data.get(), bytes / 2, 3 /* device to device */, s.get()),
                        "probe copy");
    });

    // Multiply-adds: calibrate the iterations to about 20 ms, then measure.
    device_buffer imad_out(p, size_t(blocks) * threads * sizeof(int32_t));
    auto imad = [&](uint32_t iterations) {
        return median_ms(s, [&] {
            platform::check(api.probe_imad(static_cast<int32_t*>(imad_out.get()), blocks, threads, iterations, 7, 3,
                                           s.get()),
                            "probe multiply-add kernel");
        });
    };
    uint32_t iterations = 64;
    const double trial = imad(iterations);
    iterations = uint32_t(std::clamp(iterations * 20.0 / std::max(trial, 1e-3), 64.0, 1e7));
    const double imad_ms = imad(iterations);
    const double macs = double(blocks) * threads * iterations * 128;

    const double read = double(bytes) / (read_ms * 1e-3) / 1e9, copy = double(bytes) / (copy_ms * 1e-3) / 1e9;
    const double gmacs = macs / (imad_ms * 1e-3) / 1e9;
    const double spec = 2.0 * d.memory_clock_mhz * 1e6 * d.memory_bus_width / 8 / 1e9; // DDR: two transfers a clock
    const double per_clock = gmacs * 1e9 / (double(d.multiprocessors) * d.clock_mhz * 1e6);

    probe_report r;
    const std::string mib = std::to_string(bytes >> 20) + " MiB", day = utc_now();
    r.values["read_bandwidth"] = {read, "GB/s",
                                  "read-only kernel, 4 16-byte loads in flight, work-groups of " +
                                      std::to_string(read_threads) + ", " + mib,
                                  day};
    r.values["copy_bandwidth"] = {copy, "GB/s", "device-to-device copy, read + write bytes, " + mib, day};
    r.values["imad_rate"] = {gmacs, "GMAC/s", "int32 multiply-adds, 8 independent chains per work-item", day};
    r.details = {{"bytes", bytes},
                 {"samples", samples},
                 {"read_ms", read_ms},
                 {"copy_ms", copy_ms},
                 {"imad_ms", imad_ms},
                 {"spec_bandwidth_gbs", spec},
                 {"read_vs_spec", spec > 0 ? read / spec : 0},
                 {"imad_per_clock_per_multiprocessor", per_clock}};
    auto add = [&](const std::string& what, double v, const char* unit, const std::string& note) {
        char line[200];
        std::snprintf(line, sizeof line, "%-32s %9.1f %-7s %s", what.c_str(), v, unit, note.c_str());
        r.summary.emplace_back(line);
    };
    char note[96];
    if (spec > 0)
        std::snprintf(note, sizeof note, "(%.1f%% of the %.0f GB/s the memory clock and bus give)", 100 * read / spec, spec);
    else
        std::snprintf(note, sizeof note, "(the device does not report its memory clock and bus)");
    add("read-only kernel", read, "GB/s", note);
    add("device-to-device copy", copy, "GB/s", "(bytes read + written)");
    std::snprintf(note, sizeof note, "(%.1f per clock per multiprocessor at %.0f MHz)", per_clock, d.clock_mhz);
    add("int32 multiply-add", gmacs, "GMAC/s", note);
    return r;
}

/// The process's CPU time (user + system, every thread), in nanoseconds.
double cpu_time_ns()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return (double(u.ru_utime.tv_sec) + double(u.ru_stime.tv_sec)) * 1e9 +
           (double(u.ru_utime.tv_usec) + double(u.ru_stime.tv_usec)) * 1e3;
}

fs::path cache_dir()
{
    if (const char* d = std::getenv("WAVEBENCH_CACHE_DIR"); d && *d) return d;
    if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return fs::path(d) / "wavebench";
    if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "wavebench";
    return fs::temp_directory_path() / "wavebench-cache";
}

} // namespace

nlohmann::json measure_lane_costs(const std::shared_ptr<platform>& p)
{
    const wb_platform& api = p->api();
    const int warp = p->device().warp_size;
    const size_t n = size_t(1) << 20, runs = 5;
    std::vector<int32_t> host(n), back(n);
    std::vector<uint32_t> bits(n);
    fill_random(bits, 5);
    for (size_t i = 0; i < n; ++i) host[i] = int32_t(bits[i] % 2001) - 1000;
    device_buffer in(p, n * 4), out(p, n * 4);
    p->copy_to_device(in.get(), host.data(), n * 4);
    timed_stream s(p);
    const auto* src = static_cast<const int32_t*>(in.get());
    auto* dst = static_cast<int32_t*>(out.get());

    // Median CPU time and wall time of `runs` launches after a warm-up, per lane.
    auto per_lane = [&](int kind, uint32_t threads, const char* what) {
        auto launch = [&] {
            platform::check(api.probe_lanes(kind, src, dst, n, threads, s.get()), what);
            platform::check(api.stream_sync(s.get()), what);
        };
        launch();
        std::vector<double> cpu, wall;
        for (size_t r = 0; r < runs; ++r) {
            const double c0 = cpu_time_ns();
            const auto t0 = std::chrono::steady_clock::now();
            launch();
            wall.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count());
            cpu.push_back(cpu_time_ns() - c0);
        }
        p->copy_to_host(back.data(), dst, n * 4);
        return std::pair{summarize(cpu).median / double(n), summarize(wall).median / double(n)};
    };
    // Each result is checked: a cost of a wrong kernel means nothing.
    auto group_sums_right = [&](size_t group, const char* what) {
        for (size_t g = 0; g < n / group; ++g) {
            int64_t want = 0;
            for (size_t i = g * group; i < (g + 1) * group; ++i) want += host[i];
            if (back[g] != int32_t(want))
                throw std::runtime_error(std::string("the ") + what + " kernel summed group " + std::to_string(g) +
                                         " to " + std::to_string(back[g]) + ", not " + std::to_string(want));
        }
    };

    nlohmann::json j = nlohmann::json::object();
    const double workers = std::max(1, p->device().multiprocessors);
    const auto [map_cpu, map_wall] = per_lane(WB_LANES_MAP, 256, "the lane-cost map kernel");
    for (size_t i = 0; i < n; ++i)
        if (back[i] != host[i] * 3 + 1)
            throw std::runtime_error("the lane-cost map kernel wrote " + std::to_string(back[i]) + " at " +
                                     std::to_string(i) + ", not " + std::to_string(host[i] * 3 + 1));
    j["lane_ns"] = map_cpu;
    j["lane_wall_core_ns"] = map_wall * workers;
    for (uint32_t b = 64; b <= 1024; b *= 2) {
        if (b % uint32_t(warp) || b > uint32_t(p->device().max_threads_per_block)) continue;
        const auto [cpu, wall] = per_lane(WB_LANES_BARRIERS, b, "the lane-cost barrier kernel");
        group_sums_right(b, "barrier");
        const double barriers = std::log2(double(b)) + 1;
        j["barrier_ns@" + std::to_string(b)] = (cpu - map_cpu) / barriers;
        j["barrier_wall_core_ns@" + std::to_string(b)] = (wall - map_wall) * workers / barriers;
    }
    const auto [cpu, wall] = per_lane(WB_LANES_SHUFFLES, 256, "the lane-cost shuffle kernel");
    group_sums_right(size_t(warp), "shuffle");
    const double shuffles = std::log2(double(warp));
    j["shuffle_ns"] = (cpu - map_cpu) / shuffles;
    j["shuffle_wall_core_ns"] = (wall - map_wall) * workers / shuffles;
    return j;
}

nlohmann::json lane_costs_over_processes(const platform_options& po, int processes, std::vector<std::string>& summary)
{
    std::map<std::string, std::vector<double>> values;
    for (int k = 0; k < processes; ++k) {
        worker_process w(po);
        w.send({{"lane_costs", true}});
        nlohmann::json answer;
        const auto how = w.wait(answer, worker_process::clock::now() + std::chrono::minutes(5));
        if (how != worker_process::outcome::answered)
            throw std::runtime_error("the lane-cost worker " +
                                     std::string(how == worker_process::outcome::timed_out ? "timed out"
                                                                                           : "ended: " + w.how_it_ended()));
        if (answer.contains("fatal")) throw std::runtime_error(answer["fatal"].get<std::string>());
        for (const auto& [name, v] : answer.at("lane_costs").items()) values[name].push_back(v.get<double>());
    }
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [name, v] : values) {
        const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
        j[name] = {{"median", summarize(v).median},
                   {"min", *lo},
                   {"max", *hi},
                   {"spread", *lo > 0 ? *hi / *lo : 0.0},
                   {"per_process", v}};
    }
    auto line = [&](const std::string& what, const std::string& name, const char* note) {
        if (!j.contains(name)) return;
        const auto& c = j[name];
        char text[200];
        std::snprintf(text, sizeof text, "%-32s %8.2f ns    spread %.2fx over %d processes (%.2f-%.2f)%s", what.c_str(),
                      c["median"].get<double>(), c["spread"].get<double>(), processes, c["min"].get<double>(),
                      c["max"].get<double>(), note);
        summary.emplace_back(text);
    };
    summary.emplace_back("the runtime's costs, core time per lane (the process's CPU time / lanes):");
    line("  a lane, no barriers", "lane_ns", "");
    for (uint32_t b = 64; b <= 1024; b *= 2)
        line("  a barrier, work-group " + std::to_string(b), "barrier_ns@" + std::to_string(b), "");
    line("  a wavefront shuffle", "shuffle_ns", "");
    return j;
}

probe_report probe(const std::shared_ptr<platform>& p, size_t bytes)
{
    if (p->kind() == platform_kind::cpu) return probe_cpu(bytes ? bytes : size_t(256) << 20);
    return probe_gpu(p, bytes ? bytes : size_t(1) << 30);
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
    try {
        const auto j = nlohmann::json::parse(read_input(ceiling_cache_path(p), "ceiling cache", text_input_limit));
        if (j.value("probe_version", 0) != probe_version) return std::nullopt;
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
    write_json(ceiling_cache_path(p), {{"probe_version", probe_version},
                                       {"platform", p.name()},
                                       {"device", p.device().name},
                                       {"ceilings", ceilings_json(r.values)},
                                       {"details", r.details}});
}

void cache_ceilings(const platform& p, const probe_report& r, std::ostream& os)
{
    try {
        save_ceilings(p, r);
        os << "ceilings cached in " << ceiling_cache_path(p).string() << " (--reprobe measures them again)\n";
    } catch (const std::exception& e) {
        std::cerr << "warning: the ceilings were not cached, and will be measured again next time: " << e.what()
                  << " (WAVEBENCH_CACHE_DIR names another folder)\n";
    }
}

} // namespace wb
