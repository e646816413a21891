// harness/tune/search.h: the search strategies of `wavebench tune`. Each proposes only allowed
// points and never one twice, down to the last allowed point; exhaustive walks them in order; the
// same seed makes the same search; failed points are never best; an unknown name or an empty space
// is refused clearly; and on synthetic spaces (a smooth bowl, plateaus with failing points, a
// deceptive funnel) replay shows each strategy finding the optimum, and those that follow the slope
// beating random search on the bowl. The replay table is printed.
#include <boost/test/unit_test.hpp>

#include "harness/tune/search.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

BOOST_AUTO_TEST_SUITE(tune_search_test)

namespace {

using namespace wb::tune;

/// `dims` dimensions of `n` values each: first, first * 2, first * 4, ...
space grid(size_t dims, size_t n, int64_t first = 1)
{
    space s;
    for (size_t i = 0; i < dims; ++i) {
        dimension d{"t" + std::to_string(i), {}};
        for (size_t v = 0; v < n; ++v) d.values.push_back(first << v);
        s.dims.push_back(d);
    }
    return s;
}

/// 256 points, about half allowed: values[0] * values[1] <= 1024 (values[1] from 8).
space constrained()
{
    space s = grid(3, 8);
    s.dims[1] = {"b", {8, 16, 32, 64, 128, 256, 512, 1024}};
    s.dims[2].values.resize(4);
    s.allowed = [dims = s.dims](const point& p) { return dims[0].values[p[0]] * dims[1].values[p[1]] <= 1024; };
    return s;
}

/// A smooth time over the space, failing where the sum of the indices is a multiple of 7.
outcome bumpy(const point& p)
{
    double t = 1;
    uint32_t sum = 0;
    for (size_t i = 0; i < p.size(); ++i) {
        t += (p[i] - 2.5 - i) * (p[i] - 2.5 - i) * 0.1;
        sum += p[i];
    }
    if (sum % 7 == 3) return std::nullopt;
    return t;
}

/// The points of a search, checking that each is allowed and new.
std::vector<point> visited(const std::string& name, const space& s, uint64_t budget, uint64_t seed)
{
    std::unique_ptr<strategy> st = make_strategy(name, s, seed);
    std::set<point> seen;
    std::vector<point> order;
    for (const step& e : search(*st, budget, bumpy)) {
        BOOST_TEST(s.admits(e.p), name << " proposed " << s.describe(e.p) << ", not allowed");
        BOOST_TEST(seen.insert(e.p).second, name << " proposed " << s.describe(e.p) << " twice");
        order.push_back(e.p);
    }
    return order;
}

} // namespace

