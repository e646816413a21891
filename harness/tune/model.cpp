// The model-based strategy: a Gaussian process over the points' index coordinates models the log
// of the time, and the next point is the candidate of the largest expected improvement. Written
// here because no Debian package offers Bayesian optimisation over discrete spaces; Eigen does the
// linear algebra. README.md says more.
#include "harness/tune/strategies.h"

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <set>

namespace wb::tune::detail {

namespace {

/// A Gaussian process with a Matérn 5/2 kernel (unit signal variance, one length scale per
/// dimension) fitted to normalised targets.
class gp {
public:
    /// Fits targets `y` at rows `x`; false when the kernel matrix is not positive definite.
    bool fit(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const std::vector<double>& scales, double noise)
    {
        scaled_ = x;
        for (Eigen::Index k = 0; k < x.cols(); ++k) scaled_.col(k) /= scales[k];
        const Eigen::Index n = x.rows();
        Eigen::MatrixXd kxx(n, n);
        for (Eigen::Index i = 0; i < n; ++i) {
            kxx(i, i) = 1 + noise + 1e-8;
            for (Eigen::Index j = 0; j < i; ++j) kxx(i, j) = kxx(j, i) = kernel(scaled_.row(i), scaled_.row(j));
        }
        llt_.compute(kxx);
        if (llt_.info() != Eigen::Success) return false;
        alpha_ = llt_.solve(y);
        const Eigen::VectorXd diag = llt_.matrixLLT().diagonal();
        log_likelihood_ = -0.5 * y.dot(alpha_) - diag.array().log().sum();
        scales_ = scales;
        return true;
    }

    double log_likelihood() const { return log_likelihood_; }

    /// The mean and the standard deviation of the model at each row of `c`.
    void predict(const Eigen::MatrixXd& c, Eigen::VectorXd& mean, Eigen::VectorXd& sd) const
    {
        Eigen::MatrixXd z = c;
        for (Eigen::Index k = 0; k < c.cols(); ++k) z.col(k) /= scales_[k];
        Eigen::MatrixXd kxc(scaled_.rows(), c.rows());
        for (Eigen::Index j = 0; j < c.rows(); ++j)
            for (Eigen::Index i = 0; i < scaled_.rows(); ++i) kxc(i, j) = kernel(scaled_.row(i), z.row(j));
        mean = kxc.transpose() * alpha_;
        llt_.matrixL().solveInPlace(kxc);
        sd = (1 - kxc.colwise().squaredNorm().transpose().array()).max(1e-12).sqrt().matrix();
    }

private:
    template <class A, class B> static double kernel(const A& a, const B& b)
    {
        const double s = std::sqrt(5 * (a - b).squaredNorm());
        return (1 + s + s * s / 3) * std::exp(-s);
    }

    Eigen::MatrixXd scaled_;
    std::vector<double> scales_;
    Eigen::LLT<Eigen::MatrixXd> llt_;
    Eigen::VectorXd alpha_;
    double log_likelihood_ = 0;
};

/// The expected improvement below `best` of a normal with mean `mu` and deviation `sd`.
double expected_improvement(double best, double mu, double sd)
{
    const double gain = best - mu - 0.01; // a small margin against pure exploitation
    const double z = gain / sd;
    const double cdf = 0.5 * std::erfc(-z / std::sqrt(2.0));
    const double pdf = std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi);
    return gain * cdf + sd * pdf;
}

/// Bayesian optimisation: a few random points first, then at each step the unasked candidate of the
/// largest expected improvement under the Gaussian process of the best points told so far.
class bayes final : public searcher {
public:
    bayes(const space& s, uint64_t seed)
        : searcher(s, seed), initial_(std::clamp<size_t>(s.dims.size() + 2, 4, 10)), scales_(s.dims.size(), 0.4)
    {
    }

private:
    static constexpr size_t max_training = 200; // bounds the cubic cost of a fit
    static constexpr size_t max_all = 2048;     // at most this many fresh points: every one is a candidate
    static constexpr size_t random_candidates = 1000;

    std::optional<point> propose() override
    {
        // Every fifth point is random too: the model alone can be misled for long by a deceptive space.
        if (told_.size() < initial_ || successes_ < 2 || told_.size() % 5 == 4) return random_fresh();
        std::vector<point> cands = candidates();
        if (cands.empty()) return random_fresh();
        training();
        if (told_.size() >= next_tuning_) {
            tune_scales();
            next_tuning_ = told_.size() + std::max<size_t>(1, told_.size() / 5);
        }
        if (!model_.fit(x_, y_, scales_, noise_)) return cands.front();
        Eigen::MatrixXd c(cands.size(), s_.dims.size());
        for (size_t j = 0; j < cands.size(); ++j) c.row(j) = coordinates(cands[j]);
        Eigen::VectorXd mean, sd;
        model_.predict(c, mean, sd);
        const double best = y_.minCoeff();
        size_t pick = 0;
        double top = -1;
        for (size_t j = 0; j < cands.size(); ++j) {
            const double ei = expected_improvement(best, mean[j], sd[j]);
            if (ei > top) {
                top = ei;
                pick = j;
            }
        }
        return cands[pick];
    }

