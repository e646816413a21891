// The stopping criteria of measuring (measure/stopping.h).
#include "harness/measure/stopping.h"

namespace wb {

min_time_criterion::min_time_criterion(const run_settings& s)
    : repetitions_(s.repetitions), max_samples_(s.max_samples), min_time_ms_(s.min_time_s * 1e3),
      max_time_ms_(s.max_time_s * 1e3)
{
}

bool min_time_criterion::enough(const measuring_progress& p) const
{
    if (p.samples < repetitions_) return false;
    return p.measured_ms >= min_time_ms_ || p.samples >= max_samples_ || p.elapsed_ms >= max_time_ms_;
}

std::unique_ptr<stopping_criterion> stopping_criterion_for(const run_settings& s)
{
    return std::make_unique<min_time_criterion>(s);
}

} // namespace wb
