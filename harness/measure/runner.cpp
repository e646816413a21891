// Running a planned suite configuration by configuration, and setting each result against the
// baseline, the library and the ceiling (measure/runner.h).
#include "harness/measure/runner.h"

#include "harness/common/files.h"
#include "harness/measure/interrupt.h"
#include "harness/measure/measure.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

namespace wb {

namespace {

const auto process_start = std::chrono::steady_clock::now(); // when the harness library was loaded

/// Both builds' results of a configuration they have the same code of (config::same_code):
/// skipped, made here rather than by the executor, which would make the group's inputs for them.
result not_measured(const config& c)
{
    result r = result_for(c);
    r.st = status::skipped;
    r.message = c.skip;
    config base = c;
    base.plug = c.base_plug;
    r.ab_base = std::make_shared<result>(result_for(base));
    r.ab_base->st = status::skipped;
    r.ab_base->message = c.skip;
    return r;
}

/// Measures `c` on `e`, with when it started and how long it took in the result's wall_time.
result timed_measure(executor& e, const config& c, const run_settings& s)
{
    const double start = ms_since_process_start();
    result r = c.same_code && c.base_plug ? not_measured(c) : e.measure(c, s);
    r.wall.start = start;
    r.wall.total = ms_since_process_start() - start;
    return r;
}

} // namespace

double ms_since_process_start()
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - process_start).count();
}

std::vector<std::string> ceiling_levels(const ceilings& c, const std::string& name)
{
    std::vector<std::string> levels;
    const std::string prefix = name + "@";
    for (auto it = c.lower_bound(prefix); it != c.end() && it->first.rfind(prefix, 0) == 0; ++it)
        levels.push_back(it->first);
    return levels;
}

int64_t level_bytes(int64_t bytes)
{
    constexpr double mib = double(1 << 20), steps = 16; // sizes per doubling
    const double k = std::round(steps * std::log2(std::max(double(bytes), 1.0) / mib));
    return std::max<int64_t>(int64_t(std::llround(std::exp2(k / steps) * mib / 64)) * 64, int64_t(64) << 10);
}

std::string level_name(const std::string& name, int64_t bytes)
{
    char mib[32];
    std::snprintf(mib, sizeof mib, "%.3g", double(bytes) / double(1 << 20));
    return name + "@" + mib + "MiB";
}

namespace {

/// Working sets whose level reads at most this much faster than `<name>` (DRAM) are in DRAM.
constexpr double dram_margin = 1.05;

/// `c`'s entry `key` when it is a usable ceiling (a positive value).
std::optional<named_ceiling> usable(const ceilings& c, const std::string& key)
{
    const auto it = c.find(key);
    if (it == c.end() || !(it->second.value > 0)) return std::nullopt;
    return *it;
}

/// The smallest level of `name` in `c` that holds `working_set_bytes` (the rule without levels on
/// demand), else `name` itself.
std::optional<named_ceiling> smallest_holding(const ceilings& c, const std::string& name, int64_t working_set_bytes)
{
    std::optional<named_ceiling> best = usable(c, name);
    double best_mib = -1;
    for (const std::string& level : ceiling_levels(c, name)) {
        char* end = nullptr;
        const double mib = std::strtod(level.c_str() + name.size() + 1, &end);
        if (!end || std::string(end) != "MiB" || !(mib > 0) || mib * double(1 << 20) < double(working_set_bytes))
            continue;
        if (best_mib < 0 || mib < best_mib)
            if (auto l = usable(c, level)) best = l, best_mib = mib;
    }
    return best;
}

/// The smallest working set the probe measured `name` at (its levels) that reads like DRAM (within
/// dram_margin of `dram`): larger ones are in DRAM too. The probe's own working set when none does.
int64_t dram_from(const ceilings& c, const std::string& name, double dram)
{
    int64_t from = c.on_demand->max_bytes();
    for (const std::string& level : ceiling_levels(c, name)) {
        char* end = nullptr;
        const double mib = std::strtod(level.c_str() + name.size() + 1, &end);
        if (!end || std::string(end) != "MiB" || !(mib > 0) || c.at(level).value > dram_margin * dram) continue;
        from = std::min(from, int64_t(mib * double(1 << 20)));
    }
    return from;
}

} // namespace

std::optional<named_ceiling> ceiling_for(const ceilings& c, const std::string& name, int64_t working_set_bytes,
                                         double reached)
{
    const std::optional<named_ceiling> plain = usable(c, name);
    if (ceiling_levels(c, name).empty()) return plain; // a ceiling the caches do not raise (or a GPU's)
    if (!c.on_demand) return smallest_holding(c, name, working_set_bytes);
    // The working set reads from the level it lives in: the read bandwidth probed at its own size
    // (within 2.2%), not the next size the probe measured, which the caches may serve much less.
    const int64_t bytes = level_bytes(working_set_bytes);
    // As large as a size the probe found reading like DRAM, or as its own DRAM working set.
    if (bytes >= (plain ? dram_from(c, name, plain->second.value) : c.on_demand->max_bytes())) return plain;
    std::optional<named_ceiling> at = usable(c, level_name(name, bytes));
    if (!at) at = c.on_demand->level(name, bytes, reached);
    if (!at || !(at->second.value > 0)) return smallest_holding(c, name, working_set_bytes);
    // No faster than DRAM, beyond the probe's noise: the data is in DRAM, set against DRAM's own
    // ceiling (not a level a few percent off it either way).
    if (plain && at->second.value <= dram_margin * plain->second.value) return plain;
    return at;
}

