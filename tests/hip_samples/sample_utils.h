// What every sample program shares, as in a collection of HIP examples: an error check that names
// the call, and the line a sample ends with. The samples are ordinary HIP programs (host code,
// kernels and a self-check); they are built unmodified for the cpu platform with wavebench-hipcc
// and for the nvidia platform with nvcc (tests/hip_samples/CMakeLists.txt).
#pragma once

#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>

#define SAMPLE_CHECK(call)                                                                         \
    do {                                                                                           \
        const hipError_t sample_status = (call);                                                   \
        if (sample_status != hipSuccess) {                                                         \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
                         hipGetErrorString(sample_status));                                        \
            std::exit(2);                                                                          \
        }                                                                                          \
    } while (0)

/// Prints PASSED or FAILED with the sample's name and returns the exit status (0 or 1).
inline int sample_result(const char* name, int errors)
{
    if (errors == 0) {
        std::printf("%s: PASSED\n", name);
        return 0;
    }
    std::printf("%s: FAILED (%d errors)\n", name, errors);
    return 1;
}
