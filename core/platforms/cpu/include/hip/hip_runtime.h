// wavebench CPU runtime: the subset of HIP that wavebench plugins use, compiled by g++.
//
// Blocks run in parallel on a thread pool; the lanes of a block run as fibers only once a lane
// reaches a barrier or a warp collective. Every call completes before it returns (streams are
// synchronous). What is supported and how it deviates from a GPU: ../../README.md.
#pragma once

#include <array>   // as ROCm's headers bring them: public HIP code relies on std::array and std::chrono
#include <cassert> // device code asserts as host code does (a failed one fails the launch: README)
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <type_traits>
#include <utility>

// The call site of a collective names it (see the README). C++20 has std::source_location; for
// C++14 and C++17, which HIP code is also written in, the same type over the same compiler builtin
// (__builtin_source_location, in g++ 11 and clang 15 on), with the layout the builtin requires.
#if __cplusplus >= 202002L
#include <source_location>
#else
namespace std {
struct source_location {
    struct __impl {
        const char* _M_file_name;
        const char* _M_function_name;
        unsigned _M_line;
        unsigned _M_column;
    };
    static constexpr source_location current(const void* at = __builtin_source_location())
    {
        return source_location(static_cast<const __impl*>(at));
    }
    constexpr source_location() = default;
    constexpr const char* file_name() const { return at_ ? at_->_M_file_name : ""; }
    constexpr const char* function_name() const { return at_ ? at_->_M_function_name : ""; }
    constexpr unsigned line() const { return at_ ? at_->_M_line : 0; }
    constexpr unsigned column() const { return at_ ? at_->_M_column : 0; }

private:
    constexpr explicit source_location(const __impl* at) : at_(at) {}
    const __impl* at_ = nullptr;
};
} // namespace std
#endif

// The platform macros. Code gates on __HIP_PLATFORM_AMD__ / __HIP_PLATFORM_NVIDIA__ to pick a
// toolchain and its libraries (rocPRIM or CUB, amdgcn builtins or PTX), which the cpu platform has
// neither of, so it defines neither: it is a third platform, named as ROCm's own CPU runtime
// (HIP-CPU) names itself, __HIP_CPU_RT__. __HIP__ and __HIP_DEVICE_COMPILE__ stay undefined too.
#define __HIP_PLATFORM_WAVEBENCH_CPU__ 1
#define __HIP_CPU_RT__ 1

// ---- qualifiers ---------------------------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __constant__
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
// Per-block shared memory: every lane of a block runs on the same OS thread, one block at a time.
// A thread_local variable in a function is static already, so `static __shared__` and
// `__shared__ static` are accepted, as GPU compilers accept them. wavebench-hipcc preprocesses a
// source with __HIP_CPU_REWRITE__ defined, then rewrites it (wavebench-hip-rewrite --preprocessed):
// a marker keeps `extern __shared__` visible to the rewrite in every header.
#ifdef __HIP_CPU_REWRITE__
#define __shared__ __hip_cpu_shared__
#else
#define __shared__ thread_local
#endif
// Dynamic shared memory: HIP's macro, or `extern __shared__ T x[];` in sources that go through
// wavebench-hip-rewrite (wavebench_add_plugin and wavebench-hipcc do), which makes it a pointer
// to this thread's buffer (::hip_cpu_dynamic_shared, below).
#define HIP_DYNAMIC_SHARED(type, var) type* var = reinterpret_cast<type*>(hip_cpu_tls.dynamic_shared)
#define HIP_KERNEL_NAME(...) __VA_ARGS__

// ---- types --------------------------------------------------------------------------------------
#include "../../../hip_subset.h" // hipError_t, hipMemcpyKind, hipDeviceProp_t, hipFuncAttributes

#include <hip/hip_vector_types.h> // the vector types (uint3 ...) and dim3

typedef struct hip_cpu_stream* hipStream_t;
typedef struct hip_cpu_event* hipEvent_t;

