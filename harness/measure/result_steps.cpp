// The steps of measuring a configuration around its runs (measure/result_steps.h).
#include "harness/measure/result_steps.h"

#include "core/stats.h"
#include "harness/measure/stage.h"
#include "reference/reference.h"

namespace wb {

/// What the result says of the group's inputs before anything runs; false (the result says why)
/// when nothing will: the configuration is skipped or its inputs could not be made.
bool describe_inputs(const config& c, const group_inputs& g, result& r)
{
    for (const auto& d : g.data) r.seeds.push_back(d.seed);
    r.input_sets = int(g.input_sets.size());
    for (const auto& set : g.input_sets)
        for (const auto& b : set) r.working_set_bytes += int64_t(b.bytes());
    for (const auto& b : g.actual) r.working_set_bytes += int64_t(b.bytes.size());
    if (!c.skip.empty()) {
        r.st = status::skipped;
        r.message = c.skip;
        return false;
    }
    if (!g.setup_error.empty()) {
        r.message = g.setup_error;
        r.where = stage::inputs;
        return false;
    }
    return true;
}

/// After the plugin is released: inputs it wrote into fail the result (and do not spoil the next
/// one's run).
void check_inputs_intact(group_inputs& g, result& r)
{
    enter(stage::verify);
    try {
        if (std::string damage = g.check_intact(); !damage.empty() && r.st != status::error) {
            r.st = status::failed;
            r.message = damage;
        }
    } catch (const std::exception& e) { // after an error, most likely the same one again: keep the first
        if (r.st != status::error) {
            r.st = status::error;
            r.message = std::string("checking the inputs afterwards failed: ") + e.what();
            r.where = stage::verify;
        }
    }
    if (r.st == status::failed) r.where = stage::verify;
}

/// The times' summaries, and for a verified result its metric, noise and model figures.
void summarize_result(const platform& pf, const config& c, const group_inputs& g, std::vector<double> times,
                      std::vector<double> walls, result& r)
{
    const family& fam = *c.plug->fam;
    r.time_ms = summarize(times);
    r.wall_ms = summarize(walls);
    r.samples_ms = std::move(times);
    r.wall_samples_ms = std::move(walls);
    if (r.st != status::verified || r.time_ms.median <= 0) return;
    r.metric_value = fam.metric.work(c.family_params) / (r.time_ms.median * 1e-3) / fam.metric.scale;
    r.noisy = r.time_ms.rel_stddev > 0.02;
    param_map all = c.family_params;
    all.insert(c.tunables.begin(), c.tunables.end());
    if (const auto model = reference_of(fam).model)
        r.model_speedup = model(all, r.variant, g.data.front().inputs, unsigned(pf.device().warp_size));
    if (const auto model_issue = reference_of(fam).model_issue)
        r.model_issue_speedup =
            model_issue(all, r.variant, g.data.front().inputs, unsigned(pf.device().warp_size), pf.device().arch);
    if (const auto model_simt = reference_of(fam).model_simt; model_simt && r.counters)
        r.model_simt =
            model_simt(all, r.variant, g.data.front().inputs, unsigned(pf.device().warp_size), pf.device().arch);
}

} // namespace wb
