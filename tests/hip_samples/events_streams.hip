// Events and streams beyond the basics: event flags (timing an event made with
// hipEventDisableTiming is hipErrorInvalidHandle), hipEventQuery and hipStreamQuery, a stream
// waiting on another's event, a stream callback; and the calls around them: managed memory,
// pitched memory filled with hipMemset2D, hipMemsetD32 / D8, the cache and shared-memory
// configuration, hipFuncSetAttribute, device flags, versions and hipDeviceReset.
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <vector>

__global__ void produce(int* data, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = 3 * i + 1;
}

__global__ void consume(const int* data, int* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = data[i] * 2;
}

void record_callback(hipStream_t, hipError_t status, void* user_data)
{
    *static_cast<int*>(user_data) = status == hipSuccess ? 1 : -1;
}

const int n = 10000;

/// Event flags, a stream waiting on another's event, a callback, the queries and the timing rules.
int check_events_streams(int* data, int* out)
{
    int errors = 0;
    // Interprocess events must not be timed, so they need hipEventDisableTiming too.
    hipEvent_t plain, blocking, untimed, shared, start, bad;
    SAMPLE_CHECK(hipEventCreateWithFlags(&plain, hipEventDefault));
    SAMPLE_CHECK(hipEventCreateWithFlags(&blocking, hipEventBlockingSync));
    SAMPLE_CHECK(hipEventCreateWithFlags(&untimed, hipEventDisableTiming));
    SAMPLE_CHECK(hipEventCreateWithFlags(&shared, hipEventInterprocess | hipEventDisableTiming));
    SAMPLE_CHECK(hipEventCreate(&start));
    errors += hipEventCreateWithFlags(&bad, hipEventInterprocess) != hipErrorInvalidValue;
    (void)hipGetLastError();
    hipStream_t first, second;
    SAMPLE_CHECK(hipStreamCreateWithFlags(&first, hipStreamNonBlocking));
    SAMPLE_CHECK(hipStreamCreate(&second));

    // `second` waits for `first`'s event before it reads what `first` wrote.
    SAMPLE_CHECK(hipEventRecord(start, first));
    produce<<<(n + 255) / 256, 256, 0, first>>>(data, n);
    SAMPLE_CHECK(hipEventRecord(plain, first));
    SAMPLE_CHECK(hipEventRecord(untimed, first));
    SAMPLE_CHECK(hipStreamWaitEvent(second, plain, 0));
    consume<<<(n + 255) / 256, 256, 0, second>>>(data, out, n);
    SAMPLE_CHECK(hipEventRecord(blocking, second));
    int called = 0;
    SAMPLE_CHECK(hipStreamAddCallback(second, record_callback, &called, 0));
    const hipError_t query = hipEventQuery(blocking); // done, or not yet on a GPU
    errors += query != hipSuccess && query != hipErrorNotReady;
    SAMPLE_CHECK(hipEventSynchronize(blocking));
    SAMPLE_CHECK(hipStreamSynchronize(second));
    SAMPLE_CHECK(hipEventQuery(blocking));
    SAMPLE_CHECK(hipStreamQuery(first));
    SAMPLE_CHECK(hipStreamQuery(second));
    errors += called != 1;
    std::vector<int> host(n);
    SAMPLE_CHECK(hipMemcpy(host.data(), out, n * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) errors += host[i] != 2 * (3 * i + 1);

    float ms = -1;
    SAMPLE_CHECK(hipEventElapsedTime(&ms, start, plain));
    errors += !(ms >= 0);
    errors += hipEventElapsedTime(&ms, start, untimed) != hipErrorInvalidHandle;
    errors += hipGetLastError() != hipErrorInvalidHandle;
    SAMPLE_CHECK(hipEventQuery(untimed));
    for (hipEvent_t e : {plain, blocking, untimed, shared, start}) SAMPLE_CHECK(hipEventDestroy(e));
    SAMPLE_CHECK(hipStreamDestroy(first));
    SAMPLE_CHECK(hipStreamDestroy(second));
    return errors;
}

/// Managed memory, and fills: bytes over a pitched rectangle, 32-bit and 8-bit values.
int check_memory(int* data, int* out)
{
    int errors = 0;
    int* managed;
    SAMPLE_CHECK(hipMallocManaged(&managed, n * sizeof(int)));
    produce<<<(n + 255) / 256, 256>>>(managed, n); // the kernel writes, the host reads after synchronizing
    SAMPLE_CHECK(hipDeviceSynchronize());
    for (int i = 0; i < n; ++i) errors += managed[i] != 3 * i + 1;
    SAMPLE_CHECK(hipFree(managed));

    const int w = 37, h = 5;
    unsigned char* rect;
    size_t pitch = 0;
    SAMPLE_CHECK(hipMallocPitch(&rect, &pitch, w, h));
    errors += pitch < size_t(w);
    SAMPLE_CHECK(hipMemset2D(rect, pitch, 0x5a, w, h));
    std::vector<unsigned char> rect_host(w * h);
    SAMPLE_CHECK(hipMemcpy2D(rect_host.data(), w, rect, pitch, w, h, hipMemcpyDeviceToHost));
    for (unsigned char b : rect_host) errors += b != 0x5a;
    errors +=
        hipMemcpy2D(rect_host.data(), w - 1, rect, pitch, w, h, hipMemcpyDeviceToHost) != hipErrorInvalidPitchValue;
    (void)hipGetLastError();
    SAMPLE_CHECK(hipFree(rect));

    SAMPLE_CHECK(hipMemsetD32(data, -123456, n));
    SAMPLE_CHECK(hipMemsetD8(out, 0x7f, 3));
    std::vector<int> host(n);
    SAMPLE_CHECK(hipMemcpy(host.data(), data, n * sizeof(int), hipMemcpyDeviceToHost));
    for (int v : host) errors += v != -123456;
    unsigned char three[4];
    SAMPLE_CHECK(hipMemcpy(three, out, 4, hipMemcpyDeviceToHost));
    errors += three[0] != 0x7f || three[2] != 0x7f || three[3] == 0x7f;
    return errors;
}

/// Configuration the GPUs may act on (accepted), device flags and versions.
int check_configuration()
{
    SAMPLE_CHECK(hipDeviceSetCacheConfig(hipFuncCachePreferShared));
    SAMPLE_CHECK(hipFuncSetCacheConfig(consume, hipFuncCachePreferL1));
    SAMPLE_CHECK(hipDeviceSetSharedMemConfig(hipSharedMemBankSizeFourByte));
    SAMPLE_CHECK(hipFuncSetAttribute(produce, hipFuncAttributeMaxDynamicSharedMemorySize, 16 * 1024));
    SAMPLE_CHECK(hipSetDeviceFlags(hipDeviceScheduleYield));
    unsigned flags = 0;
    SAMPLE_CHECK(hipGetDeviceFlags(&flags));
    int driver = 0, runtime = 0;
    SAMPLE_CHECK(hipDriverGetVersion(&driver));
    SAMPLE_CHECK(hipRuntimeGetVersion(&runtime));
    return ((flags & hipDeviceScheduleMask) != hipDeviceScheduleYield) + (driver <= 0 || runtime <= 0);
}

int main()
{
    int *data, *out;
    SAMPLE_CHECK(hipMalloc(&data, n * sizeof(int)));
    SAMPLE_CHECK(hipMalloc(&out, n * sizeof(int)));
    int errors = check_events_streams(data, out) + check_memory(data, out) + check_configuration();
    SAMPLE_CHECK(hipFree(out));
    // The reset frees what is left (`data`); the device works as before after it.
    SAMPLE_CHECK(hipDeviceReset());
    SAMPLE_CHECK(hipMalloc(&data, sizeof(int)));
    produce<<<1, 1>>>(data, 1);
    int one = 0;
    SAMPLE_CHECK(hipMemcpy(&one, data, sizeof(int), hipMemcpyDeviceToHost));
    errors += one != 1;
    SAMPLE_CHECK(hipFree(data));
    return sample_result("events_streams", errors);
}
