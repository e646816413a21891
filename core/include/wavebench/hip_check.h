// The one error-check macro of the code base, for code compiled against a HIP runtime (plugins,
// platform libraries, runtime tests). It clears the runtime's last error and throws wb::hip_error
// naming the file, the line, the call and the runtime's own description. Check launches with
// HIP_CHECK(hipGetLastError()) right after hipLaunchKernelGGL.
#pragma once

#include <hip/hip_runtime.h>

#include <stdexcept>
#include <string>

namespace wb {

struct hip_error : std::runtime_error {
    hip_error(hipError_t code, const std::string& what) : std::runtime_error(what), code(code) {}
    hipError_t code;
};

[[noreturn]] inline void throw_hip_error(hipError_t code, const char* call, const char* file, int line)
{
    (void)hipGetLastError(); // clear the sticky copy so the next call starts clean
    throw hip_error(code, std::string(file) + ":" + std::to_string(line) + ": " + call +
                              " failed: " + hipGetErrorName(code) + " (" + hipGetErrorString(code) + ")");
}

} // namespace wb

#define HIP_CHECK(call)                                                                                                \
    do {                                                                                                               \
        hipError_t wb_hip_check_status_ = (call);                                                                      \
        if (wb_hip_check_status_ != hipSuccess)                                                                        \
            ::wb::throw_hip_error(wb_hip_check_status_, #call, __FILE__, __LINE__);                                    \
    } while (0)
