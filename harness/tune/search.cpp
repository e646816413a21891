// The space, the shared bookkeeping of the strategies, the exhaustive and random strategies, the
// search loop and its replay over recorded spaces. The local strategies are in local.cpp, the
// model-based one in model.cpp.
#include "harness/tune/search.h"
#include "harness/tune/strategies.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

namespace wb::tune {

uint64_t space::size() const
{
    uint64_t n = 1;
    for (const dimension& d : dims) {
        const uint64_t k = d.values.size();
        if (k == 0) return 0;
        if (n > std::numeric_limits<uint64_t>::max() / k)
            n = std::numeric_limits<uint64_t>::max();
        else
            n *= k;
    }
    return n;
}

bool space::admits(const point& p) const
{
    if (p.size() != dims.size()) return false;
    for (size_t i = 0; i < p.size(); ++i)
        if (p[i] >= dims[i].values.size()) return false;
    return !allowed || allowed(p);
}

std::vector<point> space::enumerate() const
{
    const uint64_t n = size();
    if (n > max_enumerated)
        throw std::invalid_argument("the space has " + std::to_string(n) + " points, more than the " +
                                    std::to_string(max_enumerated) +
                                    " that can be enumerated: give the tunables fewer values or use another strategy");
    std::vector<point> all;
    if (n == 0) return all;
    point p(dims.size(), 0);
    for (;;) {
        if (!allowed || allowed(p)) all.push_back(p);
        // The last dimension turns fastest: lexicographic order.
        size_t i = dims.size();
        while (i > 0 && ++p[i - 1] == dims[i - 1].values.size()) p[--i] = 0;
        if (i == 0) return all;
    }
}

std::string space::describe(const point& p) const
{
    std::string text;
    for (size_t i = 0; i < p.size() && i < dims.size(); ++i) {
        if (i > 0) text += ' ';
        text += dims[i].name + '=';
        text += p[i] < dims[i].values.size() ? std::to_string(dims[i].values[p[i]]) : "?";
    }
    return text;
}

namespace detail {

rng::rng(uint64_t seed)
{
    // splitmix64 of the seed, so that nearby seeds start far apart.
    uint64_t z = seed + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    gen_.seed(z ^ (z >> 31));
}

uint64_t rng::below(uint64_t n)
{
    // Reject the lowest 2^64 mod n values so that every remainder is equally likely.
    const uint64_t threshold = (0 - n) % n;
    for (;;) {
        const uint64_t x = gen_();
        if (x >= threshold) return x % n;
    }
}

double score(const outcome& o) { return o && std::isfinite(*o) ? *o : std::numeric_limits<double>::infinity(); }

searcher::searcher(const space& s, uint64_t seed) : s_(s), rng_(seed) {}

std::optional<point> searcher::ask()
{
    if (pending_) throw std::logic_error("tune: ask() before the outcome of the point last asked was told");
    std::optional<point> p = propose();
    if (!p) return p;
    if (!fresh(*p)) throw std::logic_error("tune: a strategy proposed a point asked before or not allowed");
    asked_.insert(*p);
    pending_ = p;
    return p;
}

void searcher::tell(const point& p, outcome o)
{
    if (!pending_ || *pending_ != p) throw std::logic_error("tune: tell() of a point other than the one last asked");
    pending_.reset();
    const double sc = score(o);
    told_[p] = sc;
    learn(p, sc);
}

const double* searcher::known(const point& p) const
{
    auto it = told_.find(p);
    return it == told_.end() ? nullptr : &it->second;
}

point searcher::random_point()
{
    point p(s_.dims.size());
    for (size_t i = 0; i < p.size(); ++i) p[i] = static_cast<uint32_t>(rng_.below(s_.dims[i].values.size()));
    return p;
}

bool searcher::build_pool()
{
    if (s_.size() > pool_limit) return false;
    if (!pooled_) pool_ = s_.enumerate();
    pooled_ = true;
    return true;
}

std::optional<point> searcher::random_fresh()
{
    if (s_.size() == 0) return std::nullopt;
    for (int i = 0; i < 256; ++i) {
        point p = random_point();
        if (fresh(p)) return p;
    }
    if (build_pool()) {
        while (!pool_.empty()) {
            const size_t i = rng_.below(pool_.size());
            if (!asked_.count(pool_[i])) return pool_[i];
            pool_[i] = std::move(pool_.back());
            pool_.pop_back();
        }
        return std::nullopt;
    }
    // Too large to enumerate: a long last try, for spaces where few points are allowed.
    for (int i = 0; i < 65536; ++i) {
        point p = random_point();
        if (fresh(p)) return p;
    }
    return std::nullopt;
}

const std::vector<point>* searcher::all_fresh()
{
    if (!build_pool()) return nullptr;
    std::erase_if(pool_, [&](const point& p) { return asked_.count(p) > 0; });
    return &pool_;
}

std::vector<point> searcher::neighbours(const point& p) const
{
    std::vector<point> out;
    for (size_t i = 0; i < p.size(); ++i) {
        for (int step : {-1, 1}) {
            if ((step < 0 && p[i] == 0) || (step > 0 && p[i] + 1 >= s_.dims[i].values.size())) continue;
            point q = p;
            q[i] += step;
            if (s_.admits(q)) out.push_back(std::move(q));
        }
    }
    return out;
}

namespace {

/// Every allowed point in lexicographic order, walked like an odometer (nothing stored).
class exhaustive final : public searcher {
public:
    exhaustive(const space& s, uint64_t seed) : searcher(s, seed)
    {
        if (s.size() > max_enumerated)
            throw std::invalid_argument("exhaustive search over " + std::to_string(s.size()) + " points (more than " +
                                        std::to_string(max_enumerated) +
                                        "): give the tunables fewer values or use another strategy");
    }

private:
    std::optional<point> propose() override
    {
        if (done_ || s_.size() == 0) return std::nullopt;
        for (;;) {
            if (!cur_) {
                cur_ = point(s_.dims.size(), 0);
            } else {
                size_t i = s_.dims.size();
                while (i > 0 && ++(*cur_)[i - 1] == s_.dims[i - 1].values.size()) (*cur_)[--i] = 0;
                if (i == 0) {
                    done_ = true;
                    return std::nullopt;
                }
            }
            if (fresh(*cur_)) return cur_;
        }
    }
    void learn(const point&, double) override {}