// ---- the lane's view: threadIdx, blockIdx, blockDim, gridDim, warpSize -----------------------------
// The index names are variables, as in HIP (not macros): a host variable of the same name is
// another variable. Initial-exec: reading one is a load, no lookup call.
extern "C" __thread uint3 threadIdx __attribute__((tls_model("initial-exec")));
extern "C" __thread uint3 blockIdx __attribute__((tls_model("initial-exec")));
extern "C" __thread uint3 blockDim __attribute__((tls_model("initial-exec")));
extern "C" __thread uint3 gridDim __attribute__((tls_model("initial-exec")));
struct hip_cpu_tls_t {
    void* dynamic_shared;
    unsigned stop;           // set by the runtime: a run of lanes (hip_cpu_launch_kernel's body) ends after this lane
    void* region;            // the lane's innermost region (struct hip_cpu_frame, hip_cpu_warp.h), null outside them
    unsigned long long here; // where the lane is in it (hip_cpu_place), 0 outside regions
    void* worker;            // the runtime's, while the thread runs a kernel's lanes (null otherwise)
};
extern "C" __thread hip_cpu_tls_t hip_cpu_tls __attribute__((tls_model("initial-exec")));
extern "C" int hip_cpu_warp_size;

[[maybe_unused]] static const int& warpSize = hip_cpu_warp_size;

// ---- host API ---------------------------------------------------------------------------------------
extern "C" {
hipError_t hipMalloc(void** ptr, size_t bytes);
hipError_t hipFree(void* ptr);
hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind);
hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t stream = nullptr);
hipError_t hipMemset(void* ptr, int value, size_t bytes);
hipError_t hipMemsetAsync(void* ptr, int value, size_t bytes, hipStream_t stream = nullptr);
/// Host memory is device memory here: hipHostMalloc is hipMalloc, and a mapped pointer is itself.
hipError_t hipHostMalloc(void** ptr, size_t bytes, unsigned flags = hipHostMallocDefault);
hipError_t hipHostFree(void* ptr);
/// Page-locking host memory has nothing to do here (the device reads host memory as it is): the
/// arguments are checked, the memory is left as it is.
hipError_t hipHostRegister(void* ptr, size_t bytes, unsigned flags);
hipError_t hipHostUnregister(void* ptr);
hipError_t hipHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned flags);
/// Free and total physical memory.
hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total_bytes);
/// The devices share host memory: each can access every other one (not itself). Peer access is
/// recorded per pair (the errors are HIP's); copies between devices are plain copies.
hipError_t hipDeviceCanAccessPeer(int* can_access, int device, int peer_device);
hipError_t hipDeviceEnablePeerAccess(int peer_device, unsigned flags);
hipError_t hipDeviceDisablePeerAccess(int peer_device);
hipError_t hipMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, size_t bytes);
hipError_t hipMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t bytes,
                              hipStream_t stream = nullptr);
hipError_t hipStreamCreate(hipStream_t* stream);
hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned flags);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipEventCreate(hipEvent_t* event);
hipError_t hipEventDestroy(hipEvent_t event);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream = nullptr);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop);
hipError_t hipDeviceSynchronize(void);
hipError_t hipGetDeviceCount(int* count);
hipError_t hipGetDevice(int* device);
hipError_t hipSetDevice(int device);
hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int device);
hipError_t hipDeviceGetPCIBusId(char* id, int length, int device); // hipErrorNotSupported: no PCI device
hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attribute, int device);
hipError_t hipGetLastError(void);
hipError_t hipPeekAtLastError(void);
const char* hipGetErrorString(hipError_t error);
const char* hipGetErrorName(hipError_t error);
hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, const void* func);
hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func, int block_size,
                                                        size_t dynamic_shared_bytes);

