// `wavebench tune --replay`: the strategies benchmarked on spaces a tune measured in full (an
// exhaustive tune's results), with no device: every strategy's search replayed over the recorded
// outcomes for many seeds, deterministically.
#pragma once

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace wb {

struct replay_options {
    std::vector<std::string> strategies; // empty: every strategy
    int seeds = 20;
    double budget_share = 0.2; // each replay's budget: this share of the recorded points
    double target = 0.95;      // reached: a best time within this of the optimum's performance
};

/// Replays the problems of tune results document `doc` (its `tune.problems`; each problem's space is
/// the points it recorded, the outcomes those it measured) and prints a table per problem on `os`.
/// Returns the replay as JSON. Throws std::invalid_argument for a document with no tune in it, or
/// a problem with no verified point.
nlohmann::json replay_tune(const nlohmann::json& doc, const replay_options& o, std::ostream& os);

} // namespace wb