    std::optional<point> cur_;
    bool done_ = false;
};

/// Uniformly random fresh points.
class random_search final : public searcher {
public:
    using searcher::searcher;

private:
    std::optional<point> propose() override { return random_fresh(); }
    void learn(const point&, double) override {}
};

struct entry {
    const char* name;
    std::unique_ptr<strategy> (*make)(const space&, uint64_t);
    const char* help;
};

const entry strategies[] = {
    {"exhaustive", make_exhaustive, "every allowed point in lexicographic order (spaces up to 10^7 points)"},
    {"random", make_random, "uniformly random points, never one twice"},
    {"hill", make_hill, "greedy local search: first better neighbour (one index away), random restarts"},
    {"annealing", make_annealing, "simulated annealing over neighbour moves, reheated when it cools or is stuck"},
    {"genetic", make_genetic, "steady-state genetic search: population 12, tournaments, uniform crossover, mutation"},
    {"bayes", make_bayes, "Gaussian-process model of log time, next point by expected improvement"},
};

} // namespace

std::unique_ptr<strategy> make_exhaustive(const space& s, uint64_t seed)
{
    return std::make_unique<exhaustive>(s, seed);
}

std::unique_ptr<strategy> make_random(const space& s, uint64_t seed)
{
    return std::make_unique<random_search>(s, seed);
}

} // namespace detail

std::unique_ptr<strategy> make_strategy(const std::string& name, const space& s, uint64_t seed)
{
    for (const detail::entry& e : detail::strategies)
        if (name == e.name) return e.make(s, seed);
    std::string known;
    for (const std::string& n : strategy_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown search strategy '" + name + "' (known: " + known + ")");
}

std::vector<std::string> strategy_names()
{
    std::vector<std::string> names;
    for (const detail::entry& e : detail::strategies) names.emplace_back(e.name);
    return names;
}

std::string strategy_help()
{
    std::ostringstream out;
    for (const detail::entry& e : detail::strategies) {
        std::string name = e.name;
        name.resize(12, ' ');
        out << name << e.help << '\n';
    }
    return out.str();
}

std::vector<step> search(strategy& st, uint64_t budget, const std::function<outcome(const point&)>& evaluate)
{
    std::vector<step> steps;
    std::set<point> seen;
    std::optional<double> best;
    for (uint64_t i = 0; i < budget; ++i) {
        std::optional<point> p = st.ask();
        if (!p) break;
        if (!seen.insert(*p).second) throw std::logic_error("tune: the strategy asked a point twice");
        outcome o = evaluate(*p);
        if (o && !std::isfinite(*o)) o.reset();
        st.tell(*p, o);
        if (o && (!best || *o < *best)) best = o;
        steps.push_back({std::move(*p), o, best});
    }
    return steps;
}

replay_stats replay(const std::string& name, const space& s, const std::map<point, outcome>& recorded, uint64_t budget,
                    int seeds, double target)
{
    if (!(target > 0 && target <= 1)) throw std::invalid_argument("replay: the target must be in (0, 1]");
    if (seeds < 1) throw std::invalid_argument("replay: at least one seed");
    double optimum = std::numeric_limits<double>::infinity();
    for (const auto& [p, o] : recorded)
        if (s.admits(p)) optimum = std::min(optimum, detail::score(o));
    if (!std::isfinite(optimum))
        throw std::invalid_argument("replay: no allowed point of the recorded space succeeded");
    const double threshold = optimum / target;

    // Each run goes on past the budget until it reaches the target or has asked every point: the
    // median is of what the runs needed, the share of those within the budget.
    const uint64_t size = s.enumerate().size();
    std::vector<double> needed;
    int reached = 0;
    for (int seed = 0; seed < seeds; ++seed) {
        std::unique_ptr<strategy> st = make_strategy(name, s, static_cast<uint64_t>(seed));
        uint64_t n = 0;
        bool hit = false;
        while (!hit && n < size) {
            std::optional<point> p = st->ask();
            if (!p) break;
            ++n;
            auto it = recorded.find(*p);
            const outcome o = it == recorded.end() ? std::nullopt : it->second;
            st->tell(*p, o);
            hit = detail::score(o) <= threshold;
        }
        needed.push_back(hit ? static_cast<double>(n) : std::numeric_limits<double>::infinity());
        reached += hit && n <= budget;
    }
    std::sort(needed.begin(), needed.end());
    const size_t m = needed.size();
    const double median = m % 2 ? needed[m / 2] : (needed[m / 2 - 1] + needed[m / 2]) / 2;
    return {median, static_cast<double>(reached) / seeds, size};
}

} // namespace wb::tune