// Flags of hipEventCreateWithFlags, hipSetDeviceFlags and hipMallocManaged (HIP's values, CUDA's).
#define hipEventDefault 0x0
#define hipEventBlockingSync 0x1
#define hipEventDisableTiming 0x2
#define hipEventInterprocess 0x4 // with hipEventDisableTiming
#define hipDeviceScheduleAuto 0x0
#define hipDeviceScheduleSpin 0x1
#define hipDeviceScheduleYield 0x2
#define hipDeviceScheduleBlockingSync 0x4
#define hipDeviceScheduleMask 0x7
#define hipDeviceMapHost 0x8
#define hipDeviceLmemResizeToMax 0x10
#define hipMemAttachGlobal 0x1
#define hipMemAttachHost 0x2
#define hipMemAttachSingle 0x4

typedef void* hipDeviceptr_t;
typedef void (*hipStreamCallback_t)(hipStream_t stream, hipError_t status, void* user_data);
typedef void (*hipHostFn_t)(void* user_data);
typedef enum hipFuncCache_t {
    hipFuncCachePreferNone,
    hipFuncCachePreferShared,
    hipFuncCachePreferL1,
    hipFuncCachePreferEqual,
} hipFuncCache_t;
typedef enum hipSharedMemConfig {
    hipSharedMemBankSizeDefault,
    hipSharedMemBankSizeFourByte,
    hipSharedMemBankSizeEightByte,
} hipSharedMemConfig;
typedef enum hipFuncAttribute {
    hipFuncAttributeMaxDynamicSharedMemorySize = 8,
    hipFuncAttributePreferredSharedMemoryCarveout = 9,
    hipFuncAttributeMax,
} hipFuncAttribute;

/// Every call has finished when it returns: a recorded event has completed (hipEventQuery and
/// hipStreamQuery answer hipSuccess), a wait has nothing to wait for, and a stream callback or host
/// function runs at once, on the calling thread. Timing an event made with hipEventDisableTiming is
/// hipErrorInvalidHandle, as on HIP.
hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags);
hipError_t hipEventQuery(hipEvent_t event);
hipError_t hipStreamQuery(hipStream_t stream);
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned flags = 0);
hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void* user_data, unsigned flags);
hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* user_data);
/// Frees the memory allocated while the current device was current (hipMalloc, hipMallocPitch,
/// hipMalloc3D, hipMallocManaged, hipHostMalloc) and resets its peer access and flags.
hipError_t hipDeviceReset(void);
/// Caches, shared memory banks and carveouts cannot be configured here: accepted, no effect.
hipError_t hipDeviceSetCacheConfig(hipFuncCache_t config);
hipError_t hipDeviceGetCacheConfig(hipFuncCache_t* config);
hipError_t hipFuncSetCacheConfig(const void* func, hipFuncCache_t config);
hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig config);
hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig* config);
/// Accepted: dynamic shared memory up to 64 KiB, a carveout from -1 to 100 percent.
hipError_t hipFuncSetAttribute(const void* func, hipFuncAttribute attribute, int value);
/// hipDeviceSchedule* (one of them), hipDeviceMapHost, hipDeviceLmemResizeToMax; the flags read
/// back include hipDeviceMapHost (host memory is always mapped here).
hipError_t hipGetDeviceFlags(unsigned* flags);
hipError_t hipSetDeviceFlags(unsigned flags);
/// HIP's version formula (major * 10000000 + minor * 100000): 50200000, the HIP 5.2 API.
hipError_t hipDriverGetVersion(int* version);
hipError_t hipRuntimeGetVersion(int* version);
/// Managed memory is host memory, as all memory here (flags hipMemAttachGlobal or hipMemAttachHost).
hipError_t hipMallocManaged(void** ptr, size_t bytes, unsigned flags = hipMemAttachGlobal);
/// Rows of `width` bytes, `*pitch` bytes apart (a multiple of 256).
hipError_t hipMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height);
hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                       hipMemcpyKind kind);
hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                            hipMemcpyKind kind, hipStream_t stream = nullptr);
hipError_t hipMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height);
hipError_t hipMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height,
                            hipStream_t stream = nullptr);
