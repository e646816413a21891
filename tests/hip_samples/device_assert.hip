// Device printf and assert, as on a GPU: a kernel prints, and a failed assert in a kernel fails
// that launch with hipErrorAssert (the GPU's message names the block and the thread) instead of
// ending the program. On the cpu platform the launch's error is there at once; a GPU reports it at
// the next synchronization. The failing launch comes last: on a GPU the error is sticky.
#undef NDEBUG // asserts on, also in a release build (CMake's adds -DNDEBUG)
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <cassert>
#include <cstdio>

__global__ void check_positive(const int* values, int n, int* checked)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    assert(values[i] > 0);
    atomicAdd(checked, 1);
}

__global__ void hello(int* printed)
{
    printf("device_assert: hello from block %d thread %d\n", int(blockIdx.x), int(threadIdx.x));
    atomicAdd(printed, 1);
}

int main()
{
    constexpr int n = 256;
    int host[n];
    for (int i = 0; i < n; ++i) host[i] = i + 1;
    int *values, *count;
    SAMPLE_CHECK(hipMalloc(&values, sizeof host));
    SAMPLE_CHECK(hipMalloc(&count, sizeof(int)));
    SAMPLE_CHECK(hipMemcpy(values, host, sizeof host, hipMemcpyHostToDevice));
    SAMPLE_CHECK(hipMemset(count, 0, sizeof(int)));

    int errors = 0, counted = 0;
    hipLaunchKernelGGL(hello, dim3(2), dim3(2), 0, 0, count);
    SAMPLE_CHECK(hipGetLastError());
    SAMPLE_CHECK(hipDeviceSynchronize());
    SAMPLE_CHECK(hipMemcpy(&counted, count, sizeof(int), hipMemcpyDeviceToHost));
    errors += counted != 4;

    SAMPLE_CHECK(hipMemset(count, 0, sizeof(int)));
    hipLaunchKernelGGL(check_positive, dim3(n / 64), dim3(64), 0, 0, values, n, count);
    SAMPLE_CHECK(hipGetLastError());
    SAMPLE_CHECK(hipDeviceSynchronize());
    SAMPLE_CHECK(hipMemcpy(&counted, count, sizeof(int), hipMemcpyDeviceToHost));
    errors += counted != n;

    host[133] = -5; // block 2, thread 5 asserts
    SAMPLE_CHECK(hipMemcpy(values, host, sizeof host, hipMemcpyHostToDevice));
    hipLaunchKernelGGL(check_positive, dim3(n / 64), dim3(64), 0, 0, values, n, count);
    hipError_t status = hipGetLastError();
    if (status == hipSuccess) status = hipDeviceSynchronize();
    if (status != hipErrorAssert) {
        std::printf("device_assert: the failed assert gave %s, not hipErrorAssert\n", hipGetErrorName(status));
        ++errors;
    }
    static_cast<void>(hipFree(values)); // after the failed assert: an error on a GPU (sticky), freed on the cpu
    static_cast<void>(hipFree(count));
    return sample_result("device_assert", errors);
}
