// The ceilings cached per platform and device, so that `run` measures them only once
// (ceilings/probe.h).
#include "harness/ceilings/probe.h"
#include "harness/common/json.h"

#include "harness/common/files.h"

#include <cctype>
#include <cstdlib>
#include <iostream>

namespace wb {

namespace fs = std::filesystem;

namespace {

ceiling ceiling_of(const nlohmann::json& v)
{
    return {v.at("value").get<double>(), v.at("unit").get<std::string>(), v.at("what").get<std::string>(),
            v.at("measured").get<std::string>()};
}

/// The entries of a map of ceilings as JSON.
nlohmann::json entries_json(const std::map<std::string, ceiling>& c)
{
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [k, v] : c)
        j[k] = {{"value", v.value}, {"unit", v.unit}, {"what", v.what}, {"measured", v.measured}};
    return j;
}

} // namespace

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
        const auto j = parse_json(read_input(ceiling_cache_path(p), "ceiling cache", text_input_limit));
        if (j.value("probe_version", 0) != probe_version) return std::nullopt;
        ceilings c;
        for (const auto& [k, v] : j.at("ceilings").items()) c[k] = ceiling_of(v);
        if (p.kind() == platform_kind::cpu) {
            std::map<std::string, ceiling> known; // the levels earlier runs measured
            const nlohmann::json levels = j.value("levels_on_demand", nlohmann::json::object());
            for (const auto& [k, v] : levels.items()) known[k] = ceiling_of(v);
            const int64_t probed = j.at("details").value("bytes", int64_t(256) << 20);
            if (probed <= 0) return std::nullopt;
            const auto dram = c.find("read_bandwidth");
            c.on_demand = cpu_levels_on_demand(ceiling_cache_path(p), dram == c.end() ? "" : dram->second.measured,
                                               probed, std::move(known));
        }
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
                                       {"ceilings", entries_json(r.values)},
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

nlohmann::json ceilings_json(const ceilings& c)
{
    nlohmann::json j = entries_json(c);
    if (!c.on_demand) return j;
    const nlohmann::json levels = entries_json(c.on_demand->handed_out()); // kept alive for the loop
    for (const auto& [k, v] : levels.items())
        if (!j.contains(k)) j[k] = v;
    return j;
}

} // namespace wb
