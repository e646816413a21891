// Summary statistics of repeated measurements.
#pragma once

#include <cstddef>
#include <vector>

namespace wb {

struct summary {
    double min = 0, median = 0, max = 0, mean = 0;
    double rel_stddev = 0; // sample standard deviation / mean
    size_t samples = 0;
};

summary summarize(std::vector<double> samples);

} // namespace wb

namespace wb {

/// The two-sided Mann-Whitney U test of whether y tends to be larger or smaller than x.
struct rank_test {
    double u = 0;       // U of y: the pairs (x_i, y_j) with y_j > x_i, ties counted half
    double p = 1;       // two-sided p-value
    bool exact = false; // from U's exact distribution (no ties, small samples); else the normal
                        // approximation with the tie and continuity corrections
};
rank_test mann_whitney(const std::vector<double>& x, const std::vector<double>& y);

/// The smallest two-sided p-value the test can give with samples of these sizes (no ties):
/// 2 / C(n1 + n2, n1). Above alpha, no difference can be significant.
double smallest_p(size_t n1, size_t n2);

/// The Hodges-Lehmann estimate of the shift from x to y (the median of every y_j - x_i) and its
/// distribution-free confidence interval (Moses), the one the Mann-Whitney test inverts. No
/// interval (lo = hi = NaN) when the samples are too small for the confidence asked.
struct shift_estimate {
    double estimate = 0, lo = 0, hi = 0;
};
shift_estimate hodges_lehmann(const std::vector<double>& x, const std::vector<double>& y, double confidence);

/// The Wilcoxon signed-rank test of whether paired differences `d` (y_i - x_i, or the log of
/// y_i / x_i) are centred on 0; differences of 0 are dropped (Wilcoxon's convention).
struct signed_rank_test {
    double w = 0;       // the sum of the ranks of |d_i| over the positive d_i, ties given their mean rank
    double p = 1;       // two-sided p-value
    bool exact = false; // from W's exact distribution (no ties, at most 200 nonzero pairs); else the normal
                        // approximation with the tie and continuity corrections
    size_t pairs = 0;   // the nonzero differences it used
};
signed_rank_test wilcoxon_signed_rank(const std::vector<double>& d);

/// The smallest two-sided p-value the signed-rank test can give with n pairs: 2 / 2^n.
double smallest_signed_rank_p(size_t n);

/// The one-sample Hodges-Lehmann estimate of the centre of paired differences `d` (the median of
/// the Walsh averages (d_i + d_j) / 2, i <= j) and the distribution-free confidence interval the
/// signed-rank test inverts. No interval (lo = hi = NaN) when there are too few pairs.
shift_estimate walsh_estimate(const std::vector<double>& d, double confidence);

/// The standard normal quantile: P(Z <= z) = q, for 0 < q < 1.
double normal_quantile(double q);

/// The Benjamini-Hochberg adjusted p-values (q-values) of m p-values, in their order: for the i-th
/// smallest, the least m * p_(j) / j over j >= i, at most 1 (a NaN counts as 1). Those with q <= Q
/// are what the step-up procedure at level Q flags (the largest k with p_(k) <= k / m * Q, and every
/// p <= p_(k)): among them the expected share of false discoveries is at most Q, for independent or
/// positively dependent tests. Tied p-values get one q-value.
std::vector<double> bh_q_values(std::vector<double> p);

} // namespace wb