/// `count` values of 8, 16 or 32 bits.
hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count);
hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value, size_t count);
hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count);
hipError_t hipMemsetD8Async(hipDeviceptr_t dst, unsigned char value, size_t count, hipStream_t stream = nullptr);
hipError_t hipMemsetD16Async(hipDeviceptr_t dst, unsigned short value, size_t count, hipStream_t stream = nullptr);
hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t stream = nullptr);
/// Managed memory is host memory, coherent with every device (hipDeviceAttributeConcurrentManagedAccess
/// is 1): there is nothing to move. The arguments are checked (a device, or hipCpuDeviceId).
#define hipCpuDeviceId ((int)-1)
#define hipInvalidDeviceId ((int)-2)
hipError_t hipMemPrefetchAsync(const void* ptr, size_t bytes, int device, hipStream_t stream = nullptr);

#include <hip/hip_cpu_graphs.h> // graphs and stream capture (in this extern "C" block)

// Their C++ overloads: typed pointers, kernels passed as themselves.
extern "C++" {
template <class T> inline hipError_t hipMallocManaged(T** ptr, size_t bytes, unsigned flags = hipMemAttachGlobal)
{
    return hipMallocManaged(reinterpret_cast<void**>(ptr), bytes, flags);
}
template <class T> inline hipError_t hipMallocPitch(T** ptr, size_t* pitch, size_t width, size_t height)
{
    return hipMallocPitch(reinterpret_cast<void**>(ptr), pitch, width, height);
}
template <class F> inline hipError_t hipFuncSetAttribute(F* func, hipFuncAttribute attribute, int value)
{
    return hipFuncSetAttribute(reinterpret_cast<const void*>(func), attribute, value);
}
template <class F> inline hipError_t hipFuncSetCacheConfig(F* func, hipFuncCache_t config)
{
    return hipFuncSetCacheConfig(reinterpret_cast<const void*>(func), config);
}
} // extern "C++"

// wavebench extensions (not HIP): the platform's options.
/// Sets the wavefront width (32 or 64); hipErrorInvalidValue otherwise. Not during a launch.
hipError_t hipCpuSetWarpSize(int warp_size);
/// Sets the number of worker threads (0: one per hardware thread). Not during a launch.
hipError_t hipCpuSetThreads(int threads);
/// Fibers created so far: one per block, plus one per lane in blocks that reached a barrier or a
/// collective (what the runtime's fiber economy can be checked with).
hipError_t hipCpuFibersCreated(unsigned long long* count);

/// The order in which a wavefront's lanes run between synchronization points (barriers and
/// collectives). A kernel whose result depends on it has a race: warp-synchronous code that
/// assumes lanes run in lock-step, as on a GPU, gives a different result in each order.
typedef enum hipCpuLaneOrder {
    hipCpuLaneOrderForward = 0, ///< lane 0 first (the default)
    hipCpuLaneOrderReverse = 1, ///< the last lane first
    hipCpuLaneOrderRandom = 2,  ///< a seeded random order, drawn again at every synchronization point
} hipCpuLaneOrder;
/// Sets the lane order (WAVEBENCH_CPU_LANE_ORDER=forward|reverse|random[:SEED] sets it at start).
/// Not during a launch.
hipError_t hipCpuSetLaneOrder(hipCpuLaneOrder order, unsigned long long seed);
hipError_t hipCpuGetLaneOrder(hipCpuLaneOrder* order, unsigned long long* seed);

// Internal entry points of the inline functions below.
enum { hip_cpu_launch_cooperative = 1 };
/// `body(closure, count)` runs up to `count` lanes, the first being threadIdx, the next ones in
/// order (x fastest); it returns after the last one or after one that set hip_cpu_tls.stop, and
/// says how many ran.
hipError_t hip_cpu_launch(dim3 grid, dim3 block, size_t shared_bytes, hipStream_t stream, unsigned flags,
                          unsigned (*body)(void*, unsigned), void* closure);
