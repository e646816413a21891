// `wavebench tune`'s search of one problem: candidates asked of a strategy (tune/search.h), each
// measured and verified through the same executor as `run` (a worker: a crashing candidate costs
// only its own result) or taken from the candidate cache, and the best and the plugin's default
// measured again with the suite's full settings and compared as `compare` compares two runs.
#pragma once

#include "harness/measure/runner.h"
#include "harness/tune/candidates.h"
#include "harness/tune/problems.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>

namespace wb {

struct tune_options {
    std::string strategy = "bayes";
    uint64_t budget = 0;            // evaluations per problem; 0: default_budget
    double time_s = 0;              // seconds of search per problem; 0: no limit
    uint64_t seed = 1;              // the strategy's random choices
    int candidate_repetitions = 5;  // samples of a candidate (the final two get the suite's)
    std::string objective = "time"; // or "energy": the lowest joules per run (--energy's figure)
};

/// A quarter of the allowed points, at least 1 and at most 100 (`--budget` says otherwise).
uint64_t default_budget(uint64_t allowed_points);

/// What every problem of a tune shares.
struct tune_env {
    runner& measure;        // one device: its executor and ceilings
    run_settings settings;  // the suite's with the command line's: the final measurements'
    std::string device_key; // the platform, device and wavefront width: part of the cache key
    candidate_cache& cache;
    std::ostream& out;                             // the console
    nlohmann::json header;                         // the results document without results: where the comparisons ran
    nlohmann::json rows = nlohmann::json::array(); // every result so far, as the document holds them
};

/// The allowed points of the problem's space (0 when none is), or none where it is too large to count.
std::optional<uint64_t> allowed_points(const tune_problem& pb);

/// Searches problem `pb` (index `k` of the tune) and measures its best and its default again; the
/// results go to env.rows (each with a `tune` object: problem, role, evaluation), the problem's
/// search is returned (the document's tune.problems[]).
nlohmann::json tune_problem_search(const tune_problem& pb, size_t k, const tune_options& o, tune_env& env);

} // namespace wb
