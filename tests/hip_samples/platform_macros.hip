// Platform-gated code: which platform macro the compiler sees, and a kernel that takes the width
// of a wavefront from warpSize rather than from the platform.
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <cstring>
#include <vector>

#if defined(__HIP_PLATFORM_NVIDIA__) && !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_CPU_RT__)
constexpr const char* platform = "nvidia";
#elif defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__) && !defined(__HIP_CPU_RT__)
constexpr const char* platform = "amd";
#elif defined(__HIP_CPU_RT__) && !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__)
constexpr const char* platform = "cpu";
#else
#error "exactly one of __HIP_PLATFORM_NVIDIA__, __HIP_PLATFORM_AMD__ and __HIP_CPU_RT__ must be defined"
#endif

// Each lane writes its wavefront's index and its lane number within it.
__global__ void lanes(int* wave, int* lane)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    wave[i] = int(threadIdx.x) / warpSize;
    lane[i] = __lane_id();
}

int main(int argc, char** argv)
{
    int errors = 0;
    std::printf("platform: %s\n", platform);
    if (argc > 1 && std::strcmp(argv[1], platform) != 0) {
        std::printf("expected %s\n", argv[1]);
        ++errors;
    }
    hipDeviceProp_t prop;
    SAMPLE_CHECK(hipGetDeviceProperties(&prop, 0));
    const int blocks = 3, threads = 192, n = blocks * threads;
    int *wave, *lane;
    SAMPLE_CHECK(hipMalloc(&wave, n * sizeof(int)));
    SAMPLE_CHECK(hipMalloc(&lane, n * sizeof(int)));
    lanes<<<blocks, threads>>>(wave, lane);
    std::vector<int> w(n), l(n);
    SAMPLE_CHECK(hipMemcpy(w.data(), wave, n * sizeof(int), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipMemcpy(l.data(), lane, n * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (w[i] != (i % threads) / prop.warpSize || l[i] != (i % threads) % prop.warpSize) ++errors;
    SAMPLE_CHECK(hipFree(wave));
    SAMPLE_CHECK(hipFree(lane));
    return sample_result("platform_macros", errors);
}