/// Records `e` as the last error and returns it.
hipError_t hip_cpu_fail(hipError_t e);
/// This thread's dynamic shared memory (the same buffer for every block the thread runs).
void* hip_cpu_dynamic_shared_base(void);
void hip_cpu_syncthreads(void);
void hip_cpu_grid_sync(void);
int hip_cpu_launch_is_cooperative(void);
/// Whether `stream` captures (graphs.cpp): its launches are then recorded by hip_cpu_capture_launch.
int hip_cpu_stream_capturing(hipStream_t stream);
/// Records a launch on a capturing stream: `launch(grid, ..., body, copy)` runs at each launch of the
/// graph, `copy` a copy of the `bytes`-byte closure made now. A closure that `copy_closure` is null
/// for is trivially copyable: copied as bytes, and its references to the caller's stack then point
/// into a copy of that stack made now (the arguments' values at capture, as HIP copies them);
/// otherwise `copy_closure` and `destroy_closure` make and free the copies.
hipError_t hip_cpu_capture_launch(dim3 grid, dim3 block, size_t shared_bytes, hipStream_t stream, unsigned flags,
                                  unsigned (*body)(void*, unsigned), const void* closure, size_t bytes,
                                  void* (*copy_closure)(const void*), void (*destroy_closure)(void*),
                                  hipError_t (*launch)(dim3, dim3, size_t, hipStream_t, unsigned,
                                                       unsigned (*)(void*, unsigned), void*));
uint64_t hip_cpu_collective(int op, uint64_t value, int arg, int width, const char* file, unsigned line,
                            unsigned column);
/// hip_cpu_collective with the call site as `line << 32 | column`, and for a `_sync` form (op |
/// hip_cpu_sync) its mask: the lanes named in `mask` wait for each other, from any call site. Both
/// group the lanes by the region the lane is in (hip_cpu_tls.region). Seven arguments: the last is
/// the only one on the stack, and a whole word (a 32-bit one there stalls the load that reads it).
enum { hip_cpu_sync = 0x100, hip_cpu_active = 0x200 /* __activemask(), which --checked does not report */ };
uint64_t hip_cpu_collective_masked(int op, uint64_t value, int arg, int width, uint64_t mask, const char* file,
                                   uint64_t line_column);
} // extern "C"

// Arrays, texture and surface objects, 3-D copies (a C++ header of its own).
#include <hip/hip_texture_types.h>

/// A launch's configuration: what `<<<grid, block, shared_bytes, stream>>>` says.
struct hip_cpu_launch_config {
    dim3 grid, block;
    size_t shared_bytes;
    hipStream_t stream;
    hip_cpu_launch_config(dim3 g, dim3 b, size_t s = 0, hipStream_t st = nullptr)
        : grid(g), block(b), shared_bytes(s), stream(st)
    {
    }
};

/// Runs `lane()` once per lane of the grid. The launch returns only when every block has run, so
/// whatever the closure refers to outlives it. Errors: hipGetLastError. The lanes of a block run
/// one after another in a loop here, with the kernel inlined into it (a call per lane costs as
/// much as a small kernel), until one of them reaches a barrier or a collective. `flatten` inlines
/// the kernel itself into the loop too: a lane then returns from its last barrier through frames
/// that the runtime's own switch keeps predictable.
namespace hip_cpu_detail {
/// hip_cpu_launch, or on a capturing stream the launch recorded (a copy of the closure kept).
template <class C>
inline hipError_t launch_or_capture(const hip_cpu_launch_config& c, unsigned flags, unsigned (*body)(void*, unsigned),
                                    C& closure)
{
    if (c.stream && hip_cpu_stream_capturing(c.stream)) {
        constexpr bool bytes = std::is_trivially_copyable<C>::value && alignof(C) <= alignof(std::max_align_t);
        return hip_cpu_capture_launch(
            c.grid, c.block, c.shared_bytes, c.stream, flags, body, &closure, sizeof(C),
            bytes ? nullptr : +[](const void* p) -> void* { return new C(*static_cast<const C*>(p)); },
            bytes ? nullptr : +[](void* p) { delete static_cast<C*>(p); }, &hip_cpu_launch);
    }
    return hip_cpu_launch(c.grid, c.block, c.shared_bytes, c.stream, flags, body, &closure);
}
} // namespace hip_cpu_detail

