// The CPU runtime's host API: memory, streams, events, errors, a kernel's attributes and the
// runtime's own settings (hipCpu*). Launches are in launch.cpp, the device calls in devices.cpp,
// 2-D copies in memory2d.cpp, arrays in arrays.cpp, texture objects in textures.cpp, peer access
// in peer.cpp.
#include "device_state.h"
#include "graphs.h"
#include "pool.h"
#include "runtime_common.h"
#include "scheduler.h"
#include "wavebench/warp_size.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unistd.h>
#include <unordered_map>

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {

namespace {
thread_local hipError_t tl_last_error = hipSuccess;
} // namespace

hipError_t fail(hipError_t e)
{
    if (e != hipSuccess) tl_last_error = e;
    return e;
}

namespace {

struct allocation {
    size_t bytes;
    int device; // current when it was made: hipDeviceReset frees it
};
struct allocations {
    std::mutex m;
    std::unordered_map<void*, allocation> live;
};
allocations& the_allocations()
{
    static allocations a;
    return a;
}

struct event_impl {
    std::chrono::steady_clock::time_point t;
    bool recorded = false;
    unsigned flags = hipEventDefault;
};

// What hipDeviceSetCacheConfig and hipDeviceSetSharedMemConfig were told (they change nothing).
std::atomic<int> g_cache_config{hipFuncCachePreferNone}, g_shared_mem_config{hipSharedMemBankSizeDefault};

} // namespace

/// hipMemcpy's copy, without the check of a capture (what a graph's copy runs).
hipError_t copy_memory(void* dst, const void* src, size_t bytes, hipMemcpyKind kind)
{
    if (bytes == 0) return hipSuccess;
    if (!dst || !src) return fail(hipErrorInvalidValue);
    if (int(kind) < 0 || int(kind) > int(hipMemcpyDefault)) return fail(hipErrorInvalidMemcpyDirection);
    std::memmove(dst, src, bytes);
    return hipSuccess;
}

/// hipMemset's fill, likewise.
hipError_t fill_memory(void* ptr, int value, size_t bytes)
{
    if (bytes == 0) return hipSuccess;
    if (!ptr) return fail(hipErrorInvalidValue);
    std::memset(ptr, value, bytes);
    return hipSuccess;
}

void free_device_allocations(int device)
{
    auto& a = the_allocations();
    std::lock_guard lock(a.m);
    for (auto it = a.live.begin(); it != a.live.end();)
        if (it->second.device == device) {
            std::free(it->first);
            it = a.live.erase(it);
        } else {
            ++it;
        }
}
} // namespace cpu_runtime
#pragma GCC visibility pop

struct hip_cpu_event : cpu_runtime::event_impl {};
struct hip_cpu_stream {};

using namespace cpu_runtime;

// ---- host API -------------------------------------------------------------------------------------------
extern "C" {

hipError_t hipMalloc(void** ptr, size_t bytes)
{
    if (!ptr) return fail(hipErrorInvalidValue);
    *ptr = nullptr;
    if (const hipError_t e = unsafe_while_capturing(); e != hipSuccess) return e;
    if (bytes == 0) return hipSuccess;
#if defined(__SANITIZE_ADDRESS__) // `wavebench-hipcc --checked`: the exact size, so that ASan sees an overrun
    void* p = nullptr;
    if (posix_memalign(&p, 256, bytes) != 0) p = nullptr;
#else
    void* p = std::aligned_alloc(256, (bytes + 255) & ~size_t(255));
#endif
    if (!p) return fail(hipErrorOutOfMemory);
    int device = 0;
    hipGetDevice(&device);
    auto& a = the_allocations();
    std::lock_guard lock(a.m);
    a.live.emplace(p, allocation{bytes, device});
    *ptr = p;
    return hipSuccess;
}

hipError_t hipFree(void* ptr)
{
    if (!ptr) return hipSuccess;
    if (const hipError_t e = unsafe_while_capturing(); e != hipSuccess) return e;
    auto& a = the_allocations();
    {
        std::lock_guard lock(a.m);
        if (a.live.erase(ptr) == 0) return fail(hipErrorInvalidValue);
    }
    std::free(ptr);
    return hipSuccess;
}

// The synchronous copy and fill are refused while a capture forbids them; the ...Async forms are
// recorded on a capturing stream (their arguments checked now), run at once on any other.
hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind)
{
    if (const hipError_t e = unsafe_while_capturing(); e != hipSuccess) return e;
    return copy_memory(dst, src, bytes, kind);
}

hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t stream)
{
    if (!capturing(stream)) return copy_memory(dst, src, bytes, kind);
    if (bytes > 0 && (!dst || !src)) return fail(hipErrorInvalidValue);
    if (int(kind) < 0 || int(kind) > int(hipMemcpyDefault)) return fail(hipErrorInvalidMemcpyDirection);
    return capture(stream, [=](hipStream_t) { return copy_memory(dst, src, bytes, kind); });
}

hipError_t hipMemset(void* ptr, int value, size_t bytes)
{
    if (const hipError_t e = unsafe_while_capturing(); e != hipSuccess) return e;
    return fill_memory(ptr, value, bytes);
}

hipError_t hipMemsetAsync(void* ptr, int value, size_t bytes, hipStream_t stream)
{
    if (!capturing(stream)) return fill_memory(ptr, value, bytes);
    if (bytes > 0 && !ptr) return fail(hipErrorInvalidValue);
    return capture(stream, [=](hipStream_t) { return fill_memory(ptr, value, bytes); });
}

hipError_t hipHostMalloc(void** ptr, size_t bytes, unsigned flags)
{
    const unsigned known = hipHostMallocPortable | hipHostMallocMapped | hipHostMallocWriteCombined;
    if (flags & ~known) return fail(hipErrorInvalidValue);
    return hipMalloc(ptr, bytes);
}

hipError_t hipHostFree(void* ptr) { return hipFree(ptr); }

hipError_t hipHostRegister(void* ptr, size_t bytes, unsigned flags)
{
    const unsigned known = hipHostRegisterPortable | hipHostRegisterMapped | hipHostRegisterIoMemory;
    if (!ptr || bytes == 0 || (flags & ~known)) return fail(hipErrorInvalidValue);
    return hipSuccess;
}

hipError_t hipHostUnregister(void* ptr) { return ptr ? hipSuccess : fail(hipErrorInvalidValue); }

hipError_t hipHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned flags)
{
    if (!device_ptr || !host_ptr || flags != 0) return fail(hipErrorInvalidValue);
    *device_ptr = host_ptr;
    return hipSuccess;
}

hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total_bytes)
{
    if (!free_bytes || !total_bytes) return fail(hipErrorInvalidValue);
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    *total_bytes = size_t(sysconf(_SC_PHYS_PAGES)) * page;
    *free_bytes = size_t(sysconf(_SC_AVPHYS_PAGES)) * page;
    return hipSuccess;
}

hipError_t hipStreamCreate(hipStream_t* stream)
{
    if (!stream) return fail(hipErrorInvalidValue);
    *stream = new hip_cpu_stream;
    return hipSuccess;
}

hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned flags)
{
    // Streams are synchronous here: a non-blocking one is the same stream.
    if (flags & ~unsigned(hipStreamNonBlocking)) return fail(hipErrorInvalidValue);
    return hipStreamCreate(stream);
}

hipError_t hipStreamDestroy(hipStream_t stream)
{
    forget_stream(stream);
    delete stream;
    return hipSuccess;
}

// Waiting for a capturing stream (or adding a callback to it, which HIP and CUDA do not capture) is
// refused, and invalidates its capture.
hipError_t hipStreamSynchronize(hipStream_t stream) { return waits_for_capturing(stream); }

hipError_t hipStreamQuery(hipStream_t stream) { return waits_for_capturing(stream); }

hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned flags)
{
    if (flags != 0) return fail(hipErrorInvalidValue);
    if (!event) return fail(hipErrorInvalidHandle);
    return wait_event_in_capture(stream, event); // a stream waiting for a captured event joins its capture
}

hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void* user_data, unsigned flags)
{
    if (!callback || flags != 0) return fail(hipErrorInvalidValue);
    if (const hipError_t e = waits_for_capturing(stream); e != hipSuccess) return e;
    callback(stream, hipSuccess, user_data);
    return hipSuccess;
}

hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* user_data)
{
    if (!fn) return fail(hipErrorInvalidValue);
    if (capturing(stream))
        return capture(stream, [fn, user_data](hipStream_t) {
            fn(user_data);
            return hipSuccess;
        });
    fn(user_data);
    return hipSuccess;
}

hipError_t hipEventCreate(hipEvent_t* event) { return hipEventCreateWithFlags(event, hipEventDefault); }

hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags)
{
    // HIP's own flags (system-scope fences and the like) have nothing to act on here.
    const unsigned known = hipEventBlockingSync | hipEventDisableTiming | hipEventInterprocess | 0xe0000000u;
    if (!event || (flags & ~known)) return fail(hipErrorInvalidValue);
    if ((flags & hipEventInterprocess) && !(flags & hipEventDisableTiming)) return fail(hipErrorInvalidValue);
    *event = new hip_cpu_event;
    (*event)->flags = flags;
    return hipSuccess;
}

