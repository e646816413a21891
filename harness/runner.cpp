// Running a planned suite configuration by configuration, and setting each result against the
// baseline, the library and the ceiling (runner.h).
#include "harness/runner.h"

#include "harness/files.h"
#include "harness/interrupt.h"
#include "harness/measure.h"

#include <cstdlib>

namespace wb {

std::vector<std::string> ceiling_levels(const ceilings& c, const std::string& name)
{
    std::vector<std::string> levels;
    const std::string prefix = name + "@";
    for (auto it = c.lower_bound(prefix); it != c.end() && it->first.rfind(prefix, 0) == 0; ++it)
        levels.push_back(it->first);
    return levels;
}

std::string ceiling_for(const ceilings& c, const std::string& name, int64_t working_set_bytes)
{
    std::string best = c.count(name) ? name : "";
    long long best_mib = -1;
    for (const std::string& level : ceiling_levels(c, name)) {
        char* end = nullptr;
        const long long mib = std::strtoll(level.c_str() + name.size() + 1, &end, 10);
        if (!end || std::string(end) != "MiB" || mib <= 0 || (mib << 20) < working_set_bytes) continue;
        if (best_mib < 0 || mib < best_mib) best = level, best_mib = mib;
    }
    return best;
}

std::vector<result> runner::run(const std::vector<config>& configs, const run_settings& settings, const on_result& done,
                                const on_start& starting)
{
    std::vector<result> results;
    size_t begin = 0; // the first result of the current group (the same family parameters)
    for (size_t i = 0; i < configs.size() && !interrupted(); ++i) {
        const config& c = configs[i];
        if (i > 0 && c.group != configs[i - 1].group) begin = results.size();
        const family& fam = *c.plug->fam;
        if (starting) starting(i, c);
        result& r = results.emplace_back(executor_.measure(c, settings));
        r.message = shown(r.message, 4096); // a plugin's words: printable and bounded on the console and in JSON
        if (amd_static_) amd_figures_.attach(c, r.kernels);
        if (r.st == status::verified && r.time_ms.median > 0)
            if (auto it = ceilings_.find(ceiling_for(ceilings_, fam.metric.ceiling, r.working_set_bytes));
                it != ceilings_.end() && it->second.value > 0) {
                r.ceiling = it->first;
                r.fraction_of_ceiling = r.metric_value / it->second.value;
            }
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
        done(results.back(), results);
    }
    return results;
}

} // namespace wb
