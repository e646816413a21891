#include "core/stats.h"

#include <algorithm>
#include <cmath>

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