// An event last recorded in a capturing stream has no time yet: hipErrorCapturedEvent, as on HIP.
hipError_t hipEventQuery(hipEvent_t event)
{
    if (!event) return fail(hipErrorInvalidHandle);
    return event_in_capture(event) ? fail(hipErrorCapturedEvent) : hipSuccess;
}

hipError_t hipEventDestroy(hipEvent_t event)
{
    if (!event) return fail(hipErrorInvalidHandle);
    forget_event(event);
    delete event;
    return hipSuccess;
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream)
{
    if (!event) return fail(hipErrorInvalidHandle);
    // In a capturing stream: a point that other streams can wait for (fork and join), no time.
    if (hipError_t e = hipSuccess; record_event_in_capture(stream, event, &e)) return e;
    event->t = std::chrono::steady_clock::now();
    event->recorded = true;
    return hipSuccess;
}

hipError_t hipEventSynchronize(hipEvent_t event) { return hipEventQuery(event); }

hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop)
{
    if (!ms) return fail(hipErrorInvalidValue);
    if (start && stop && (event_in_capture(start) || event_in_capture(stop))) return fail(hipErrorCapturedEvent);
    if (!start || !stop || !start->recorded || !stop->recorded) return fail(hipErrorInvalidHandle);
    if ((start->flags | stop->flags) & hipEventDisableTiming) return fail(hipErrorInvalidHandle);
    *ms = std::chrono::duration<float, std::milli>(stop->t - start->t).count();
    return hipSuccess;
}

hipError_t hipDeviceSynchronize(void) { return unsafe_while_capturing(); }
hipError_t hipGetLastError(void)
{
    hipError_t e = tl_last_error;
    tl_last_error = hipSuccess;
    return e;
}

hipError_t hipPeekAtLastError(void) { return tl_last_error; }

const char* hipGetErrorName(hipError_t e)
{
    const char* name = hip_subset_error_name(e);
    return name ? name : "hipErrorUnknown";
}

const char* hipGetErrorString(hipError_t e)
{
    switch (e) {
    case hipSuccess:
        return "no error";
    case hipErrorInvalidValue:
        return "invalid argument";
    case hipErrorOutOfMemory:
        return "out of memory";
    case hipErrorNotInitialized:
        return "initialization error";
    case hipErrorInvalidConfiguration:
        return "invalid configuration argument";
    case hipErrorInvalidPitchValue:
        return "invalid pitch argument";
    case hipErrorInvalidDevicePointer:
        return "invalid device pointer";
    case hipErrorInvalidMemcpyDirection:
        return "invalid copy direction for memcpy";
    case hipErrorInvalidDeviceFunction:
        return "invalid device function";
    case hipErrorNoDevice:
        return "no device";
    case hipErrorInvalidDevice:
        return "invalid device ordinal";
    case hipErrorInvalidHandle:
        return "invalid resource handle";
    case hipErrorNotReady:
        return "device not ready";
    case hipErrorLaunchOutOfResources:
        return "too many resources requested for launch";
    case hipErrorLaunchFailure:
        return "unspecified launch failure (a lane threw an exception)";
    case hipErrorNotSupported:
        return "operation not supported";
    case hipErrorIllegalState:
        return "not allowed in the stream's state (it does not capture, or captures already)";
    case hipErrorStreamCaptureUnsupported:
        return "not allowed while the stream (or, in global mode, any stream) captures";
    case hipErrorStreamCaptureInvalidated:
        return "the capture was invalidated by an earlier error";
    case hipErrorStreamCaptureMerge:
        return "the call would merge two captures";
    case hipErrorStreamCaptureUnmatched:
        return "the capture was not begun on this stream";
    case hipErrorStreamCaptureUnjoined:
        return "a stream forked from the capture was not joined back into it";
    case hipErrorStreamCaptureIsolation:
        return "the capture would depend on work outside it";
    case hipErrorStreamCaptureImplicit:
        return "the null stream cannot take part in a capture";
    case hipErrorCapturedEvent:
        return "the event was last recorded in a capturing stream";
    case hipErrorStreamCaptureWrongThread:
        return "the capture was begun on another thread";
    case hipErrorPeerAccessUnsupported:
        return "peer access is not supported between these two devices";
    case hipErrorPeerAccessAlreadyEnabled:
        return "peer access is already enabled";
    case hipErrorPeerAccessNotEnabled:
        return "peer access has not been enabled";
    case hipErrorInvalidSymbol:
        return "invalid device symbol";
    case hipErrorCooperativeLaunchTooLarge:
        return "too many blocks in cooperative launch (at most one per worker: multiProcessorCount)";
    default:
        return "unknown error";
    }
}

hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, const void* func)
{
    if (!attr) return fail(hipErrorInvalidValue);
    if (!func) return fail(hipErrorInvalidDeviceFunction);
    *attr = hipFuncAttributes{};
    attr->maxThreadsPerBlock = max_block_threads;
    attr->maxDynamicSharedSizeBytes = int(max_shared_bytes);
    return hipSuccess;
}

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func, int block_size,
                                                        size_t dynamic_shared_bytes)
{
    if (!blocks) return fail(hipErrorInvalidValue);
    if (!func) return fail(hipErrorInvalidDeviceFunction);
    // A worker runs one block at a time.
    *blocks = (block_size > 0 && unsigned(block_size) <= max_block_threads && dynamic_shared_bytes <= max_shared_bytes)
                  ? 1
                  : 0;
    return hipSuccess;
}

hipError_t hipDeviceSetCacheConfig(hipFuncCache_t config)
{
    if (config < hipFuncCachePreferNone || config > hipFuncCachePreferEqual) return fail(hipErrorInvalidValue);
    g_cache_config = config;
    return hipSuccess;
}

hipError_t hipDeviceGetCacheConfig(hipFuncCache_t* config)
{
    if (!config) return fail(hipErrorInvalidValue);
    *config = hipFuncCache_t(g_cache_config.load());
    return hipSuccess;
}

hipError_t hipFuncSetCacheConfig(const void* func, hipFuncCache_t config)
{
    if (!func) return fail(hipErrorInvalidDeviceFunction);
    if (config < hipFuncCachePreferNone || config > hipFuncCachePreferEqual) return fail(hipErrorInvalidValue);
    return hipSuccess;
}

hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig config)
{
    if (config < hipSharedMemBankSizeDefault || config > hipSharedMemBankSizeEightByte)
        return fail(hipErrorInvalidValue);
    g_shared_mem_config = config;
    return hipSuccess;
}

hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig* config)
{
    if (!config) return fail(hipErrorInvalidValue);
    *config = hipSharedMemConfig(g_shared_mem_config.load());
    return hipSuccess;
}

hipError_t hipFuncSetAttribute(const void* func, hipFuncAttribute attribute, int value)
{
    if (!func) return fail(hipErrorInvalidDeviceFunction);
    if (attribute == hipFuncAttributeMaxDynamicSharedMemorySize && value >= 0 && size_t(value) <= max_shared_bytes)
        return hipSuccess;
    if (attribute == hipFuncAttributePreferredSharedMemoryCarveout && value >= -1 && value <= 100) return hipSuccess;
    return fail(hipErrorInvalidValue);
}

hipError_t hipCpuSetWarpSize(int warp_size)
{
    if (!wb::cpu_warp_size_allowed(warp_size)) return fail(hipErrorInvalidValue);
    if (tl_worker()) return fail(hipErrorNotSupported);
    std::lock_guard lock(launch_mutex());
    hip_cpu_warp_size = warp_size;
    return hipSuccess;
}

hipError_t hipCpuSetThreads(int threads)
{
    if (threads < 0) return fail(hipErrorInvalidValue);
    if (tl_worker()) return fail(hipErrorNotSupported);
    std::lock_guard lock(launch_mutex());
    the_pool().resize(threads > 0 ? unsigned(threads) : max_workers());
    return hipSuccess;
}

hipError_t hipCpuSetLaneOrder(hipCpuLaneOrder order, unsigned long long seed)
{
    if (order != hipCpuLaneOrderForward && order != hipCpuLaneOrderReverse && order != hipCpuLaneOrderRandom)
        return fail(hipErrorInvalidValue);
    if (tl_worker()) return fail(hipErrorNotSupported);
    std::lock_guard lock(launch_mutex());
    lane_order() = {order, seed};
    return hipSuccess;
}

hipError_t hipCpuGetLaneOrder(hipCpuLaneOrder* order, unsigned long long* seed)
{
    if (!order || !seed) return fail(hipErrorInvalidValue);
    std::lock_guard lock(launch_mutex());
    *order = lane_order().order;
    *seed = lane_order().seed;
    return hipSuccess;
}

hipError_t hipCpuFibersCreated(unsigned long long* count)
{
    if (!count) return fail(hipErrorInvalidValue);
    *count = g_fibers_created.load(std::memory_order_relaxed);
    return hipSuccess;
}

} // extern "C"
