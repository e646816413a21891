// When to stop measuring a configuration: a stopping criterion looks at the samples so far and
// says whether they are enough (after nvbench's stopping criteria). The run settings choose it.
#pragma once

#include "harness/plan/settings.h"

#include <memory>

namespace wb {

/// How far a configuration's measuring has come.
struct measuring_progress {
    int samples = 0;        // measured runs so far (negative during the warm-up)
    double measured_ms = 0; // device time of those runs
    double elapsed_ms = 0;  // wall time since the first run began
};

class stopping_criterion {
public:
    virtual ~stopping_criterion() = default;
    /// Whether the samples so far are enough: measuring stops before the next run.
    virtual bool enough(const measuring_progress& p) const = 0;
};

/// At least `repetitions` samples and at least `min_time_s` of measured device time, but no more
/// than `max_samples` samples or `max_time_s` of wall time once `repetitions` are in.
class min_time_criterion : public stopping_criterion {
public:
    explicit min_time_criterion(const run_settings& s);
    bool enough(const measuring_progress& p) const override;

private:
    int repetitions_, max_samples_;
    double min_time_ms_, max_time_ms_;
};

/// The criterion the settings ask for.
std::unique_ptr<stopping_criterion> stopping_criterion_for(const run_settings& s);

} // namespace wb
