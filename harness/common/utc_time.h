// The time of day as results, ceilings and the history record it: UTC, to the second.
#pragma once

#include <string>

namespace wb {

/// Now, as "2026-11-22T10:00:00Z".
std::string utc_now();

} // namespace wb
