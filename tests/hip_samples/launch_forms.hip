// The launch forms of GPU code: <<<>>> with two, three and four configuration items, braced
// dim3s and braced kernel arguments, kernels in namespaces and through function pointers,
// launches in macros and in unbraced if/else, and a block size from
// hipOccupancyMaxPotentialBlockSize.
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <vector>

struct affine {
    float scale, shift;
};

namespace kernels {
__global__ void apply(affine f, const float* in, float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = f.scale * in[i] + f.shift;
}
} // namespace kernels

__global__ void index_2d(int* out, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) out[y * width + x] = y * 1000 + x;
}

__global__ void add_one(float* v, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += 1.0f;
}
__global__ void add_two(float* v, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += 2.0f;
}

#define LAUNCH_OVER(kernel, n, ...) kernel<<<((n) + 127) / 128, 128>>>(__VA_ARGS__)

int main()
{
    const int n = 4099;
    int errors = 0;
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i) x[i] = float(i % 50);
    float *dx, *dy;
    SAMPLE_CHECK(hipMalloc(&dx, n * sizeof(float)));
    SAMPLE_CHECK(hipMalloc(&dy, n * sizeof(float)));
    SAMPLE_CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
    std::vector<float> y(n);

    // Braced kernel argument, three configuration items; the block size from the occupancy API.
    int min_grid = 0, block = 0;
    SAMPLE_CHECK(hipOccupancyMaxPotentialBlockSize(&min_grid, &block, kernels::apply, 0, 0));
    if (block < 1 || block > 1024 || min_grid < 1) ++errors;
    kernels::apply<<<(n + block - 1) / block, block, 0>>>({2.0f, -1.0f}, dx, dy, n);
    SAMPLE_CHECK(hipGetLastError());
    SAMPLE_CHECK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (y[i] != 2.0f * x[i] - 1.0f) ++errors;

    // Braced dim3s, four configuration items.
    const int width = 70, height = 45;
    int* grid2d;
    SAMPLE_CHECK(hipMalloc(&grid2d, width * height * sizeof(int)));
    hipStream_t stream;
    SAMPLE_CHECK(hipStreamCreate(&stream));
    index_2d<<<{(width + 15) / 16, (height + 15) / 16}, {16, 16}, 0, stream>>>(grid2d, width, height);
    SAMPLE_CHECK(hipStreamSynchronize(stream));
    std::vector<int> g(width * height);
    SAMPLE_CHECK(hipMemcpy(g.data(), grid2d, g.size() * sizeof(int), hipMemcpyDeviceToHost));
    for (int yy = 0; yy < height; ++yy)
        for (int xx = 0; xx < width; ++xx)
            if (g[yy * width + xx] != yy * 1000 + xx) ++errors;

    // Through a function pointer, in an unbraced if/else, and in a macro.
    void (*step)(float*, int) = n % 2 ? add_one : add_two;
    SAMPLE_CHECK(hipMemcpy(dy, dx, n * sizeof(float), hipMemcpyDeviceToDevice));
    if (n > 0)
        step<<<(n + 255) / 256, 256>>>(dy, n);
    else
        add_two<<<1, 1>>>(dy, 0);
    LAUNCH_OVER(add_two, n, dy, n);
    SAMPLE_CHECK(hipGetLastError());
    SAMPLE_CHECK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (y[i] != x[i] + (n % 2 ? 1.0f : 2.0f) + 2.0f) ++errors;

    SAMPLE_CHECK(hipStreamDestroy(stream));
    SAMPLE_CHECK(hipFree(grid2d));
    SAMPLE_CHECK(hipFree(dx));
    SAMPLE_CHECK(hipFree(dy));
    return sample_result("launch_forms", errors);
}
