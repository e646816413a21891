// An A/B run's results compared as two runs are (report/compare.h): BASE the base build's results,
// NEW the change's, their samples paired by position.
#include "harness/report/compare.h"

#include "harness/common/files.h"

#include <stdexcept>

namespace wb {

using json = nlohmann::json;

json compare_ab(const run_input& run, compare_options o)
{
    const results_reader rd{run.label};
    const json& ab = rd.object(run.doc, "ab", "");
    if (!ab.is_object())
        throw std::invalid_argument(shown(run.label, 200) +
                                    " is no A/B run (it has no 'ab': wavebench run --baseline-plugins DIR makes one)");
    json base_results = json::array();
    for (const json& r : rd.results(run.doc)) {
        const json& base = rd.object(rd.object(r, "ab", "results"), "base", "results' ab");
        if (base.is_object()) base_results.push_back(base);
    }
    const json& missing = rd.field(ab, "missing");
    if (!missing.is_null() && !missing.is_array()) rd.fail("ab", "'missing' is not an array");
    for (const json& m : missing.is_array() ? missing : json::array()) base_results.push_back(m);
    run_input base{run.label + ", base build", run.doc, run.id};
    base.doc["results"] = std::move(base_results);
    o.paired = true;
    json cmp = compare_runs(base, run, o);
    cmp["ab"] = {{"baseline_plugins", rd.text(ab, "baseline_plugins", "ab")}};
    return cmp;
}

} // namespace wb