template <class F> inline hipError_t hip_cpu_launch_kernel(const hip_cpu_launch_config& c, F&& lane, unsigned flags = 0)
{
    using closure_t = std::remove_reference_t<F>;
    return hip_cpu_detail::launch_or_capture(
        c, flags, [](void* f, unsigned count) __attribute__((flatten))->unsigned {
            closure_t& run = *static_cast<closure_t*>(f);
            uint3& t = threadIdx;
            for (unsigned k = 1;; ++k) {
                run();
                if (k == count || hip_cpu_tls.stop) return k;
                if (++t.x == blockDim.x) {
                    t.x = 0;
                    if (++t.y == blockDim.y) t.y = 0, ++t.z;
                }
            }
        },
        lane);
}

// HIP's launch macro, as ROCm's: the kernel is called with the arguments as written, so a kernel
// template's remaining parameters are deduced from them and braced initializers convert to the
// parameters' types. Each lane evaluates the argument expressions (plain values and pointers
// cost a load; an argument with a side effect, such as `i++`, has it once per lane). A kernel
// name with a comma (`kern<T, Op>`) is wrapped in HIP_KERNEL_NAME(...) or parentheses, as HIP
// requires. `kernel<<<...>>>(args)` is rewritten into the same call by wavebench-hip-rewrite.
// Through wavebench-hipcc, the macro leaves a marker that the rewrite turns into the same call: there
// the kernel may also be a template-id with commas (`kern<B, W>`), as ROCm's hipcc accepts.
#ifdef __HIP_CPU_REWRITE__
#define hipLaunchKernelGGL(...) __hip_cpu_launch__(__VA_ARGS__)
#else
#define hipLaunchKernelGGL(kernel, grid, block, shared_bytes, stream, ...)                                             \
    ::hip_cpu_launch_kernel(::hip_cpu_launch_config((grid), (block), (shared_bytes), (stream)),                        \
                            [&]() { kernel(__VA_ARGS__); })
#endif

namespace hip_cpu_detail {
/// kernel(args[0], args[1], ...), each `args[i]` pointing to the i-th parameter's value.
template <class... P, size_t... I> inline void call_with(void (*kernel)(P...), void** args, std::index_sequence<I...>)
{
    kernel(*static_cast<typename std::remove_reference<P>::type*>(args[I])...);
}
} // namespace hip_cpu_detail

/// hipLaunchCooperativeKernel: a launch whose blocks all run at once, so that they can meet in
/// cooperative_groups::this_grid().sync(): at most one block per worker thread
/// (multiProcessorCount), or hipErrorCooperativeLaunchTooLarge. The cpu platform calls the kernel
/// through its type: pass the kernel itself, not a `void*` (hipErrorInvalidDeviceFunction).
template <class... P>
inline hipError_t hipLaunchCooperativeKernel(void (*kernel)(P...), dim3 grid, dim3 block, void** args,
                                             size_t shared_bytes = 0, hipStream_t stream = nullptr)
{
    if (!kernel || (sizeof...(P) > 0 && !args)) return hip_cpu_fail(hipErrorInvalidValue);
    return hip_cpu_launch_kernel(
        hip_cpu_launch_config(grid, block, shared_bytes, stream),
        [&]() { hip_cpu_detail::call_with(kernel, args, std::index_sequence_for<P...>{}); },
        hip_cpu_launch_cooperative);
}
inline hipError_t hipLaunchCooperativeKernel(const void*, dim3, dim3, void**, size_t = 0, hipStream_t = nullptr)
{
    return hip_cpu_fail(hipErrorInvalidDeviceFunction);
}

