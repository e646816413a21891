// What GPU compilers accept and g++ alone does not, built as written: a template-id with commas as
// hipLaunchKernelGGL's kernel (as ROCm's hipcc takes it; HIP's NVIDIA header needs HIP_KERNEL_NAME),
// `static __shared__` and `__shared__ static`, `extern __shared__` in an included header, and a
// launch inside a macro of that header. The cpu platform gets them through wavebench-hipcc, which
// preprocesses each source before its rewrite.
#include "gpu_syntax.h"
#include "sample_utils.h"

#include <vector>

/// Sums each block's values with two static shared arrays, declared both ways round.
template <int Block> __global__ void block_sums(const int* in, int* sums)
{
    static __shared__ int partial[Block];
    __shared__ static int total;
    partial[threadIdx.x] = in[blockIdx.x * Block + threadIdx.x];
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    for (int stride = Block / 2; stride > 0; stride /= 2) {
        if (int(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) total = partial[0];
    __syncthreads();
    if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

int main()
{
    constexpr int blocks = 4, n = blocks * 64;
    std::vector<int> h(n), out(n), sums(blocks);
    for (int i = 0; i < n; ++i) h[i] = i * 7 % 31 - 11;
    int *din, *dout, *dsums;
    SAMPLE_CHECK(hipMalloc(&din, n * sizeof(int)));
    SAMPLE_CHECK(hipMalloc(&dout, n * sizeof(int)));
    SAMPLE_CHECK(hipMalloc(&dsums, blocks * sizeof(int)));
    SAMPLE_CHECK(hipMemcpy(din, h.data(), n * sizeof(int), hipMemcpyHostToDevice));

    int errors = 0;
#if defined(__HIP_PLATFORM_NVIDIA__) // HIP's NVIDIA header takes the kernel as a macro argument
    hipLaunchKernelGGL(HIP_KERNEL_NAME(reverse_scaled<64, 2>), dim3(blocks), dim3(64), 64 * sizeof(int), 0, din, dout);
#else
    hipLaunchKernelGGL(reverse_scaled<64, 2>, dim3(blocks), dim3(64), 64 * sizeof(int), 0, din, dout);
#endif
    SAMPLE_CHECK(hipGetLastError());
    SAMPLE_CHECK(hipMemcpy(out.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) errors += out[i] != 2 * h[i / 64 * 64 + 63 - i % 64];

    LAUNCH_REVERSE(blocks, din, dout);
    SAMPLE_CHECK(hipGetLastError());
    SAMPLE_CHECK(hipMemcpy(out.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) errors += out[i] != 3 * h[i / 64 * 64 + 63 - i % 64];

    hipLaunchKernelGGL(block_sums<64>, dim3(blocks), dim3(64), 0, 0, din, dsums);
    SAMPLE_CHECK(hipGetLastError());
    SAMPLE_CHECK(hipMemcpy(sums.data(), dsums, blocks * sizeof(int), hipMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
        int expected = 0;
        for (int i = 0; i < 64; ++i) expected += h[b * 64 + i];
        errors += sums[b] != expected;
    }
    SAMPLE_CHECK(hipFree(din));
    SAMPLE_CHECK(hipFree(dout));
    SAMPLE_CHECK(hipFree(dsums));
    return sample_result("gpu_syntax", errors);
}