void runner::label(const config& c, result& r)
{
    r.plan_index = c.index;
    r.message = shown(r.message, 4096); // a plugin's words: printable and bounded on the console and in JSON
    r.code_digest = c.plug->code_digest;
    r.device_code_digest = c.plug->device_code_digest;
    if (r.ab_base && c.base_plug) {
        r.ab_base->code_digest = c.base_plug->code_digest;
        r.ab_base->device_code_digest = c.base_plug->device_code_digest;
    }
}

void runner::finish(const config& c, result r, std::vector<result>& results, size_t& begin, const on_result& done)
{
    if (c.group != group_) begin = results.size(), group_ = c.group;
    const family& fam = *c.plug->fam;
    if (amd_static_) amd_figures_.attach(c, r.kernels);
    const ceilings& known = ceilings_.at(size_t(r.device_index)); // of the result's own device
    if (r.st == status::verified && r.time_ms.median > 0)
        if (const auto ceil = ceiling_for(known, fam.metric.ceiling, r.working_set_bytes, r.metric_value)) {
            r.ceiling = ceil->first;
            r.fraction_of_ceiling = r.metric_value / ceil->second.value;
            // A level this result had measured again: the group's earlier results against it follow.
            for (size_t j = begin; j < results.size(); ++j)
                if (result& x = results[j]; x.ceiling == ceil->first && x.device_index == r.device_index)
                    x.fraction_of_ceiling = x.metric_value / ceil->second.value;
        }
    results.push_back(std::move(r));
    // Speedups against the family's baseline and library at these parameters: the fastest
    // verified configuration of each so far (they run first; the JSON's final values are exact).
    auto fastest = [&](const std::string& variant) -> const result* {
        const result* best = nullptr;
        for (size_t j = begin; j < results.size(); ++j) {
            const result& x = results[j];
            if (x.variant == variant && x.st == status::verified && (!best || x.time_ms.median < best->time_ms.median))
                best = &x;
        }
        return best;
    };
    const result *base = fastest(fam.baseline), *lib = fam.library.empty() ? nullptr : fastest(fam.library);
    for (size_t j = begin; j < results.size(); ++j) {
        result& x = results[j];
        if (x.st != status::verified || x.time_ms.median <= 0) continue;
        if (base) x.speedup_vs_baseline = base->time_ms.median / x.time_ms.median;
        if (lib) x.speedup_vs_library = lib->time_ms.median / x.time_ms.median;
    }
    done(results, begin);
}

std::vector<result> runner::run(const std::vector<config>& configs, const run_settings& settings, const on_result& done,
                                const on_start& starting)
{
    std::vector<result> results;
    group_ = size_t(-1);
    size_t begin = 0; // the first result of the current group (the same family parameters)
    if (devices_.size() == 1) {
        for (size_t i = 0; i < configs.size() && !interrupted(); ++i) {
            if (starting) starting(i, configs[i], 0);
            result r = timed_measure(*devices_[0], configs[i], settings);
            label(configs[i], r);
            finish(configs[i], std::move(r), results, begin, done);
        }
        return results;
    }
    // The groups: [first, last) ranges of configs.
    std::vector<std::pair<size_t, size_t>> groups;
    for (size_t i = 0; i < configs.size(); ++i) {
        if (i == 0 || configs[i].group != configs[i - 1].group) groups.emplace_back(i, i);
        groups.back().second = i + 1;
    }
    std::mutex m;
    std::vector<std::optional<result>> measured(configs.size());
    size_t next_group = 0, emitted = 0;
    auto emit_ready = [&] { // under m: hand on the results whose predecessors are all in
        while (emitted < configs.size() && measured[emitted]) {
            result r = std::move(*measured[emitted]);
            measured[emitted].reset();
            ++emitted;
            finish(configs[emitted - 1], std::move(r), results, begin, done);
        }
    };
    std::exception_ptr failure; // the first error that stops a device stops them all (after the
                                // configurations in progress), and is thrown once they have
    std::vector<std::thread> threads;
    for (size_t d = 0; d < devices_.size(); ++d)
        threads.emplace_back([&, d] {
            try {
                for (;;) {
                    std::pair<size_t, size_t> g;
                    {
                        std::lock_guard lock(m);
                        if (next_group == groups.size() || interrupted() || failure) return;
                        g = groups[next_group++];
                    }
                    for (size_t i = g.first; i < g.second; ++i) {
                        {
                            std::lock_guard lock(m);
                            if (interrupted() || failure) return;
                            if (starting) starting(i, configs[i], int(d));
                        }
                        result r = timed_measure(*devices_[d], configs[i], settings);
                        r.device_index = int(d);
                        label(configs[i], r);
                        std::lock_guard lock(m);
                        measured[i] = std::move(r);
                        emit_ready();
                        if (measured[i] && waiting_) waiting_(*measured[i]); // behind a gap
                    }
                }
            } catch (...) {
                std::lock_guard lock(m);
                if (!failure) failure = std::current_exception();
            }
        });
    for (auto& t : threads) t.join();
    // Interrupted (or stopped by an error): the groups that finished after a gap are results too,
    // written before the error is.
    for (size_t i = emitted; i < configs.size(); ++i)
        if (measured[i]) finish(configs[i], std::move(*measured[i]), results, begin, done);
    if (failure) std::rethrow_exception(failure);
    return results;
}

} // namespace wb
