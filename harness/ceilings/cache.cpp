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

// 2: imad_rate on cpu too; 3: the cpu's read bandwidth per working-set size, and the GPUs' read
// kernel at its best work-group size. A cache of another version is measured again.
constexpr int probe_version = 3;

fs::path cache_dir()
{
    if (const char* d = std::getenv("WAVEBENCH_CACHE_DIR"); d && *d) return d;
    if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return fs::path(d) / "wavebench";
    if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "wavebench";
    return fs::temp_directory_path() / "wavebench-cache";
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

nlohmann::json ceilings_json(const ceilings& c)
{
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [k, v] : c)
        j[k] = {{"value", v.value}, {"unit", v.unit}, {"what", v.what}, {"measured", v.measured}};
    return j;
}

} // namespace wb
