// The counter pass, its summaries and its JSON (counters/counters.h); the providers are in
// cupti.cpp (nvidia) and cpu_counters.cpp (cpu).
#include "harness/counters/counters.h"

#include "harness/common/files.h"
#include "harness/telemetry/sensors.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace wb {

std::unique_ptr<counter_provider> open_cupti_provider(const platform& p, std::string& why);
std::unique_ptr<counter_provider> open_cpu_counter_provider(const platform& p, std::string& why);

namespace {

/// AMD: rocprofiler-sdk is what reads counters, where the user's ROCm has it. The provider over it
/// is not written (there is no AMD GPU to test it on); the skip says which case this is.
std::string amd_counters_skip()
{
    std::string why;
    void* lib = open_runtime_library("WAVEBENCH_ROCPROFILER_LIBRARY", "librocprofiler-sdk.so.1", why);
    if (!lib)
        return "amd: hardware counters need ROCm's rocprofiler-sdk, which this system lacks (" + why +
               "; Debian 12's ROCm has none)";
    return "amd: rocprofiler-sdk is installed, but wavebench has no provider over it yet (docs/counters.md gives "
           "the counters and formulas it would read)";
}

} // namespace

std::unique_ptr<counter_provider> counter_provider_for(const platform& p, std::string& why)
{
    switch (p.kind()) {
    case platform_kind::nvidia:
        return open_cupti_provider(p, why);
    case platform_kind::cpu:
        return open_cpu_counter_provider(p, why);
    case platform_kind::amd:
        why = amd_counters_skip();
        return nullptr;
    }
    return nullptr;
}

counter_readings read_counters(const platform& p, const std::function<void()>& run)
{
    counter_readings c;
    const auto provider = counter_provider_for(p, c.skipped);
    if (!provider) {
        run(); // the pass still runs (and is checked): the same work with or without a provider
        return c;
    }
    try {
        provider->start();
    } catch (const std::exception& e) {
        c.skipped = e.what();
        run();
        return c;
    }
    try {
        run();
    } catch (...) {
        try {
            (void)provider->stop();
        } catch (...) {
        }
        throw;
    }
    try {
        return provider->stop();
    } catch (const std::exception& e) {
        c.skipped = e.what();
        return c;
    }
}

namespace {

std::optional<double> value_of(const launch_counters& l, const char* name)
{
    const auto it = l.values.find(name);
    if (it == l.values.end() || !std::isfinite(it->second)) return std::nullopt;
    return it->second;
}

/// The mean of `name` over the launches weighted by `weight` (or evenly, where no launch has it).
std::optional<double> weighted(const counter_readings& c, const char* name, const char* weight)
{
    double sum = 0, weights = 0, plain = 0;
    int n = 0;
    for (const auto& l : c.launches) {
        const auto v = value_of(l, name);
        if (!v) continue;
        const double w = value_of(l, weight).value_or(0);
        sum += *v * w, weights += w, plain += *v, ++n;
    }
    if (n == 0) return std::nullopt;
    return weights > 0 ? sum / weights : plain / n;
}

} // namespace

std::optional<double> overall_simt(const counter_readings& c) { return weighted(c, "simt_efficiency", "instructions"); }

std::optional<double> overall_occupancy(const counter_readings& c)
{
    return weighted(c, "achieved_occupancy", "duration_ns");
}

std::optional<double> total_of(const counter_readings& c, const std::string& name)
{
    std::optional<double> total;
    for (const auto& l : c.launches)
        if (const auto v = value_of(l, name.c_str())) total = total.value_or(0) + *v;
    return total;
}