    void learn(const point&, double sc) override { successes_ += std::isfinite(sc); }

    Eigen::RowVectorXd coordinates(const point& p) const
    {
        Eigen::RowVectorXd r(p.size());
        for (size_t k = 0; k < p.size(); ++k) {
            const size_t n = s_.dims[k].values.size();
            r[k] = n > 1 ? static_cast<double>(p[k]) / (n - 1) : 0.0;
        }
        return r;
    }

    /// x_ and y_: the best max_training points told, log time normalised to mean 0 and deviation 1;
    /// failed points take the worst log time seen.
    void training()
    {
        double worst_log = -std::numeric_limits<double>::infinity();
        for (const auto& [p, sc] : told_)
            if (std::isfinite(sc)) worst_log = std::max(worst_log, std::log(std::max(sc, 1e-300)));
        std::vector<std::pair<double, const point*>> rows;
        for (const auto& [p, sc] : told_)
            rows.emplace_back(std::isfinite(sc) ? std::log(std::max(sc, 1e-300)) : worst_log, &p);
        std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        if (rows.size() > max_training) rows.resize(max_training);
        x_.resize(rows.size(), s_.dims.size());
        y_.resize(rows.size());
        for (size_t i = 0; i < rows.size(); ++i) {
            x_.row(i) = coordinates(*rows[i].second);
            y_[i] = rows[i].first;
        }
        const double mean = y_.mean();
        const double sd = std::sqrt((y_.array() - mean).square().mean());
        y_ = (y_.array() - mean) / (sd > 1e-12 ? sd : 1.0);
    }

    /// The length scales and the noise of the largest marginal likelihood: a grid of one scale for
    /// all dimensions, then each dimension's scale on its own.
    void tune_scales()
    {
        const double grid[] = {0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 5.0};
        double top = -std::numeric_limits<double>::infinity();
        auto consider = [&](const std::vector<double>& scales, double noise) {
            if (model_.fit(x_, y_, scales, noise) && model_.log_likelihood() > top) {
                top = model_.log_likelihood();
                scales_ = scales;
                noise_ = noise;
            }
        };
        for (double scale : grid)
            for (double noise : {1e-4, 1e-2, 1e-1}) consider(std::vector<double>(s_.dims.size(), scale), noise);
        for (size_t k = 0; k < s_.dims.size(); ++k) {
            for (double scale : grid) {
                std::vector<double> scales = scales_;
                scales[k] = scale;
                consider(scales, noise_);
            }
        }
    }

    /// Every fresh point where few are left; else random fresh points and the fresh points near the
    /// best ones told.
    std::vector<point> candidates()
    {
        const std::vector<point>* all = all_fresh();
        if (all && all->size() <= max_all) return *all;
        std::vector<point> out;
        std::set<point> seen;
        auto add = [&](point p) {
            if (fresh(p) && seen.insert(p).second) out.push_back(std::move(p));
        };
        for (const point& b : best_told(5)) {
            for (size_t i = 0; i < b.size(); ++i) {
                for (int step : {-2, -1, 1, 2}) {
                    std::optional<point> p = shifted(b, i, step);
                    if (!p) continue;
                    add(*p);
                    if (step != -1 && step != 1) continue;
                    // Diagonal neighbours too: one index away in two dimensions.
                    for (size_t j = i + 1; j < b.size(); ++j)
                        for (int step2 : {-1, 1})
                            if (std::optional<point> q = shifted(*p, j, step2)) add(*q);
                }
            }
        }
        const size_t near = out.size();
        for (size_t t = 0; t < 4 * random_candidates && out.size() < near + random_candidates; ++t) {
            if (all)
                add((*all)[rng_.below(all->size())]);
            else
                add(random_point());
        }
        if (out.empty())
            if (std::optional<point> p = random_fresh()) out.push_back(*p);
        return out;
    }

    /// `p` with index `i` moved by `step`, if still in range.
    std::optional<point> shifted(const point& p, size_t i, int step) const
    {
        const int64_t v = int64_t(p[i]) + step;
        if (v < 0 || v >= int64_t(s_.dims[i].values.size())) return std::nullopt;
        point q = p;
        q[i] = static_cast<uint32_t>(v);
        return q;
    }

    /// The `count` best points told (successful ones only), best first.
    std::vector<point> best_told(size_t count) const
    {
        std::vector<std::pair<double, const point*>> ok;
        for (const auto& [p, sc] : told_)
            if (std::isfinite(sc)) ok.emplace_back(sc, &p);
        std::stable_sort(ok.begin(), ok.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<point> out;
        for (size_t i = 0; i < ok.size() && i < count; ++i) out.push_back(*ok[i].second);
        return out;
    }

    const size_t initial_;
    size_t successes_ = 0;
    size_t next_tuning_ = 0;
    std::vector<double> scales_;
    double noise_ = 1e-2;
    Eigen::MatrixXd x_;
    Eigen::VectorXd y_;
    gp model_;
};

} // namespace

std::unique_ptr<strategy> make_bayes(const space& s, uint64_t seed) { return std::make_unique<bayes>(s, seed); }

} // namespace wb::tune::detail