BOOST_AUTO_TEST_CASE(every_strategy_proposes_only_new_allowed_points_until_none_is_left)
{
    const space s = constrained();
    const size_t allowed = s.enumerate().size();
    BOOST_TEST(allowed > 50u);
    BOOST_TEST(allowed < s.size());
    for (const std::string& name : strategy_names()) {
        BOOST_TEST_CONTEXT(name)
        {
            BOOST_TEST(visited(name, s, 1'000'000, 3).size() == allowed);
            std::unique_ptr<strategy> st = make_strategy(name, s, 3);
            BOOST_TEST(search(*st, 20, bumpy).size() == 20u);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_space_with_few_allowed_points_still_works)
{
    // 65536 points of which 20 are allowed (index sum 3): rejection sampling alone would not find them.
    space s = grid(4, 16);
    s.allowed = [](const point& p) { return p[0] + p[1] + p[2] + p[3] == 3; };
    for (const std::string& name : strategy_names()) BOOST_TEST(visited(name, s, 1000, 5).size() == 20u, name);
}

BOOST_AUTO_TEST_CASE(exhaustive_visits_every_allowed_point_once_in_order)
{
    const space s = constrained();
    BOOST_TEST(visited("exhaustive", s, 1'000'000, 0) == s.enumerate());
    BOOST_TEST(s.enumerate().front() == (point{0, 0, 0}));
    BOOST_TEST(s.enumerate().back() == (point{7, 0, 3}));
}

BOOST_AUTO_TEST_CASE(the_same_seed_gives_the_same_search_and_another_seed_another)
{
    const space s = constrained();
    for (const std::string& name : strategy_names()) {
        const std::vector<point> a = visited(name, s, 40, 7);
        BOOST_TEST((a == visited(name, s, 40, 7)), name << ": the same seed gave another search");
        if (name != "exhaustive") BOOST_TEST((a != visited(name, s, 40, 8)), name << ": seeds 7 and 8 gave one search");
    }
}

BOOST_AUTO_TEST_CASE(an_unknown_strategy_is_refused_with_the_known_names)
{
    const space s = grid(2, 4);
    BOOST_CHECK_EXCEPTION(make_strategy("simplex", s, 0), std::invalid_argument, [](const std::invalid_argument& e) {
        const std::string what = e.what();
        bool ok = what.find("simplex") != std::string::npos;
        for (const std::string& name : strategy_names()) ok = ok && what.find(name) != std::string::npos;
        return ok;
    });
    BOOST_TEST(strategy_names().size() == 6u);
    for (const std::string& name : strategy_names()) BOOST_TEST(strategy_help().find(name + " ") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_empty_space_gives_no_steps)
{
    space none = grid(3, 8);
    none.allowed = [](const point&) { return false; };
    space no_values = grid(2, 4);
    no_values.dims[1].values.clear();
    for (const std::string& name : strategy_names()) {
        BOOST_TEST(visited(name, none, 100, 1).empty(), name);
        BOOST_TEST(visited(name, no_values, 100, 1).empty(), name);
        BOOST_TEST(!make_strategy(name, none, 1)->ask(), name);
    }
}

BOOST_AUTO_TEST_CASE(a_space_without_tunables_has_one_point)
{
    for (const std::string& name : strategy_names()) BOOST_TEST(visited(name, space{}, 100, 1).size() == 1u, name);
}

BOOST_AUTO_TEST_CASE(a_space_too_large_is_not_enumerated)
{
    const space s = grid(8, 10);
    BOOST_CHECK_THROW(s.enumerate(), std::invalid_argument);
    BOOST_CHECK_THROW(make_strategy("exhaustive", s, 0), std::invalid_argument);
    BOOST_TEST(visited("random", s, 50, 0).size() == 50u);
}

BOOST_AUTO_TEST_CASE(failed_points_are_never_best_and_the_search_goes_on)
{
    // The points of index 0 in the first dimension would be fastest but fail, as do the first 10.
    const space s = grid(3, 8);
    for (const std::string& name : strategy_names()) {
        int calls = 0;
        auto evaluate = [&](const point& p) -> outcome {
            if (++calls <= 10 || p[0] == 0) return std::nullopt;
            return 1.0 + p[0] + 0.1 * p[1];
        };
        std::unique_ptr<strategy> st = make_strategy(name, s, 11);
        const std::vector<step> steps = search(*st, 200, evaluate);
        BOOST_TEST(steps.size() == 200u, name);
        std::optional<double> best;
        for (size_t i = 0; i < steps.size(); ++i) {
            if (steps[i].o && (!best || *steps[i].o < *best)) best = steps[i].o;
            BOOST_TEST((steps[i].best_so_far == best), name << " step " << i);
        }
        BOOST_TEST(!steps[9].best_so_far, name);
        BOOST_TEST((best && *best >= 2.0), name);
    }
}

BOOST_AUTO_TEST_CASE(tell_takes_only_the_point_last_asked)
{
    std::unique_ptr<strategy> st = make_strategy("hill", grid(2, 4), 0);
    const point p = *st->ask();
    BOOST_CHECK_THROW(st->ask(), std::logic_error);
    point other = p;
    other[0] = (other[0] + 1) % 4;
    BOOST_CHECK_THROW(st->tell(other, 1.0), std::logic_error);
    st->tell(p, 1.0);
    BOOST_CHECK_THROW(st->tell(p, 1.0), std::logic_error);
}

namespace {

/// A synthetic space: its points and every allowed point's outcome.
struct recorded_space {
    std::string name;
    space s;
    std::map<point, outcome> times;
};

recorded_space record(const std::string& name, const space& s, const std::function<outcome(const point&)>& time)
{
    recorded_space r{name, s, {}};
    for (const point& p : s.enumerate()) r.times[p] = time(p);
    return r;
}

/// 4 dimensions of 8 values: a smooth, tilted bowl.
recorded_space bowl()
{
    return record("bowl", grid(4, 8), [](const point& p) -> outcome {
        const double centre[] = {0.3, 0.7, 0.45, 0.6}, weight[] = {1, 2, 0.5, 1.5};
        double t = 1;
        for (size_t i = 0; i < 4; ++i) t += weight[i] * std::pow(p[i] / 7.0 - centre[i], 2);
        return t;
    });
}

/// 3 dimensions of 8 values: steps two indices wide around (2, 5, 3), whose centre fails, and a
/// failing point in about every ninth.
recorded_space plateaus()
{
    return record("plateaus", grid(3, 8), [](const point& p) -> outcome {
        const int d = std::abs(int(p[0]) - 2) + std::abs(int(p[1]) - 5) + std::abs(int(p[2]) - 3);
        if (d == 0 || (p[0] * 3 + p[1] * 5 + p[2] * 7) % 9 == 4) return std::nullopt;
        return 1 + 0.2 * (d / 2);
    });
}

/// 3 dimensions of 8 values: a slope down to (0, 0, 0) everywhere but in a narrow funnel around
/// (6, 5, 6), uphill, which holds the optimum.
recorded_space deceptive()
{
    return record("deceptive", grid(3, 8), [](const point& p) -> outcome {
        const int d = std::abs(int(p[0]) - 6) + std::abs(int(p[1]) - 5) + std::abs(int(p[2]) - 6);
        if (d <= 2) return 1 + 0.4 * d;
        return 2 + 0.1 * (p[0] + p[1] + p[2]);
    });
}

} // namespace

BOOST_AUTO_TEST_CASE(each_strategy_finds_the_optimum_of_synthetic_spaces)
{
    std::printf("replay: evaluations until within 95%% of the optimum (median of 20 seeds, budget 20%% of the space), "
                "share of seeds within the budget\n%-10s",
                "strategy");
    const std::vector<recorded_space> spaces = {bowl(), plateaus(), deceptive()};
    for (const recorded_space& r : spaces)
        std::printf(" %14s", (r.name + " (" + std::to_string(r.times.size()) + ")").c_str());
    std::printf("\n");
    std::map<std::string, std::vector<replay_stats>> table;
    for (const std::string& name : strategy_names()) {
        std::printf("%-10s", name.c_str());
        for (const recorded_space& r : spaces) {
            const uint64_t budget = r.times.size() / 5;
            const replay_stats st = replay(name, r.s, r.times, budget, 20, 0.95);
            std::printf(" %7.1f %5.0f%%", st.median_evaluations, 100 * st.share_reached);
            std::fflush(stdout);
            BOOST_TEST(st.space_size == r.times.size());
            table[name].push_back(st);
        }
        std::printf("\n");
    }
    for (size_t i = 0; i < spaces.size(); ++i) {
        double top = 0;
        for (const std::string& name : strategy_names()) {
            if (name == "exhaustive") continue;
            BOOST_TEST(table[name][i].share_reached > 0, name << " never reached the optimum of " << spaces[i].name);
            top = std::max(top, table[name][i].share_reached);
        }
        BOOST_TEST(top >= 0.5, "no strategy reached the optimum of " << spaces[i].name << " in half the seeds");
    }
    // On the smooth bowl, every strategy that follows the slope beats random search in the median.
    for (const char* name : {"hill", "annealing", "genetic", "bayes"})
        BOOST_TEST(table[name][0].median_evaluations < table["random"][0].median_evaluations, name);
}

BOOST_AUTO_TEST_CASE(replay_counts_evaluations_past_the_budget)
{
    // Ten points, the optimum last: exhaustive needs all ten; within a budget of two, no run gets there.
    const space s = grid(1, 10);
    std::map<point, outcome> times;
    for (uint32_t i = 0; i < 10; ++i) times[{i}] = 10.0 - i;
    const replay_stats st = replay("exhaustive", s, times, 2, 3, 1.0);
    BOOST_TEST(st.median_evaluations == 10.0);
    BOOST_TEST(st.share_reached == 0.0);
    // Where every point failed there is no optimum to reach: refused.
    std::map<point, outcome> none;
    for (uint32_t i = 0; i < 10; ++i) none[{i}] = std::nullopt;
    BOOST_CHECK_THROW(replay("random", s, none, 2, 3, 0.95), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