void name_launches(counter_readings& c, const std::vector<std::string>& kernel_names)
{
    for (size_t i = 0; i < c.launches.size(); ++i) {
        std::string& k = c.launches[i].kernel;
        if (k.empty() && kernel_names.size() == 1) {
            k = kernel_names[0]; // the only kernel this configuration declares
            continue;
        }
        // "void ns::name<4>(int, float*)": the plugin's name ends the part before the argument list.
        for (size_t at; (at = k.find("(anonymous namespace)::")) != std::string::npos;) k.erase(at, 23);
        const std::string callee = k.substr(0, k.find('('));
        for (const auto& name : kernel_names) {
            const size_t at = callee.size() - std::min(callee.size(), name.size());
            const bool whole = at == 0 || !(std::isalnum((unsigned char)callee[at - 1]) || callee[at - 1] == '_');
            if (!name.empty() && callee.size() >= name.size() && callee.compare(at, name.size(), name) == 0 && whole)
                k = name;
        }
        if (std::find(kernel_names.begin(), kernel_names.end(), k) == kernel_names.end()) {
            // Template arguments spelled otherwise ("reduce_streamed<way>", "reduce_streamed<false, 4>"):
            // the identifier decides where only one of the plugin's kernels has it.
            const auto ident = [](const std::string& s) {
                const std::string head = s.substr(0, std::min(s.find('<'), s.find('(')));
                const size_t from = head.find_last_of(" :");
                return from == std::string::npos ? head : head.substr(from + 1);
            };
            const std::string mine = ident(callee);
            const auto same = std::count_if(kernel_names.begin(), kernel_names.end(),
                                            [&](const std::string& n) { return ident(n) == mine; });
            if (!mine.empty() && same == 1)
                k = *std::find_if(kernel_names.begin(), kernel_names.end(),
                                  [&](const std::string& n) { return ident(n) == mine; });
        }
        if (k.empty()) k = "launch " + std::to_string(i + 1);
    }
}

void explain_occupancy(launch_counters& l, double static_fraction, int blocks_per_multiprocessor, int multiprocessors,
                       const std::string& limiter)
{
    const auto achieved = value_of(l, "achieved_occupancy");
    if (!achieved || static_fraction <= 0 || static_fraction - *achieved <= occupancy_margin) return;
    char head[96];
    std::snprintf(head, sizeof head, "achieved occupancy %.0f%% against %.0f%% static: ", 100 * *achieved,
                  100 * static_fraction);
    const auto blocks = value_of(l, "blocks");
    const double slots = double(blocks_per_multiprocessor) * multiprocessors; // blocks resident at once
    std::string why;
    if (blocks && slots > 0 && *blocks < slots) {
        why = "launch too small: " + std::to_string(int64_t(*blocks)) + " blocks for " +
              std::to_string(int64_t(slots)) + " resident at once (" + std::to_string(multiprocessors) +
              " multiprocessors x " + std::to_string(blocks_per_multiprocessor) + ")";
    } else if (blocks && slots > 0 && *blocks / slots < 4) {
        const double waves = *blocks / slots, last = waves - std::ceil(waves) + 1;
        char text[200];
        std::snprintf(text, sizeof text,
                      "tail effect: %.2f waves of blocks (the last %.0f%% full): multiprocessors empty as the last "
                      "wave's blocks finish, with none left to take their place",
                      waves, 100 * last);
        why = text;
    } else {
        why = "likely short blocks (a slot stays empty while one block ends and the next starts) or wavefronts of a "
              "block ending at different times (the static figure is limited by " +
              (limiter.empty() ? std::string("an unknown resource") : limiter) + ")";
    }
    l.note = head + why;
}

namespace {

/// "64.0 MiB", "512 B".
std::string bytes_text(double b)
{
    char buf[32];
    if (b < 1024)
        std::snprintf(buf, sizeof buf, "%.0f B", b);
    else if (b < 1048576)
        std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024);
    else
        std::snprintf(buf, sizeof buf, "%.1f MiB", b / 1048576);
    return buf;
}

} // namespace

