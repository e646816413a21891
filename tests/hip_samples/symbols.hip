// Device and constant variables reached from the host through the symbol API: HIP_SYMBOL,
// hipMemcpyToSymbol/FromSymbol (also CUDA's spelling, the variable itself), hipGetSymbolAddress
// and hipGetSymbolSize.
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <vector>

__constant__ float coefficients[4];
__device__ int launches;
__device__ float table[256];

// A cubic polynomial with coefficients from constant memory; counts its blocks in `launches`.
__global__ void polynomial(const float* x, float* y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) atomicAdd(&launches, 1);
    if (i < n) {
        const float v = x[i];
        y[i] = coefficients[0] + v * (coefficients[1] + v * (coefficients[2] + v * coefficients[3]));
    }
}

__global__ void lookup(const int* index, float* y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = table[index[i] & 255];
}

int main()
{
    const int n = 3000;
    int errors = 0;
    const float c[4] = {1.0f, -2.0f, 0.5f, 0.25f};
    SAMPLE_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coefficients), c, sizeof c));
    const int zero = 0;
    SAMPLE_CHECK(hipMemcpyToSymbol(launches, &zero, sizeof zero, 0, hipMemcpyHostToDevice));

    size_t size = 0;
    SAMPLE_CHECK(hipGetSymbolSize(&size, HIP_SYMBOL(table)));
    if (size != sizeof(float) * 256) ++errors;
    float* table_address = nullptr;
    SAMPLE_CHECK(hipGetSymbolAddress((void**)&table_address, HIP_SYMBOL(table)));
    std::vector<float> t(256);
    for (int i = 0; i < 256; ++i) t[i] = float(i) * 0.5f;
    SAMPLE_CHECK(hipMemcpy(table_address, t.data(), 256 * sizeof(float), hipMemcpyHostToDevice));
    // The second half again, through an offset into the symbol.
    SAMPLE_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(table), t.data() + 128, 128 * sizeof(float), 128 * sizeof(float)));

    std::vector<float> x(n);
    std::vector<int> idx(n);
    for (int i = 0; i < n; ++i) {
        x[i] = float(i % 17) * 0.25f - 2.0f;
        idx[i] = (i * 31) % 256;
    }
    float *dx, *dy;
    int* di;
    SAMPLE_CHECK(hipMalloc(&dx, n * sizeof(float)));
    SAMPLE_CHECK(hipMalloc(&dy, n * sizeof(float)));
    SAMPLE_CHECK(hipMalloc(&di, n * sizeof(int)));
    SAMPLE_CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
    SAMPLE_CHECK(hipMemcpy(di, idx.data(), n * sizeof(int), hipMemcpyHostToDevice));

    const int blocks = (n + 255) / 256;
    polynomial<<<blocks, 256>>>(dx, dy, n);
    SAMPLE_CHECK(hipGetLastError());
    std::vector<float> y(n);
    SAMPLE_CHECK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        const float v = x[i], want = c[0] + v * (c[1] + v * (c[2] + v * c[3]));
        if (y[i] != want) ++errors;
    }
    int counted = -1;
    SAMPLE_CHECK(hipMemcpyFromSymbol(&counted, HIP_SYMBOL(launches), sizeof counted));
    if (counted != blocks) ++errors;

    lookup<<<blocks, 256>>>(di, dy, n);
    SAMPLE_CHECK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (y[i] != t[idx[i]]) ++errors;

    // Beyond the symbol's end: refused.
    if (hipMemcpyToSymbol(HIP_SYMBOL(coefficients), c, sizeof c, sizeof(float)) == hipSuccess) ++errors;
    (void)hipGetLastError();

    SAMPLE_CHECK(hipFree(dx));
    SAMPLE_CHECK(hipFree(dy));
    SAMPLE_CHECK(hipFree(di));
    return sample_result("symbols", errors);
}
