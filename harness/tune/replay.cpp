// `wavebench tune --replay` (tune/replay.h).
#include "harness/tune/replay.h"

#include "harness/common/json.h"
#include "harness/tune/search.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>
#include <set>
#include <stdexcept>

namespace wb {

namespace {

/// A recorded problem: its space (only the recorded points allowed) and their outcomes.
struct recorded_space {
    tune::space space;
    std::map<tune::point, tune::outcome> outcomes;
};

recorded_space recorded_of(const nlohmann::json& pb)
{
    recorded_space r;
    const bool energy = pb.value("objective", "time") == "energy"; // the value its search minimised
    for (const auto& d : pb.at("space")) r.space.dims.push_back({d.at("name"), d.at("values")});
    for (const auto& s : pb.at("steps")) {
        tune::point p = s.at("point").get<tune::point>();
        if (p.size() != r.space.dims.size()) throw std::invalid_argument("a step's point does not fit its space");
        for (size_t k = 0; k < p.size(); ++k)
            if (p[k] >= r.space.dims[k].values.size())
                throw std::invalid_argument("a step's point is outside its space");
        const nlohmann::json& t = s.at(energy ? "joules_per_run" : "time_ms");
        r.outcomes[p] =
            s.value("status", "") == "verified" && t.is_number() ? tune::outcome(t.get<double>()) : std::nullopt;
    }
    auto known = std::make_shared<std::set<tune::point>>();
    for (const auto& [p, o] : r.outcomes) known->insert(p);
    r.space.allowed = [known](const tune::point& p) { return known->count(p) > 0; };
    return r;
}

} // namespace

nlohmann::json replay_tune(const nlohmann::json& doc, const replay_options& o, std::ostream& os)
{
    if (!doc.is_object() || !doc.contains("tune") || !doc["tune"].contains("problems"))
        throw std::invalid_argument("not the results of `wavebench tune` (no tune.problems): replay a tune's results");
    const std::vector<std::string> names = o.strategies.empty() ? tune::strategy_names() : o.strategies;
    nlohmann::json out = {{"seeds", o.seeds},
                          {"budget_share", o.budget_share},
                          {"target", o.target},
                          {"problems", nlohmann::json::array()}};
    for (const auto& pb : doc["tune"]["problems"]) {
        const std::string label = pb.value("family", "?") + "/" + pb.value("variant", "?") + " " +
                                  params_text(pb.value("params", nlohmann::json::object()), {});
        const recorded_space r = recorded_of(pb);
        const uint64_t points = r.outcomes.size();
        // Within the share means at most that many evaluations: 20% of 17 points is 3.
        const uint64_t budget = std::max<uint64_t>(1, uint64_t(std::floor(o.budget_share * double(points) + 1e-9)));
        os << label << ": " << points << " points recorded"
           << (points < r.space.size() ? " (of " + std::to_string(r.space.size()) +
                                             " in its cartesian product: the others were not allowed or not measured)"
                                       : "")
           << ", budget " << budget << ", " << o.seeds << " seeds\n";
        os << "  strategy      median evaluations to " << int(std::lround(o.target * 100))
           << "%   reached within budget\n";
        nlohmann::json rows = nlohmann::json::array();
        for (const std::string& n : names) {
            const tune::replay_stats st = tune::replay(n, r.space, r.outcomes, budget, o.seeds, o.target);
            char line[128];
            if (std::isfinite(st.median_evaluations))
                std::snprintf(line, sizeof line, "  %-12s  %10.1f (%5.1f%% of the space)   %5.0f%%\n", n.c_str(),
                              st.median_evaluations, 100 * st.median_evaluations / double(points),
                              100 * st.share_reached);
            else
                std::snprintf(line, sizeof line, "  %-12s  %10s (most runs never did)     %5.0f%%\n", n.c_str(),
                              "never", 100 * st.share_reached);
            os << line;
            rows.push_back({{"strategy", n},
                            {"median_evaluations",
                             std::isfinite(st.median_evaluations) ? nlohmann::json(st.median_evaluations) : nullptr},
                            {"share_reached", st.share_reached}});
        }
        out["problems"].push_back({{"problem", label}, {"points", points}, {"budget", budget}, {"strategies", rows}});
    }
    return out;
}

} // namespace wb
