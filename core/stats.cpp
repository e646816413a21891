#include "core/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace wb {

summary summarize(std::vector<double> x)
{
    summary s;
    s.samples = x.size();
    if (x.empty()) return s;
    std::sort(x.begin(), x.end());
    const size_t n = x.size();
    s.min = x.front();
    s.max = x.back();
    s.median = n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
    double sum = 0;
    for (double v : x) sum += v;
    s.mean = sum / double(n);
    if (n > 1 && s.mean != 0) {
        double ss = 0;
        for (double v : x) ss += (v - s.mean) * (v - s.mean);
        s.rel_stddev = std::sqrt(ss / double(n - 1)) / s.mean;
    }
    return s;
}

} // namespace wb

namespace wb {

namespace {

/// Ranks 1..N of the pooled samples, ties given their mean rank; also sum(t^3 - t) over tie groups.
std::vector<double> pooled_ranks(const std::vector<double>& all, double& tie_sum)
{
    std::vector<size_t> order(all.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return all[a] < all[b]; });
    std::vector<double> rank(all.size());
    tie_sum = 0;
    for (size_t i = 0; i < order.size();) {
        size_t j = i;
        while (j < order.size() && all[order[j]] == all[order[i]]) ++j;
        const double t = double(j - i), mid = 0.5 * double(i + 1 + j); // ranks i+1..j
        for (size_t k = i; k < j; ++k) rank[order[k]] = mid;
        tie_sum += t * t * t - t;
        i = j;
    }
    return rank;
}

/// P(U <= u) for U of samples of sizes m and n without ties. The largest of the i + j values is
/// one of the i (probability i / (i + j)), adding j pairs, or one of the j: a recurrence over
/// probabilities, which stay positive and exact enough (O(m n mn): small samples only).
double exact_cdf(size_t m, size_t n, double u)
{
    std::vector<std::vector<double>> f(n + 1, std::vector<double>(m * n + 1, 0)); // f[j]: sizes (i, j)
    for (auto& row : f) row[0] = 1;                                               // i = 0
    for (size_t i = 1; i <= m; ++i)
        for (size_t j = 1; j <= n; ++j) { // f[j] still holds (i - 1, j); f[j - 1] already (i, j - 1)
            const double top_x = double(i) / double(i + j);
            for (size_t k = i * j + 1; k-- > 0;)
                f[j][k] = top_x * (k >= j ? f[j][k - j] : 0) + (1 - top_x) * f[j - 1][k];
        }
    double below = 0;
    for (size_t k = 0; k <= m * n && double(k) <= u; ++k) below += f[n][k];
    return below;
}

} // namespace

rank_test mann_whitney(const std::vector<double>& x, const std::vector<double>& y)
{
    rank_test t;
    const size_t n1 = x.size(), n2 = y.size();
    if (n1 == 0 || n2 == 0) return t;
    std::vector<double> all = x;
    all.insert(all.end(), y.begin(), y.end());
    double tie_sum = 0;
    const std::vector<double> rank = pooled_ranks(all, tie_sum);
    double ry = 0;
    for (size_t j = 0; j < n2; ++j) ry += rank[n1 + j];
    t.u = ry - double(n2) * double(n2 + 1) / 2;
    const double pairs = double(n1) * double(n2), mean = pairs / 2;
    if (tie_sum == 0 && pairs <= 2500) { // exact: the smaller tail, doubled
        t.exact = true;
        const double lower = std::min(t.u, pairs - t.u);
        t.p = std::min(1.0, 2 * exact_cdf(n1, n2, lower));
        return t;
    }
    const double N = double(n1 + n2);
    const double var = pairs / 12 * ((N + 1) - tie_sum / (N * (N - 1)));
    if (var <= 0) return t; // every value the same: nothing to tell apart
    const double z = std::max(0.0, std::abs(t.u - mean) - 0.5) / std::sqrt(var);
    t.p = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
    return t;
}

double smallest_p(size_t n1, size_t n2)
{
    double c = 1; // C(n1 + n2, n1), in floating point
    for (size_t i = 1; i <= n1; ++i) c = c * double(n2 + i) / double(i);
    return std::min(1.0, 2 / c);
}

double normal_quantile(double q)
{
    // Bisection on the normal distribution function, Phi(z) = erfc(-z / sqrt 2) / 2: exact to the
    // last digits that matter here and short.
    double lo = -40, hi = 40;
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        (0.5 * std::erfc(-mid / std::sqrt(2.0)) < q ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

shift_estimate hodges_lehmann(const std::vector<double>& x, const std::vector<double>& y, double confidence)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    shift_estimate s{nan, nan, nan};
    if (x.empty() || y.empty()) return s;
    // Beyond 2000 values a side, evenly spaced order statistics stand for each sample: the pairwise
    // differences stay a few million.
    auto thin = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        const size_t most = 2000;
        if (v.size() <= most) return v;
        std::vector<double> t(most);
        for (size_t i = 0; i < most; ++i) t[i] = v[i * (v.size() - 1) / (most - 1)];
        return t;
    };
    const std::vector<double> a = thin(x), b = thin(y);
    std::vector<double> d;
    d.reserve(a.size() * b.size());
    for (double yj : b)
        for (double xi : a) d.push_back(yj - xi);
    std::sort(d.begin(), d.end());
    const size_t m = d.size();
    s.estimate = m % 2 ? d[m / 2] : 0.5 * (d[m / 2 - 1] + d[m / 2]);
    // The k-th smallest and k-th largest difference bound the interval, k from U's distribution
    // (its normal approximation) at the two-sided level 1 - confidence.
    const double n1 = double(a.size()), n2 = double(b.size());
    const double z = normal_quantile(0.5 + confidence / 2);
    const double k = std::floor(n1 * n2 / 2 - z * std::sqrt(n1 * n2 * (n1 + n2 + 1) / 12));
    if (k >= 1) {
        s.lo = d[size_t(k) - 1];
        s.hi = d[m - size_t(k)];
    }
    return s;
}

