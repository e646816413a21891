// The run settings: the command line's overrides applied, and contradictions pointed out.
#include "harness/plan/settings.h"

#include <ostream>

namespace wb {

run_settings with_overrides(run_settings s, const settings_overrides& o)
{
    s.repetitions = o.repetitions.value_or(s.repetitions);
    s.warmup = o.warmup.value_or(s.warmup);
    s.min_time_s = o.min_time_s.value_or(s.min_time_s);
    s.verify_every = o.verify_every.value_or(s.verify_every);
    s.timeout_s = o.timeout_s.value_or(s.timeout_s);
    s.energy = o.energy.value_or(s.energy);
    s.counters = o.counters.value_or(s.counters);
    return s;
}

void warn_contradictions(const run_settings& s, std::ostream& err)
{
    if (s.min_time_s > s.max_time_s)
        err << "warning: min_time_s " << s.min_time_s << " is more than max_time_s " << s.max_time_s
            << ": measuring stops at max_time_s (after at least " << s.repetitions << " repetitions)\n";
    if (s.max_samples < s.repetitions)
        err << "warning: max_samples " << s.max_samples << " is below repetitions " << s.repetitions
            << ": every configuration still gets " << s.repetitions << " samples\n";
}

} // namespace wb
