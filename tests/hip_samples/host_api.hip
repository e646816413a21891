// The host API around a kernel as GPU code uses it: a non-blocking stream, asynchronous copies and
// events on the default stream (no stream argument), pinned and mapped host memory, memory and
// peer-access queries, and a launch on a stream with <<<grid, block, shared, stream>>>.
#include <hip/hip_runtime.h>
#include <hip/hip_runtime_api.h>

#include "sample_utils.h"

#include <vector>

__global__ void saxpy(float a, const float* x, float* y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void count_up(int* mapped, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) mapped[i] += i;
}

int main()
{
    const int n = 100003;
    int errors = 0;

    size_t free_bytes = 0, total_bytes = 0;
    SAMPLE_CHECK(hipMemGetInfo(&free_bytes, &total_bytes));
    if (total_bytes == 0 || free_bytes > total_bytes) ++errors;
    int devices = 0, peer = -1;
    SAMPLE_CHECK(hipGetDeviceCount(&devices));
    SAMPLE_CHECK(hipDeviceCanAccessPeer(&peer, 0, 0));
    if (peer != 0 && peer != 1) ++errors;

    hipStream_t stream, plain;
    SAMPLE_CHECK(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
    SAMPLE_CHECK(hipStreamCreateWithFlags(&plain, hipStreamDefault));

    float *x, *y, *dx, *dy;
    SAMPLE_CHECK(hipHostMalloc(&x, n * sizeof(float)));
    SAMPLE_CHECK(hipHostMalloc((void**)&y, n * sizeof(float), hipHostMallocDefault));
    for (int i = 0; i < n; ++i) {
        x[i] = float(i % 97);
        y[i] = 1.0f;
    }
    SAMPLE_CHECK(hipMalloc(&dx, n * sizeof(float)));
    SAMPLE_CHECK(hipMalloc(&dy, n * sizeof(float)));

    hipEvent_t start, stop;
    SAMPLE_CHECK(hipEventCreate(&start));
    SAMPLE_CHECK(hipEventCreate(&stop));
    SAMPLE_CHECK(hipEventRecord(start));
    SAMPLE_CHECK(hipMemcpyAsync(dx, x, n * sizeof(float), hipMemcpyHostToDevice));
    SAMPLE_CHECK(hipMemcpyAsync(dy, y, n * sizeof(float), hipMemcpyHostToDevice, stream));
    SAMPLE_CHECK(hipStreamSynchronize(stream));
    saxpy<<<(n + 255) / 256, 256, 0, stream>>>(2.0f, dx, dy, n);
    SAMPLE_CHECK(hipGetLastError());
    SAMPLE_CHECK(hipMemcpyAsync(y, dy, n * sizeof(float), hipMemcpyDeviceToHost, stream));
    SAMPLE_CHECK(hipStreamSynchronize(stream));
    SAMPLE_CHECK(hipEventRecord(stop));
    SAMPLE_CHECK(hipEventSynchronize(stop));
    float ms = -1;
    SAMPLE_CHECK(hipEventElapsedTime(&ms, start, stop));
    if (!(ms >= 0)) ++errors;
    for (int i = 0; i < n; ++i)
        if (y[i] != 2.0f * float(i % 97) + 1.0f) ++errors;

    // Mapped host memory: the kernel writes through the device pointer, the host reads it back.
    int *host, *device;
    SAMPLE_CHECK(hipHostMalloc((void**)&host, n * sizeof(int), hipHostMallocMapped));
    for (int i = 0; i < n; ++i) host[i] = 1;
    SAMPLE_CHECK(hipHostGetDevicePointer((void**)&device, host, 0));
    count_up<<<dim3((n + 127) / 128), dim3(128), 0, plain>>>(device, n);
    SAMPLE_CHECK(hipStreamSynchronize(plain));
    for (int i = 0; i < n; ++i)
        if (host[i] != 1 + i) ++errors;

    SAMPLE_CHECK(hipHostFree(host));
    SAMPLE_CHECK(hipHostFree(x));
    SAMPLE_CHECK(hipHostFree(y));
    SAMPLE_CHECK(hipFree(dx));
    SAMPLE_CHECK(hipFree(dy));
    SAMPLE_CHECK(hipEventDestroy(start));
    SAMPLE_CHECK(hipEventDestroy(stop));
    SAMPLE_CHECK(hipStreamDestroy(stream));
    SAMPLE_CHECK(hipStreamDestroy(plain));
    return sample_result("host_api", errors);
}
