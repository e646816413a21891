// Running a planned suite group by group, and setting each result against the baseline, the
// library and the ceiling (runner.h).
#include "harness/runner.h"

#include "harness/inputs.h"
#include "harness/measure.h"

namespace wb {

std::vector<result> runner::run(const std::vector<config>& configs, const run_settings& settings,
                                 const on_result& done) const
{
    std::vector<result> results;
    for (size_t i = 0; i < configs.size();) {
        std::vector<const config*> group;
        for (size_t j = i; j < configs.size() && configs[j].group == configs[i].group; ++j) group.push_back(&configs[j]);
        run_group(group, settings, results, done);
        i += group.size();
    }
    return results;
}

void runner::run_group(const std::vector<const config*>& group, const run_settings& settings,
                       std::vector<result>& results, const on_result& done) const
{
    const config& first = *group.front();
    const family& fam = *first.plug->fam;
    group_inputs g(platform_, fam, first.family_params, settings.seed);

    const size_t begin = results.size();
    for (const config* c : group) {
        result& r = results.emplace_back(measure(platform_, kernels_, *c, g, settings));
        if (r.st == status::verified && r.time_ms.median > 0)
            if (auto it = ceilings_.find(fam.metric.ceiling); it != ceilings_.end() && it->second.value > 0)
                r.fraction_of_ceiling = r.metric_value / it->second.value;
        // Speedups against the family's baseline and library at these parameters: the fastest
        // verified configuration of each so far (they run first; the JSON's final values are exact).
        auto fastest = [&](const std::string& variant) -> const result* {
            const result* best = nullptr;
            for (size_t i = begin; i < results.size(); ++i) {
                const result& x = results[i];
                if (x.variant == variant && x.st == status::verified && (!best || x.time_ms.median < best->time_ms.median))
                    best = &x;
            }
            return best;
        };
        const result *base = fastest(fam.baseline), *lib = fam.library.empty() ? nullptr : fastest(fam.library);
        for (size_t i = begin; i < results.size(); ++i) {
            result& x = results[i];
            if (x.st != status::verified || x.time_ms.median <= 0) continue;
            if (base) x.speedup_vs_baseline = base->time_ms.median / x.time_ms.median;
            if (lib) x.speedup_vs_library = lib->time_ms.median / x.time_ms.median;
        }
        done(results.back(), results);
    }
}

} // namespace wb
