// Dynamic shared memory as GPU code declares it, `extern __shared__ T name[];`: in a kernel, in a
// kernel template (through an aligned byte array, as templates must), and at namespace scope,
// with the size given at launch.
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <vector>

extern __shared__ int staged[]; // one declaration, used by a kernel below

// Reverses each block's slice through shared memory.
__global__ void reverse_block(const float* in, float* out)
{
    extern __shared__ float tile[];
    const unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
    tile[t] = in[base + t];
    __syncthreads();
    out[base + t] = tile[blockDim.x - 1 - t];
}

// A template cannot declare `extern __shared__ T s[]` for two T; it declares bytes and casts.
template <class T> __global__ void block_sum(const T* in, T* out)
{
    extern __shared__ __align__(16) unsigned char smem[];
    T* partial = reinterpret_cast<T*>(smem);
    const unsigned t = threadIdx.x;
    partial[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) partial[t] += partial[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = partial[0];
}

__global__ void rotate_staged(const int* in, int* out)
{
    const unsigned t = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
    staged[t] = in[base + t];
    __syncthreads();
    out[base + t] = staged[(t + 1) % n];
}

int main()
{
    const int blocks = 37, threads = 128, n = blocks * threads;
    int errors = 0;
    std::vector<float> x(n);
    std::vector<double> xd(n);
    std::vector<int> xi(n);
    for (int i = 0; i < n; ++i) {
        x[i] = float(i);
        xd[i] = 0.5 * (i % 11);
        xi[i] = i * 3;
    }
    float *dx, *dy;
    double *dd, *dds;
    int *di, *dio;
    SAMPLE_CHECK(hipMalloc(&dx, n * sizeof(float)));
    SAMPLE_CHECK(hipMalloc(&dy, n * sizeof(float)));
    SAMPLE_CHECK(hipMalloc(&dd, n * sizeof(double)));
    SAMPLE_CHECK(hipMalloc(&dds, blocks * sizeof(double)));
    SAMPLE_CHECK(hipMalloc(&di, n * sizeof(int)));
    SAMPLE_CHECK(hipMalloc(&dio, n * sizeof(int)));
    SAMPLE_CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
    SAMPLE_CHECK(hipMemcpy(dd, xd.data(), n * sizeof(double), hipMemcpyHostToDevice));
    SAMPLE_CHECK(hipMemcpy(di, xi.data(), n * sizeof(int), hipMemcpyHostToDevice));

    reverse_block<<<blocks, threads, threads * sizeof(float)>>>(dx, dy);
    SAMPLE_CHECK(hipGetLastError());
    std::vector<float> y(n);
    SAMPLE_CHECK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (y[i] != x[(i / threads) * threads + threads - 1 - i % threads]) ++errors;

    block_sum<double><<<blocks, threads, threads * sizeof(double)>>>(dd, dds);
    SAMPLE_CHECK(hipGetLastError());
    std::vector<double> sums(blocks);
    SAMPLE_CHECK(hipMemcpy(sums.data(), dds, blocks * sizeof(double), hipMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
        double want = 0;
        for (int t = 0; t < threads; ++t) want += xd[b * threads + t];
        if (sums[b] != want) ++errors;
    }

    hipLaunchKernelGGL(rotate_staged, dim3(blocks), dim3(threads), threads * sizeof(int), 0, di, dio);
    SAMPLE_CHECK(hipGetLastError());
    std::vector<int> yi(n);
    SAMPLE_CHECK(hipMemcpy(yi.data(), dio, n * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (yi[i] != xi[(i / threads) * threads + (i % threads + 1) % threads]) ++errors;

    SAMPLE_CHECK(hipFree(dx));
    SAMPLE_CHECK(hipFree(dy));
    SAMPLE_CHECK(hipFree(dd));
    SAMPLE_CHECK(hipFree(dds));
    SAMPLE_CHECK(hipFree(di));
    SAMPLE_CHECK(hipFree(dio));
    return sample_result("dynamic_shared", errors);
}