template <class T> inline hipError_t hipMalloc(T** ptr, size_t bytes)
{
    return hipMalloc(reinterpret_cast<void**>(ptr), bytes);
}

template <class T> inline hipError_t hipHostMalloc(T** ptr, size_t bytes, unsigned flags = hipHostMallocDefault)
{
    return hipHostMalloc(reinterpret_cast<void**>(ptr), bytes, flags);
}

template <class F> inline hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, F* func)
{
    return hipFuncGetAttributes(attr, reinterpret_cast<const void*>(func));
}

template <class F>
inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, F* func, int block_size,
                                                               size_t dynamic_shared_bytes)
{
    return hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, reinterpret_cast<const void*>(func), block_size,
                                                        dynamic_shared_bytes);
}

/// The block size with the most resident lanes, and the grid that fills the device with it. A
/// worker runs one block at a time, and a block's cost is mostly per lane: the largest block
/// allowed (1024, or `block_size_limit`), one block per worker.
template <class F>
inline hipError_t hipOccupancyMaxPotentialBlockSize(int* grid_size, int* block_size, F func,
                                                    size_t dynamic_shared_bytes = 0, int block_size_limit = 0)
{
    if (!grid_size || !block_size || block_size_limit < 0) return hip_cpu_fail(hipErrorInvalidValue);
    if (!func) return hip_cpu_fail(hipErrorInvalidDeviceFunction);
    hipDeviceProp_t p;
    const hipError_t e = hipGetDeviceProperties(&p, 0);
    if (e != hipSuccess) return e;
    if (dynamic_shared_bytes > p.sharedMemPerBlock) return hip_cpu_fail(hipErrorInvalidValue);
    *block_size =
        block_size_limit > 0 && block_size_limit < p.maxThreadsPerBlock ? block_size_limit : p.maxThreadsPerBlock;
    *grid_size = p.multiProcessorCount;
    return hipSuccess;
}

// ---- symbols: __device__ and __constant__ variables are host variables here ------------------------
/// What HIP_SYMBOL(x) names: the variable's address and size.
struct hip_cpu_symbol {
    void* address;
    size_t size;
};
template <class T> inline hip_cpu_symbol hip_cpu_symbol_of(T& variable)
{
    return {const_cast<void*>(static_cast<const volatile void*>(&variable)), sizeof(T)};
}
#define HIP_SYMBOL(X) ::hip_cpu_symbol_of(X)

namespace hip_cpu_detail {
/// Copies between a symbol and memory; `offset + bytes` beyond the symbol: hipErrorInvalidValue.
/// `async`: on `stream` (recorded there while it captures).
inline hipError_t symbol_copy(hip_cpu_symbol s, void* memory, size_t bytes, size_t offset, hipMemcpyKind kind,
                              bool to_symbol, bool async = false, hipStream_t stream = nullptr)
{
    if (!s.address) return hip_cpu_fail(hipErrorInvalidSymbol);
    if (offset > s.size || bytes > s.size - offset) return hip_cpu_fail(hipErrorInvalidValue);
    char* at = static_cast<char*>(s.address) + offset;
    void* dst = to_symbol ? at : memory;
    const void* src = to_symbol ? memory : at;
    return async ? hipMemcpyAsync(dst, src, bytes, kind, stream) : hipMemcpy(dst, src, bytes, kind);
}
} // namespace hip_cpu_detail

