// glibc's assert failure (`__assert_fail`, what <cassert>'s assert calls), replaced for programs
// linked with the runtime, so that a device assert behaves as on a GPU: in a kernel's lane the
// message names the block and the thread, the launch fails with hipErrorAssert (hipGetLastError,
// hipDeviceSynchronize) and the lane ends; the program goes on. Outside a kernel it is glibc's:
// the message, then abort().
//
// This file includes no header that declares __assert_fail: glibc declares it noexcept, and the
// lane ends by an exception that the runtime catches (as an exception thrown by a lane).
#include <cstdio>
#include <cstdlib>

extern "C" int hip_cpu_lane_assert(const char* expression, const char* file, unsigned line, const char* function);
extern "C" const char* program_invocation_short_name;

namespace {
struct lane_assert_failed {}; // caught by the worker that ran the lane
} // namespace

extern "C" [[noreturn]] void __assert_fail(const char* expression, const char* file, unsigned line,
                                           const char* function)
{
    if (hip_cpu_lane_assert(expression, file, line, function)) throw lane_assert_failed{};
    std::fprintf(stderr, "%s: %s:%u: %s: Assertion `%s' failed.\n", program_invocation_short_name, file, line, function,
                 expression);
    std::fflush(stderr);
    std::abort();
}
