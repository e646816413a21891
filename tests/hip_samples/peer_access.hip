// Peer access between devices: which pairs can access each other, enabling and disabling it (twice,
// with HIP's errors the second time), and copies between devices with hipMemcpyPeer and
// hipMemcpyPeerAsync. With one device, the answers a single device gives: it is not its own peer.
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <vector>

__global__ void twice(int* data, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= 2;
}

__global__ void add_from(int* data, const int* other, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] += other[i];
}

int main()
{
    int errors = 0, count = 0;
    const int n = 4096;
    SAMPLE_CHECK(hipGetDeviceCount(&count));
    SAMPLE_CHECK(hipSetDevice(0));
    int can = -1;
    SAMPLE_CHECK(hipDeviceCanAccessPeer(&can, 0, 0));
    errors += can != 0; // a device is not its own peer
    errors += hipDeviceCanAccessPeer(&can, 0, count) != hipErrorInvalidDevice;
    // Not with itself: HIP says the device is no peer, CUDA that peer access is unsupported.
    const hipError_t self = hipDeviceEnablePeerAccess(0, 0);
    errors += self != hipErrorInvalidDevice && self != hipErrorPeerAccessUnsupported;
    errors += hipDeviceEnablePeerAccess(count, 0) != hipErrorInvalidDevice;
    errors += hipDeviceDisablePeerAccess(count) != hipErrorInvalidDevice;
    (void)hipGetLastError();

    std::vector<int> host(n);
    for (int i = 0; i < n; ++i) host[i] = i * 5 - 3;
    int *on0, *copy0;
    SAMPLE_CHECK(hipMalloc(&on0, n * sizeof(int)));
    SAMPLE_CHECK(hipMalloc(&copy0, n * sizeof(int)));
    SAMPLE_CHECK(hipMemcpy(on0, host.data(), n * sizeof(int), hipMemcpyHostToDevice));
    if (count < 2) {
        // One device: a copy "between devices" within it, and none to a device that does not exist.
        SAMPLE_CHECK(hipMemcpyPeer(copy0, 0, on0, 0, n * sizeof(int)));
        errors += hipMemcpyPeer(copy0, 1, on0, 0, n * sizeof(int)) != hipErrorInvalidDevice;
        (void)hipGetLastError();
        std::vector<int> back(n);
        SAMPLE_CHECK(hipMemcpy(back.data(), copy0, n * sizeof(int), hipMemcpyDeviceToHost));
        errors += back != host;
    } else {
        SAMPLE_CHECK(hipDeviceCanAccessPeer(&can, 1, 0));
        // Device 0's data to device 1, doubled there, and back to device 0 on a stream of device 1.
        SAMPLE_CHECK(hipSetDevice(1));
        int* on1;
        hipStream_t stream;
        SAMPLE_CHECK(hipMalloc(&on1, n * sizeof(int)));
        SAMPLE_CHECK(hipStreamCreate(&stream));
        SAMPLE_CHECK(hipMemcpyPeer(on1, 1, on0, 0, n * sizeof(int)));
        twice<<<(n + 255) / 256, 256, 0, stream>>>(on1, n);
        SAMPLE_CHECK(hipMemcpyPeerAsync(copy0, 0, on1, 1, n * sizeof(int), stream));
        SAMPLE_CHECK(hipStreamSynchronize(stream));
        std::vector<int> back(n);
        SAMPLE_CHECK(hipMemcpy(back.data(), copy0, n * sizeof(int), hipMemcpyDeviceToHost));
        for (int i = 0; i < n; ++i) errors += back[i] != 2 * host[i];
        if (can) {
            // Device 1 reads device 0's memory directly while access is enabled.
            SAMPLE_CHECK(hipDeviceEnablePeerAccess(0, 0));
            errors += hipDeviceEnablePeerAccess(0, 0) != hipErrorPeerAccessAlreadyEnabled;
            (void)hipGetLastError();
            add_from<<<(n + 255) / 256, 256, 0, stream>>>(on1, on0, n);
            SAMPLE_CHECK(hipStreamSynchronize(stream));
            SAMPLE_CHECK(hipMemcpy(back.data(), on1, n * sizeof(int), hipMemcpyDeviceToHost));
            for (int i = 0; i < n; ++i) errors += back[i] != 3 * host[i];
            SAMPLE_CHECK(hipDeviceDisablePeerAccess(0));
            errors += hipDeviceDisablePeerAccess(0) != hipErrorPeerAccessNotEnabled;
            (void)hipGetLastError();
            // Once more: a disabled pair can be enabled again.
            SAMPLE_CHECK(hipDeviceEnablePeerAccess(0, 0));
            SAMPLE_CHECK(hipDeviceDisablePeerAccess(0));
        } else {
            errors += hipDeviceEnablePeerAccess(0, 0) != hipErrorInvalidDevice;
            (void)hipGetLastError();
        }
        SAMPLE_CHECK(hipStreamDestroy(stream));
        SAMPLE_CHECK(hipFree(on1));
        SAMPLE_CHECK(hipSetDevice(0));
    }
    SAMPLE_CHECK(hipFree(on0));
    SAMPLE_CHECK(hipFree(copy0));
    return sample_result("peer_access", errors);
}