std::string counters_line(const counter_readings& c, std::optional<double> model_simt)
{
    if (c.provider.empty()) return c.skipped.empty() ? "" : "counters: none (" + c.skipped + ")";
    std::string s =
        "counters (" + c.provider + (c.passes > 1 ? ", " + std::to_string(c.passes) + " passes" : "") + "):";
    char buf[160];
    if (const auto m = overall_simt(c); m && model_simt) {
        std::snprintf(buf, sizeof buf, " simt %.1f%%, the model's %.1f%% (%+.1f points);", 100 * *m, 100 * *model_simt,
                      100 * (*m - *model_simt));
        s += buf;
    }
    const auto read = total_of(c, "dram_read_bytes"), written = total_of(c, "dram_write_bytes");
    if (read || written) {
        s += " dram " + bytes_text(read.value_or(0)) + " read, " + bytes_text(written.value_or(0)) + " written";
        if (c.work_unit == "B" && c.work > 0) {
            std::snprintf(buf, sizeof buf, " (%.2fx the bytes counted)",
                          (read.value_or(0) + written.value_or(0)) / c.work);
            s += buf;
        }
        s += ";";
    }
    if (const auto l2 = weighted(c, "l2_hit_rate", "duration_ns")) {
        std::snprintf(buf, sizeof buf, " L2 hits %.0f%%;", 100 * *l2);
        s += buf;
    }
    if (const auto n = total_of(c, "instructions"); n && c.work > 0) {
        std::snprintf(buf, sizeof buf, " %.3g instructions (%.3g per %s);", *n, *n / c.work, c.work_unit.c_str());
        s += buf;
    }
    if (const auto u = weighted(c, "branch_uniformity", "instructions")) {
        std::snprintf(buf, sizeof buf, " branches uniform %.0f%%;", 100 * *u);
        s += buf;
    }
    if (const auto n = total_of(c, "collectives"); n && *n == 0) {
        s += " no wavefront collective (the cpu runtime counts no instructions);";
    } else if (n) {
        std::snprintf(buf, sizeof buf, " %.0f collectives", *n);
        s += buf;
        if (const auto lanes = weighted(c, "collective_lanes", "collectives")) {
            std::snprintf(buf, sizeof buf, ", %.0f%% of lanes at each", 100 * *lanes);
            s += buf;
        }
        s += " (the cpu runtime counts no instructions);";
    }
    s += " " + std::to_string(c.launches.size()) + (c.launches.size() == 1 ? " launch" : " launches");
    for (const auto& l : c.launches)
        if (!l.note.empty()) s += "; " + l.kernel + ": " + l.note;
    if (!c.skipped.empty()) s += "; " + c.skipped;
    return s;
}

nlohmann::json counters_json(const counter_readings& c)
{
    nlohmann::json launches = nlohmann::json::array();
    for (const auto& l : c.launches) {
        nlohmann::json values = nlohmann::json::object();
        for (const auto& [k, v] : l.values)
            if (std::isfinite(v)) values[k] = v;
        nlohmann::json j = {{"kernel", l.kernel}, {"values", values}};
        if (!l.note.empty()) j["note"] = l.note;
        launches.push_back(std::move(j));
    }
    nlohmann::json j = {
        {"provider", c.provider}, {"passes", c.passes}, {"launches", launches}, {"fresh_worker", c.fresh_worker}};
    j["skipped"] = c.skipped.empty() ? nlohmann::json() : nlohmann::json(c.skipped);
    if (const auto v = overall_simt(c)) j["simt_efficiency"] = *v;
    if (const auto v = overall_occupancy(c)) j["achieved_occupancy"] = *v;
    if (const auto v = weighted(c, "collective_lanes", "collectives")) j["collective_lanes"] = *v;
    if (c.work > 0) {
        j["work"] = {{"value", c.work}, {"unit", c.work_unit}};
        const auto read = total_of(c, "dram_read_bytes"), written = total_of(c, "dram_write_bytes");
        if (c.work_unit == "B" && (read || written))
            j["dram_bytes_per_work"] = (read.value_or(0) + written.value_or(0)) / c.work;
        if (const auto n = total_of(c, "instructions")) j["instructions_per_work"] = *n / c.work;
    }
    return j;
}

counter_readings counters_from_json(const nlohmann::json& j)
{
    counter_readings c;
    if (!j.is_object()) return c;
    c.provider = j.value("provider", "");
    if (j.contains("skipped") && j["skipped"].is_string()) c.skipped = j["skipped"].get<std::string>();
    c.passes = j.value("passes", 0);
    c.fresh_worker = j.value("fresh_worker", false);
    if (j.contains("work") && j["work"].is_object()) {
        c.work = j["work"].value("value", 0.0);
        c.work_unit = j["work"].value("unit", "");
    }
    if (j.contains("launches") && j["launches"].is_array())
        for (const auto& lj : j["launches"]) {
            if (!lj.is_object()) continue;
            launch_counters l;
            l.kernel = lj.value("kernel", "");
            l.note = lj.value("note", "");
            if (lj.contains("values") && lj["values"].is_object())
                for (const auto& [k, v] : lj["values"].items())
                    if (v.is_number()) l.values[k] = v.get<double>();
            c.launches.push_back(std::move(l));
        }
    return c;
}

} // namespace wb