inline hipError_t hipMemcpyToSymbol(hip_cpu_symbol symbol, const void* src, size_t bytes, size_t offset = 0,
                                    hipMemcpyKind kind = hipMemcpyHostToDevice)
{
    return hip_cpu_detail::symbol_copy(symbol, const_cast<void*>(src), bytes, offset, kind, true);
}
inline hipError_t hipMemcpyFromSymbol(void* dst, hip_cpu_symbol symbol, size_t bytes, size_t offset = 0,
                                      hipMemcpyKind kind = hipMemcpyDeviceToHost)
{
    return hip_cpu_detail::symbol_copy(symbol, dst, bytes, offset, kind, false);
}
inline hipError_t hipMemcpyToSymbolAsync(hip_cpu_symbol symbol, const void* src, size_t bytes, size_t offset,
                                         hipMemcpyKind kind, hipStream_t stream = nullptr)
{
    return hip_cpu_detail::symbol_copy(symbol, const_cast<void*>(src), bytes, offset, kind, true, true, stream);
}
inline hipError_t hipMemcpyFromSymbolAsync(void* dst, hip_cpu_symbol symbol, size_t bytes, size_t offset,
                                           hipMemcpyKind kind, hipStream_t stream = nullptr)
{
    return hip_cpu_detail::symbol_copy(symbol, dst, bytes, offset, kind, false, true, stream);
}
inline hipError_t hipGetSymbolAddress(void** address, hip_cpu_symbol symbol)
{
    if (!address) return hip_cpu_fail(hipErrorInvalidValue);
    if (!symbol.address) return hip_cpu_fail(hipErrorInvalidSymbol);
    *address = symbol.address;
    return hipSuccess;
}
inline hipError_t hipGetSymbolSize(size_t* size, hip_cpu_symbol symbol)
{
    if (!size) return hip_cpu_fail(hipErrorInvalidValue);
    if (!symbol.address) return hip_cpu_fail(hipErrorInvalidSymbol);
    *size = symbol.size;
    return hipSuccess;
}
// CUDA's spelling, the variable itself (`hipMemcpyToSymbol(x, ...)`), as HIP also accepts.
template <class T>
inline hipError_t hipMemcpyToSymbol(T& symbol, const void* src, size_t bytes, size_t offset = 0,
                                    hipMemcpyKind kind = hipMemcpyHostToDevice)
{
    return hipMemcpyToSymbol(hip_cpu_symbol_of(symbol), src, bytes, offset, kind);
}
template <class T>
inline hipError_t hipMemcpyFromSymbol(void* dst, T& symbol, size_t bytes, size_t offset = 0,
                                      hipMemcpyKind kind = hipMemcpyDeviceToHost)
{
    return hipMemcpyFromSymbol(dst, hip_cpu_symbol_of(symbol), bytes, offset, kind);
}
template <class T> inline hipError_t hipGetSymbolAddress(void** address, T& symbol)
{
    return hipGetSymbolAddress(address, hip_cpu_symbol_of(symbol));
}
template <class T> inline hipError_t hipGetSymbolSize(size_t* size, T& symbol)
{
    return hipGetSymbolSize(size, hip_cpu_symbol_of(symbol));
}

/// `extern __shared__ T name[];` after wavebench-hip-rewrite: a pointer of the declared type to
/// this thread's dynamic shared memory.
struct hip_cpu_dynamic_shared_t {
    template <class U> operator U*() const
    {
        void* block = hip_cpu_tls.dynamic_shared; // the running block's (a lane's), else this thread's buffer
        return static_cast<U*>(block ? block : hip_cpu_dynamic_shared_base());
    }
};
inline hip_cpu_dynamic_shared_t hip_cpu_dynamic_shared() { return {}; }

// ---- device functions ---------------------------------------------------------------------------
inline void __syncthreads() { hip_cpu_syncthreads(); }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

inline unsigned __lane_id()
{
    const uint3 t = threadIdx, d = blockDim;
    return (t.x + d.x * (t.y + d.y * t.z)) % unsigned(hip_cpu_warp_size);
}

/// The GPU's cycle counter and its constant-rate clock: here both count nanoseconds of the host's
/// monotonic clock (a lane's own elapsed time, as on a GPU where a thread stays on one core).
inline long long wall_clock64()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}
inline long long clock64() { return wall_clock64(); }

// ---- the device library -------------------------------------------------------------------------
#include <hip/device_functions.h>
#include <hip/hip_cpu_atomics.h>
#include <hip/hip_cpu_warp.h>
#include <hip/math_functions.h>
