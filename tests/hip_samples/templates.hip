// Kernel templates, launched the ways GPU code launches them: through hipLaunchKernelGGL with
// HIP_KERNEL_NAME around a name with commas, with template parameters left to be deduced from the
// arguments, and with <<<...>>>; functors as template arguments, device max/min, and
// __launch_bounds__ with two arguments.
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <algorithm>
#include <vector>

struct square {
    __device__ float operator()(float v) const { return v * v; }
};
struct clamp_to_ten {
    __device__ int operator()(int v) const { return min(max(v, -10), 10); }
};

template <class T, class Op> __global__ void transform(const T* in, T* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = Op()(in[i]);
}

// BLOCK is given, T is deduced from the arguments.
template <int BLOCK, class T> __global__ __launch_bounds__(256, 2) void block_max(const T* in, T* out, int n)
{
    __shared__ T best[BLOCK];
    const int i = blockIdx.x * BLOCK + threadIdx.x;
    best[threadIdx.x] = i < n ? in[i] : in[0];
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s /= 2) {
        if (int(threadIdx.x) < s) best[threadIdx.x] = max(best[threadIdx.x], best[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = best[0];
}

template <class T> __global__ void fill(T* out, T value, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = value;
}

int main()
{
    const int n = 5000;
    int errors = 0;
    std::vector<float> xf(n);
    std::vector<int> xi(n);
    for (int i = 0; i < n; ++i) {
        xf[i] = float(i % 13) - 6.0f;
        xi[i] = (i * 7919) % 41 - 20;
    }
    float *df, *dfo;
    int *di, *dio;
    SAMPLE_CHECK(hipMalloc(&df, n * sizeof(float)));
    SAMPLE_CHECK(hipMalloc(&dfo, n * sizeof(float)));
    SAMPLE_CHECK(hipMalloc(&di, n * sizeof(int)));
    SAMPLE_CHECK(hipMalloc(&dio, n * sizeof(int)));
    SAMPLE_CHECK(hipMemcpy(df, xf.data(), n * sizeof(float), hipMemcpyHostToDevice));
    SAMPLE_CHECK(hipMemcpy(di, xi.data(), n * sizeof(int), hipMemcpyHostToDevice));

    const dim3 grid((n + 255) / 256), block(256);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(transform<float, square>), grid, block, 0, 0, df, dfo, n);
    SAMPLE_CHECK(hipGetLastError());
    std::vector<float> yf(n);
    SAMPLE_CHECK(hipMemcpy(yf.data(), dfo, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (yf[i] != xf[i] * xf[i]) ++errors;

    transform<int, clamp_to_ten><<<grid, block>>>(di, dio, n);
    std::vector<int> yi(n);
    SAMPLE_CHECK(hipMemcpy(yi.data(), dio, n * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (yi[i] != std::min(std::max(xi[i], -10), 10)) ++errors;

    // block_max<256> leaves T to be deduced: the launch calls the kernel with its arguments.
    hipLaunchKernelGGL(block_max<256>, grid, block, 0, 0, di, dio, n);
    SAMPLE_CHECK(hipGetLastError());
    SAMPLE_CHECK(hipMemcpy(yi.data(), dio, grid.x * sizeof(int), hipMemcpyDeviceToHost));
    for (unsigned b = 0; b < grid.x; ++b) {
        const int lo = int(b) * 256, hi = std::min(n, lo + 256);
        if (yi[b] != *std::max_element(xi.begin() + lo, xi.begin() + hi)) ++errors;
    }

    fill<<<grid, block>>>(dfo, 2.5f, n);
    SAMPLE_CHECK(hipMemcpy(yf.data(), dfo, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (yf[i] != 2.5f) ++errors;

    SAMPLE_CHECK(hipFree(df));
    SAMPLE_CHECK(hipFree(dfo));
    SAMPLE_CHECK(hipFree(di));
    SAMPLE_CHECK(hipFree(dio));
    return sample_result("templates", errors);
}
