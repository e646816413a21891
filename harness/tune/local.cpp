// The strategies that move from point to point: hill climbing, simulated annealing and a genetic
// search. Failed points score +infinity, so each treats them as the worst there is.
#include "harness/tune/strategies.h"

#include <cmath>
#include <limits>

namespace wb::tune::detail {

namespace {

constexpr double worst = std::numeric_limits<double>::infinity();

/// Greedy local search: from a random fresh point, its neighbours in random order, moving to the first
/// better one; at a local optimum, a restart from another random fresh point. Neighbours told already
/// cost nothing: a better one is moved to at once.
class hill final : public searcher {
public:
    using searcher::searcher;

private:
    std::optional<point> propose() override
    {
        while (cur_) {
            if (queue_.empty()) {
                cur_.reset(); // a local optimum
                break;
            }
            point n = std::move(queue_.back());
            queue_.pop_back();
            if (const double* k = known(n)) {
                if (*k < cur_score_) move(n, *k);
            } else if (fresh(n)) {
                return n;
            }
        }
        return random_fresh();
    }

    void learn(const point& p, double sc) override
    {
        if (!cur_ || sc < cur_score_) move(p, sc);
    }

    void move(const point& p, double sc)
    {
        cur_ = p;
        cur_score_ = sc;
        queue_ = neighbours(p);
        rng_.shuffle(queue_);
    }

    std::optional<point> cur_;
    double cur_score_ = worst;
    std::vector<point> queue_; // neighbours of cur_ not tried yet
};

/// Simulated annealing: a move (one index in one dimension, at times a random value of one dimension)
/// taken when better, or when worse by a relative difference d with probability exp(-d / T). T cools
/// geometrically; once cold, the search reheats from the best point or from a random one. Where no
/// fresh move is left around the current point, it walks over told neighbours, then restarts hot.
class annealing final : public searcher {
public:
    using searcher::searcher;

private:
    static constexpr double hot = 0.05;   // a move 5% slower is taken with probability 1/e
    static constexpr double cold = 0.002; // reheat below this
    static constexpr double cooling = 0.97;
    static constexpr double jump = 0.15; // the share of moves that set one dimension to any value

    std::optional<point> propose() override
    {
        for (int walk = 0; cur_ && walk < 16; ++walk) {
            if (std::optional<point> p = fresh_move()) return p;
            // Nothing fresh nearby: a step to a told neighbour, by the same rule.
            std::vector<point> told;
            for (point& n : neighbours(*cur_))
                if (known(n)) told.push_back(std::move(n));
            if (told.empty()) break;
            const point& n = told[rng_.below(told.size())];
            if (accept(*known(n))) {
                cur_score_ = *known(n);
                cur_ = n;
            }
        }
        cur_.reset();
        temp_ = hot;
        return random_fresh();
    }

    std::optional<point> fresh_move()
    {
        if (!cur_->empty() && rng_.chance(jump)) {
            for (int t = 0; t < 8; ++t) {
                point p = *cur_;
                const size_t i = rng_.below(p.size());
                p[i] = static_cast<uint32_t>(rng_.below(s_.dims[i].values.size()));
                if (fresh(p)) return p;
            }
        }
        std::vector<point> moves;
        for (point& n : neighbours(*cur_))
            if (fresh(n)) moves.push_back(std::move(n));
        if (moves.empty()) return std::nullopt;
        return moves[rng_.below(moves.size())];
    }

    bool accept(double sc)
    {
        if (sc <= cur_score_) return true;
        if (std::isinf(sc) || cur_score_ <= 0) return false;
        const double d = sc / cur_score_ - 1;
        return rng_.chance(std::exp(-d / temp_));
    }

    void learn(const point& p, double sc) override
    {
        if (sc < best_score_) {
            best_ = p;
            best_score_ = sc;
        }
        if (!cur_ || accept(sc)) {
            cur_ = p;
            cur_score_ = sc;
        }
        temp_ *= cooling;
        if (temp_ < cold) {
            // Reheat, half the time from the best point, else from a random one.
            temp_ = hot;
            cur_.reset();
            if (best_ && rng_.chance(0.5)) {
                cur_ = best_;
                cur_score_ = best_score_;
            }
        }
    }

    std::optional<point> cur_, best_;
    double cur_score_ = worst, best_score_ = worst;
    double temp_ = hot;
};

/// A steady-state genetic search: a population of the best points told (random ones first); each
/// child takes each index from one of two parents chosen by tournaments of three, and mutates; a
/// child better than the worst member replaces it. Children asked before are drawn again; after 32
/// tries, a random fresh point comes in instead.
class genetic final : public searcher {
public:
    using searcher::searcher;

private:
    static constexpr size_t population = 12;

    struct member {
        point p;
        double score;
    };

    std::optional<point> propose() override
    {
        if (pop_.size() < population) return random_fresh();
        for (int t = 0; t < 32; ++t) {
            point c = child();
            if (fresh(c)) return c;
        }
        return random_fresh();
    }

    const member& tournament()
    {
        const member* best = &pop_[rng_.below(pop_.size())];
        for (int i = 0; i < 2; ++i) {
            const member& m = pop_[rng_.below(pop_.size())];
            if (m.score < best->score) best = &m;
        }
        return *best;
    }

    point child()
    {
        const point& a = tournament().p;
        const point& b = tournament().p;
        point c(a.size());
        for (size_t i = 0; i < c.size(); ++i) c[i] = rng_.chance(0.5) ? a[i] : b[i];
        if (c.empty()) return c;
        // Each index mutates with probability 1/dimensions, at least one always.
        bool mutated = false;
        for (size_t i = 0; i < c.size(); ++i)
            if (rng_.chance(1.0 / c.size())) {
                mutate(c, i);
                mutated = true;
            }
        if (!mutated) mutate(c, rng_.below(c.size()));
        return c;
    }

    void mutate(point& c, size_t i)
    {
        const uint32_t n = static_cast<uint32_t>(s_.dims[i].values.size());
        if (n < 2) return;
        if (rng_.chance(0.3)) {
            c[i] = static_cast<uint32_t>(rng_.below(n));
        } else {
            const bool up = c[i] == 0 || (c[i] + 1 < n && rng_.chance(0.5));
            c[i] = up ? c[i] + 1 : c[i] - 1;
        }
    }

    void learn(const point& p, double sc) override
    {
        if (pop_.size() < population) {
            pop_.push_back({p, sc});
            return;
        }
        size_t w = 0;
        for (size_t i = 1; i < pop_.size(); ++i)
            if (pop_[i].score > pop_[w].score) w = i;
        if (sc < pop_[w].score) pop_[w] = {p, sc};
    }

    std::vector<member> pop_;
};

} // namespace

std::unique_ptr<strategy> make_hill(const space& s, uint64_t seed) { return std::make_unique<hill>(s, seed); }

std::unique_ptr<strategy> make_annealing(const space& s, uint64_t seed) { return std::make_unique<annealing>(s, seed); }

std::unique_ptr<strategy> make_genetic(const space& s, uint64_t seed) { return std::make_unique<genetic>(s, seed); }

} // namespace wb::tune::detail
