// The cpu platform's runtime costs per lane (a lane, a barrier, a wavefront shuffle), measured in
// this process, and summed up over several processes (ceilings/lane_costs.h).
#include "harness/ceilings/lane_costs.h"

#include "core/random.h"
#include "core/stats.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <sys/resource.h>

namespace wb {

namespace {

/// The process's CPU time (user + system, every thread), in nanoseconds.
double cpu_time_ns()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return (double(u.ru_utime.tv_sec) + double(u.ru_stime.tv_sec)) * 1e9 +
           (double(u.ru_utime.tv_usec) + double(u.ru_stime.tv_usec)) * 1e3;
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

nlohmann::json summarize_lane_costs(const std::vector<nlohmann::json>& per_process, std::vector<std::string>& summary)
{
    const int processes = int(per_process.size());
    std::map<std::string, std::vector<double>> values;
    for (const auto& costs : per_process)
        for (const auto& [name, v] : costs.items()) values[name].push_back(v.get<double>());
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

} // namespace wb
