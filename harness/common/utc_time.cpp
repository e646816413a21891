// The time of day as recorded (common/utc_time.h).
#include "harness/common/utc_time.h"

#include <ctime>

namespace wb {

std::string utc_now()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace wb
