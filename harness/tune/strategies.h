// Internals of the search strategies (search.h): the random numbers, which must be the same under
// every standard library, and the bookkeeping every strategy shares (what it asked, what it was
// told, fresh random points, neighbours). Only harness/tune's own files include it.
#pragma once

#include "harness/tune/search.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <vector>

namespace wb::tune::detail {

/// Random numbers from std::mt19937_64, whose sequence the standard fixes. The standard's
/// distributions (and std::shuffle) differ between libraries, so the helpers here are our own.
class rng {
public:
    explicit rng(uint64_t seed);
    uint64_t next() { return gen_(); }
    /// Uniform in [0, n), n > 0, without modulo bias.
    uint64_t below(uint64_t n);
    /// Uniform in [0, 1), 53 bits.
    double real() { return static_cast<double>(gen_() >> 11) * 0x1.0p-53; }
    bool chance(double p) { return real() < p; }
    template <class T> void shuffle(std::vector<T>& v)
    {
        for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
    }

private:
    std::mt19937_64 gen_;
};

/// What strategies compare: the time of a successful outcome, +infinity for a failed one.
double score(const outcome& o);

/// The base of every strategy: it checks that tell matches ask, remembers every point asked and
/// every score told, and finds fresh points (allowed and never asked).
class searcher : public strategy {
public:
    searcher(const space& s, uint64_t seed);
    std::optional<point> ask() final;
    void tell(const point& p, outcome o) final;

protected:
    /// The next point: fresh, or none when the strategy is done.
    virtual std::optional<point> propose() = 0;
    /// The score of `p`, the point last proposed.
    virtual void learn(const point& p, double score) = 0;

    bool fresh(const point& p) const { return !asked_.count(p) && s_.admits(p); }
    /// The score of a point told already, or null.
    const double* known(const point& p) const;
    /// A uniformly random point, whether allowed or not (the space is not empty).
    point random_point();
    /// A random fresh point: rejection sampling, then a draw from the enumerated allowed points
    /// where the space is small enough. None when none is left (or none was found in a huge space).
    std::optional<point> random_fresh();
    /// Every fresh point, where the space is small enough to enumerate (pool_limit); else null. Valid
    /// until the next call of random_fresh or all_fresh.
    const std::vector<point>* all_fresh();
    /// The allowed points one index away from `p` in one dimension.
    std::vector<point> neighbours(const point& p) const;

    /// The most points of a space that the strategies enumerate as a fallback.
    static constexpr uint64_t pool_limit = uint64_t(1) << 18;

    space s_;
    rng rng_;
    std::set<point> asked_;
    std::map<point, double> told_;

private:
    bool build_pool();

    std::optional<point> pending_;
    bool pooled_ = false;
    std::vector<point> pool_; // allowed points, some maybe asked since (removed lazily)
};

std::unique_ptr<strategy> make_exhaustive(const space& s, uint64_t seed);
std::unique_ptr<strategy> make_random(const space& s, uint64_t seed);
std::unique_ptr<strategy> make_hill(const space& s, uint64_t seed);
std::unique_ptr<strategy> make_annealing(const space& s, uint64_t seed);
std::unique_ptr<strategy> make_genetic(const space& s, uint64_t seed);
std::unique_ptr<strategy> make_bayes(const space& s, uint64_t seed);

} // namespace wb::tune::detail
