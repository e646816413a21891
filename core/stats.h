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