namespace {

/// P(W <= w) for the signed-rank statistic of n pairs without ties: each rank 1..n is in W with
/// probability 1/2, independently (O(n^3): n <= 200 only).
double signed_rank_cdf(size_t n, double w)
{
    const size_t most = n * (n + 1) / 2;
    std::vector<double> f(most + 1, 0); // f[k]: P(W = k) over the ranks so far
    f[0] = 1;
    for (size_t r = 1; r <= n; ++r)
        for (size_t k = r * (r + 1) / 2 + 1; k-- > 0;) f[k] = 0.5 * (f[k] + (k >= r ? f[k - r] : 0));
    double below = 0;
    for (size_t k = 0; k <= most && double(k) <= w; ++k) below += f[k];
    return below;
}

} // namespace

signed_rank_test wilcoxon_signed_rank(const std::vector<double>& d)
{
    signed_rank_test t;
    std::vector<double> magnitude;
    std::vector<bool> positive;
    for (double x : d)
        if (x != 0 && !std::isnan(x)) magnitude.push_back(std::abs(x)), positive.push_back(x > 0);
    const size_t n = magnitude.size();
    t.pairs = n;
    if (n == 0) return t;
    double tie_sum = 0;
    const std::vector<double> rank = pooled_ranks(magnitude, tie_sum);
    for (size_t i = 0; i < n; ++i)
        if (positive[i]) t.w += rank[i];
    const double N = double(n), mean = N * (N + 1) / 4;
    if (tie_sum == 0 && n <= 200) { // exact: the smaller tail, doubled
        t.exact = true;
        t.p = std::min(1.0, 2 * signed_rank_cdf(n, std::min(t.w, 2 * mean - t.w)));
        return t;
    }
    const double var = N * (N + 1) * (2 * N + 1) / 24 - tie_sum / 48;
    if (var <= 0) return t;
    const double z = std::max(0.0, std::abs(t.w - mean) - 0.5) / std::sqrt(var);
    t.p = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
    return t;
}

double smallest_signed_rank_p(size_t n) { return std::min(1.0, 2 * std::pow(0.5, double(n))); }

shift_estimate walsh_estimate(const std::vector<double>& d, double confidence)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    shift_estimate s{nan, nan, nan};
    std::vector<double> x;
    for (double v : d)
        if (!std::isnan(v)) x.push_back(v);
    if (x.empty()) return s;
    // Beyond 2000 pairs, evenly spaced order statistics stand for them: the averages stay two million.
    std::sort(x.begin(), x.end());
    if (const size_t most = 2000; x.size() > most) {
        std::vector<double> t(most);
        for (size_t i = 0; i < most; ++i) t[i] = x[i * (x.size() - 1) / (most - 1)];
        x = std::move(t);
    }
    std::vector<double> w;
    w.reserve(x.size() * (x.size() + 1) / 2);
    for (size_t i = 0; i < x.size(); ++i)
        for (size_t j = i; j < x.size(); ++j) w.push_back(0.5 * (x[i] + x[j]));
    std::sort(w.begin(), w.end());
    const size_t m = w.size();
    s.estimate = m % 2 ? w[m / 2] : 0.5 * (w[m / 2 - 1] + w[m / 2]);
    // The k-th smallest and k-th largest average bound the interval, k from W's distribution (its
    // normal approximation) at the two-sided level 1 - confidence.
    const double n = double(x.size());
    const double z = normal_quantile(0.5 + confidence / 2);
    const double k = std::floor(n * (n + 1) / 4 - z * std::sqrt(n * (n + 1) * (2 * n + 1) / 24));
    if (k >= 1) {
        s.lo = w[size_t(k) - 1];
        s.hi = w[m - size_t(k)];
    }
    return s;
}

std::vector<double> bh_q_values(std::vector<double> p)
{
    for (double& v : p) v = std::isnan(v) ? 1 : std::clamp(v, 0.0, 1.0);
    const size_t m = p.size();
    std::vector<size_t> order(m);
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return p[a] < p[b]; });
    // From the largest p down, so that each keeps the least of its own and every larger one's: a
    // p-value is flagged whenever a larger one is (the step-up), and q never falls as p rises.
    std::vector<double> q(m);
    double least = 1;
    for (size_t r = m; r-- > 0;) {
        least = std::min(least, double(m) * p[order[r]] / double(r + 1));
        q[order[r]] = least;
    }
    return q;
}

} // namespace wb
