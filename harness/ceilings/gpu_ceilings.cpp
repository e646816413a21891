// The GPUs' ceilings: a read-only kernel (its sum checked) at its best work-group size, a
// device-to-device copy, and the int32 multiply-add rate.
#include "harness/ceilings/probe.h"

#include "harness/common/utc_time.h"

#include "core/random.h"
#include "core/stats.h"
#include "reference/reduce.h"

#include <algorithm>

namespace wb {

namespace {

/// Median milliseconds of `enqueue` on the stream over probe_samples runs, after one warm-up; `before`
/// runs untimed ahead of each.
template <class F, class B = void (*)()>
double median_ms(
    timed_stream& s, F&& enqueue, B&& before = [] {})
{
    std::vector<double> ms;
    for (int i = 0; i <= probe_samples; ++i) {
        before();
        s.start();
        enqueue();
        s.stop();
        s.sync();
        if (i > 0) ms.push_back(s.elapsed_ms());
    }
    return summarize(ms).median;
}

/// The fastest read over `data` (its sum checked against `want`) at work-groups of 256, 512 and
/// 1024: its median milliseconds and work-group size.
std::pair<double, uint32_t> fastest_read(const std::shared_ptr<platform>& p, timed_stream& s, device_buffer& data,
                                         size_t bytes, device_buffer& sum, int32_t want)
{
    const wb_device_info& d = p->device();
    const wb_platform& api = p->api();
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
                platform::check(api.probe_read(data.get(), bytes, groups, t, static_cast<int32_t*>(sum.get()), s.get()),
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
    return {read_ms, read_threads};
}

/// What probe_gpu measures: median milliseconds.
struct gpu_times {
    size_t bytes;
    double read_ms;
    uint32_t read_threads;
    double copy_ms, imad_ms, macs;
};

gpu_times measure_gpu(const std::shared_ptr<platform>& p, size_t bytes)
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
    // work-item (fastest_read).
    const auto [read_ms, read_threads] = fastest_read(p, s, data, bytes, sum, want);
    const uint32_t threads = 256,
                   blocks = uint32_t(d.multiprocessors) * uint32_t(d.max_threads_per_multiprocessor / threads);

    const double copy_ms = median_ms(s, [&] {
        platform::check(api.copy_async(copy_to.get(), data.get(), bytes / 2, 3 /* device to device */, s.get()),
                        "probe copy");
    });

    // Multiply-adds: calibrate the iterations to about 20 ms, then measure.
    device_buffer imad_out(p, size_t(blocks) * threads * sizeof(int32_t));
    auto imad = [&](uint32_t iterations) {
        return median_ms(s, [&] {
            platform::check(
                api.probe_imad(static_cast<int32_t*>(imad_out.get()), blocks, threads, iterations, 7, 3, s.get()),
                "probe multiply-add kernel");
        });
    };
    uint32_t iterations = 64;
    const double trial = imad(iterations);
    iterations = uint32_t(std::clamp(iterations * 20.0 / std::max(trial, 1e-3), 64.0, 1e7));
    const double imad_ms = imad(iterations);
    const double macs = double(blocks) * threads * iterations * 128;
    return {bytes, read_ms, read_threads, copy_ms, imad_ms, macs};
}

/// The ceilings, details and summary of the times measured.
probe_report gpu_report(const wb_device_info& d, const gpu_times& t)
{
    const auto& [bytes, read_ms, read_threads, copy_ms, imad_ms, macs] = t;
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
                 {"samples", probe_samples},
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
        std::snprintf(note, sizeof note, "(%.1f%% of the %.0f GB/s the memory clock and bus give)", 100 * read / spec,
                      spec);
    else
        std::snprintf(note, sizeof note, "(the device does not report its memory clock and bus)");
    add("read-only kernel", read, "GB/s", note);
    add("device-to-device copy", copy, "GB/s", "(bytes read + written)");
    std::snprintf(note, sizeof note, "(%.1f per clock per multiprocessor at %.0f MHz)", per_clock, d.clock_mhz);
    add("int32 multiply-add", gmacs, "GMAC/s", note);
    return r;
}

} // namespace

probe_report probe_gpu(const std::shared_ptr<platform>& p, size_t bytes)
{
    return gpu_report(p->device(), measure_gpu(p, bytes));
}

} // namespace wb
