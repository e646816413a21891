// The search strategies of `wavebench tune`: they pick the points of a space of tunables (integers,
// each with an ordered list of candidate values) to evaluate, looking for the lowest kernel time
// within a budget of evaluations. Pure C++, independent of the rest of the harness; README.md in
// this folder describes each strategy.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wb::tune {

/// One tunable's candidate values, in ascending order (neighbours are adjacent indices).
struct dimension {
    std::string name;
    std::vector<int64_t> values;
};

/// A point of the space: an index into each dimension's values.
using point = std::vector<uint32_t>;

/// The most points space::enumerate (and so the exhaustive strategy) takes on.
inline constexpr uint64_t max_enumerated = 10'000'000;

/// The space: dimensions and a predicate of the points allowed (constraints between tunables). Every
/// strategy proposes only allowed points, and never the same point twice.
struct space {
    std::vector<dimension> dims;
    std::function<bool(const point&)> allowed; // null: every point

    /// The product of the dimensions' sizes (not only the allowed points), saturated at UINT64_MAX.
    uint64_t size() const;
    /// Whether `p` has an index in range for each dimension and is allowed.
    bool admits(const point& p) const;
    /// Every allowed point, in lexicographic order. Throws std::invalid_argument when size() is
    /// above max_enumerated.
    std::vector<point> enumerate() const;
    /// The values `p` stands for, as "name=value name=value" (for messages and logs).
    std::string describe(const point& p) const;
};

/// The outcome of evaluating a point: its time (lower is better), or none when it failed (failed
/// verification, crashed, timed out). A failed point is never best, and the search goes on. A time
/// that is not finite counts as failed.
using outcome = std::optional<double>;

class strategy {
public:
    virtual ~strategy() = default;
    /// The next point to evaluate; none when the strategy has nothing left (exhaustive at the end,
    /// or every allowed point asked).
    virtual std::optional<point> ask() = 0;
    /// The outcome of the point last asked. Throws std::logic_error for any other point.
    virtual void tell(const point& p, outcome o) = 0;
};

/// The strategy `name` ("exhaustive", "random", "hill", "annealing", "genetic", "bayes") over `s`
/// (copied), its random choices drawn from `seed`. Throws std::invalid_argument for an unknown name
/// (the message lists the known ones) and for exhaustive over a space above max_enumerated points.
std::unique_ptr<strategy> make_strategy(const std::string& name, const space& s, uint64_t seed);

/// The names make_strategy knows, in the order of strategy_help.
std::vector<std::string> strategy_names();

/// One line per strategy, "name  what it does", for --help.
std::string strategy_help();

/// One evaluation of a search: the point, its outcome, and the best time so far (none while every
/// outcome so far failed).
struct step {
    point p;
    outcome o;
    std::optional<double> best_so_far;
};

/// Asks and tells `st` until `budget` evaluations or the strategy ends, with `evaluate` giving each
/// outcome. Empty when the space has no allowed point. A point asked twice is a strategy bug:
/// throws std::logic_error.
std::vector<step> search(strategy& st, uint64_t budget, const std::function<outcome(const point&)>& evaluate);

/// What replay found: the median of the evaluations the runs needed, each run going on past the
/// budget until it reaches the target (infinite where a run ended without reaching it), the share of
/// runs that reached the target within the budget, and the number of allowed points.
struct replay_stats {
    double median_evaluations;
    double share_reached;
    uint64_t space_size;
};

/// Replays strategy `name` over a recorded space (point -> outcome; a point missing from it counts as
/// failed) with seeds 0 to `seeds` - 1: for each run, the evaluations it needed until its best time
/// was within `target` of the optimum (time <= optimum / target, e.g. target 0.95). Throws
/// std::invalid_argument when no allowed point of `recorded` succeeded, or for a target outside (0, 1].
replay_stats replay(const std::string& name, const space& s, const std::map<point, outcome>& recorded, uint64_t budget,
                    int seeds, double target);

} // namespace wb::tune
