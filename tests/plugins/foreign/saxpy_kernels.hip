// Not a wavebench plugin: an ordinary HIP library with two kernels, for `wavebench inspect` on a
// .so built outside the project's plugin system.
#include <hip/hip_runtime.h>

__global__ void saxpy(float* y, const float* x, float a, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ __launch_bounds__(128) void transpose_tile(float* out, const float* in, int n)
{
    __shared__ float tile[32][33]; // padded against bank conflicts
    const int x = blockIdx.x * 32 + threadIdx.x % 32, y = blockIdx.y * 32 + threadIdx.x / 32;
    for (int r = 0; r < 32; r += 4)
        if (x < n && y + r < n) tile[threadIdx.x / 32 + r][threadIdx.x % 32] = in[(y + r) * n + x];
    __syncthreads();
    const int tx = blockIdx.y * 32 + threadIdx.x % 32, ty = blockIdx.x * 32 + threadIdx.x / 32;
    for (int r = 0; r < 32; r += 4)
        if (tx < n && ty + r < n) out[(ty + r) * n + tx] = tile[threadIdx.x % 32][threadIdx.x / 32 + r];
}

extern "C" int saxpy_launch(float* y, const float* x, float a, int n)
{
    hipLaunchKernelGGL(saxpy, dim3((n + 255) / 256), dim3(256), 0, nullptr, y, x, a, n);
    return int(hipGetLastError());
}
