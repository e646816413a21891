// wavebench CPU runtime: the subset of HIP that wavebench plugins use, compiled by g++.
//
// Blocks run in parallel on a thread pool; the lanes of a block run as fibers only once a lane
// reaches a barrier or a warp collective. Every call completes before it returns (streams are
// synchronous). What is supported and how it deviates from a GPU: ../../README.md.
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <source_location>
#include <type_traits>
#include <utility>

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
#define __shared__ static thread_local
// Dynamic shared memory: HIP's macro, or `extern __shared__ T x[];` in sources that go through
// wavebench-hip-rewrite (wavebench_add_plugin and wavebench-hipcc do), which makes it a pointer
// to this thread's buffer (::hip_cpu_dynamic_shared, below).
#define HIP_DYNAMIC_SHARED(type, var) type* var = reinterpret_cast<type*>(hip_cpu_tls.dynamic_shared)
#define HIP_KERNEL_NAME(...) __VA_ARGS__

// ---- types --------------------------------------------------------------------------------------
#include "../../../hip_subset.h" // hipError_t, hipMemcpyKind, hipDeviceProp_t, hipFuncAttributes

struct uint3 {
    unsigned x, y, z;
};

struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};

#define WB_CPU_VECTOR2(T, N)                                                                                           \
    struct alignas(2 * sizeof(T)) N##2 { T x, y; };                                                                    \
    inline N##2 make_##N##2(T x, T y) { return {x, y}; }
#define WB_CPU_VECTOR4(T, N)                                                                                           \
    struct alignas(4 * sizeof(T)) N##4 { T x, y, z, w; };                                                              \
    inline N##4 make_##N##4(T x, T y, T z, T w) { return {x, y, z, w}; }
WB_CPU_VECTOR2(int, int)
WB_CPU_VECTOR4(int, int)
WB_CPU_VECTOR2(unsigned, uint)
WB_CPU_VECTOR4(unsigned, uint)
WB_CPU_VECTOR2(float, float)
WB_CPU_VECTOR4(float, float)
#undef WB_CPU_VECTOR2
#undef WB_CPU_VECTOR4

typedef struct hip_cpu_stream* hipStream_t;
typedef struct hip_cpu_event* hipEvent_t;

// ---- the lane's view: threadIdx, blockIdx, blockDim, gridDim, warpSize -----------------------------
struct hip_cpu_tls_t {
    uint3 thread_idx;
    uint3 block_idx;
    uint3 block_dim;
    uint3 grid_dim;
    void* dynamic_shared;
    unsigned stop; // set by the runtime: a run of lanes (hip_cpu_launch_kernel's body) ends after this lane
};
extern "C" __thread hip_cpu_tls_t hip_cpu_tls __attribute__((tls_model("initial-exec")));
extern "C" int hip_cpu_warp_size;

#define threadIdx (hip_cpu_tls.thread_idx)
#define blockIdx (hip_cpu_tls.block_idx)
#define blockDim (hip_cpu_tls.block_dim)
#define gridDim (hip_cpu_tls.grid_dim)
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
/// One device: it cannot access a peer.
hipError_t hipDeviceCanAccessPeer(int* can_access, int device, int peer_device);
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
uint64_t hip_cpu_collective(int op, uint64_t value, int arg, int width, const char* file, unsigned line,
                            unsigned column);
} // extern "C"

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
template <class F> inline hipError_t hip_cpu_launch_kernel(const hip_cpu_launch_config& c, F&& lane, unsigned flags = 0)
{
    using closure_t = std::remove_reference_t<F>;
    return hip_cpu_launch(
        c.grid, c.block, c.shared_bytes, c.stream, flags,
        [](void* f, unsigned count) __attribute__((flatten))->unsigned {
            closure_t& run = *static_cast<closure_t*>(f);
            uint3& t = hip_cpu_tls.thread_idx;
            for (unsigned k = 1;; ++k) {
                run();
                if (k == count || hip_cpu_tls.stop) return k;
                if (++t.x == hip_cpu_tls.block_dim.x) {
                    t.x = 0;
                    if (++t.y == hip_cpu_tls.block_dim.y) t.y = 0, ++t.z;
                }
            }
        },
        &lane);
}

// HIP's launch macro, as ROCm's: the kernel is called with the arguments as written, so a kernel
// template's remaining parameters are deduced from them and braced initializers convert to the
// parameters' types. Each lane evaluates the argument expressions (plain values and pointers
// cost a load; an argument with a side effect, such as `i++`, has it once per lane). A kernel
// name with a comma (`kern<T, Op>`) is wrapped in HIP_KERNEL_NAME(...) or parentheses, as HIP
// requires. `kernel<<<...>>>(args)` is rewritten into the same call by wavebench-hip-rewrite.
#define hipLaunchKernelGGL(kernel, grid, block, shared_bytes, stream, ...)                                             \
    ::hip_cpu_launch_kernel(::hip_cpu_launch_config((grid), (block), (shared_bytes), (stream)),                        \
                            [&]() { kernel(__VA_ARGS__); })

/// hipLaunchCooperativeKernel: a launch whose blocks all run at once, so that they can meet in
/// cooperative_groups::this_grid().sync(): at most one block per worker thread
/// (multiProcessorCount), or hipErrorCooperativeLaunchTooLarge. The cpu platform calls the kernel
/// through its type: pass the kernel itself, not a `void*` (hipErrorInvalidDeviceFunction).
template <class... P>
inline hipError_t hipLaunchCooperativeKernel(void (*kernel)(P...), dim3 grid, dim3 block, void** args,
                                             size_t shared_bytes = 0, hipStream_t stream = nullptr)
{
    if (!kernel || (sizeof...(P) > 0 && !args)) return hip_cpu_fail(hipErrorInvalidValue);
    auto call = [&]<size_t... I>(std::index_sequence<I...>)
    {
        kernel(*static_cast<std::remove_reference_t<P>*>(args[I])...);
    };
    return hip_cpu_launch_kernel(
        hip_cpu_launch_config(grid, block, shared_bytes, stream), [&]() { call(std::index_sequence_for<P...>{}); },
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
    if (const hipError_t e = hipGetDeviceProperties(&p, 0); e != hipSuccess) return e;
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
inline hipError_t symbol_copy(hip_cpu_symbol s, void* memory, size_t bytes, size_t offset, hipMemcpyKind kind,
                              bool to_symbol)
{
    if (!s.address) return hip_cpu_fail(hipErrorInvalidSymbol);
    if (offset > s.size || bytes > s.size - offset) return hip_cpu_fail(hipErrorInvalidValue);
    char* at = static_cast<char*>(s.address) + offset;
    return to_symbol ? hipMemcpy(at, memory, bytes, kind) : hipMemcpy(memory, at, bytes, kind);
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
                                         hipMemcpyKind kind, hipStream_t = nullptr)
{
    return hipMemcpyToSymbol(symbol, src, bytes, offset, kind);
}
inline hipError_t hipMemcpyFromSymbolAsync(void* dst, hip_cpu_symbol symbol, size_t bytes, size_t offset,
                                           hipMemcpyKind kind, hipStream_t = nullptr)
{
    return hipMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
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
    template <class U> operator U*() const { return static_cast<U*>(hip_cpu_dynamic_shared_base()); }
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

inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(unsigned(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
using std::fmaf; // rounded once, as on the GPUs

// The integer and floating-point max and min that HIP device code calls unqualified.
#define WB_CPU_MIN_MAX(T)                                                                                              \
    inline T max(T a, T b) { return a < b ? b : a; }                                                                   \
    inline T min(T a, T b) { return b < a ? b : a; }
WB_CPU_MIN_MAX(int)
WB_CPU_MIN_MAX(unsigned)
WB_CPU_MIN_MAX(long)
WB_CPU_MIN_MAX(unsigned long)
WB_CPU_MIN_MAX(long long)
WB_CPU_MIN_MAX(unsigned long long)
#undef WB_CPU_MIN_MAX
inline float max(float a, float b) { return std::fmax(a, b); }
inline float min(float a, float b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }

// Warp collectives. Lanes of one wavefront that reach the same call site together form one
// collective; lanes that have exited, or are elsewhere, are inactive (see the README).
enum hip_cpu_op { hip_cpu_ballot = 0, hip_cpu_shfl, hip_cpu_shfl_up, hip_cpu_shfl_down, hip_cpu_shfl_xor };

inline unsigned long long __ballot(int predicate, std::source_location l = std::source_location::current())
{
    return hip_cpu_collective(hip_cpu_ballot, predicate != 0, 0, 0, l.file_name(), l.line(), l.column());
}
inline int __any(int predicate, std::source_location l = std::source_location::current())
{
    return __ballot(predicate, l) != 0;
}
inline int __all(int predicate, std::source_location l = std::source_location::current())
{
    // Every active lane's bit is set exactly when nobody voted "false".
    return __ballot(!predicate, l) == 0;
}

namespace hip_cpu_detail {
template <class T> inline T shuffle(int op, T var, int arg, int width, const std::source_location& l)
{
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8, "shuffles move values of 8 bytes at most");
    uint64_t bits = 0;
    std::memcpy(&bits, &var, sizeof(T));
    bits = hip_cpu_collective(op, bits, arg, width, l.file_name(), l.line(), l.column());
    T r;
    std::memcpy(&r, &bits, sizeof(T));
    return r;
}
} // namespace hip_cpu_detail

template <class T>
inline T __shfl(T var, int src_lane, int width = warpSize, std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::shuffle(hip_cpu_shfl, var, src_lane, width, l);
}
template <class T>
inline T __shfl_up(T var, unsigned delta, int width = warpSize,
                   std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::shuffle(hip_cpu_shfl_up, var, int(delta), width, l);
}
template <class T>
inline T __shfl_down(T var, unsigned delta, int width = warpSize,
                     std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::shuffle(hip_cpu_shfl_down, var, int(delta), width, l);
}
template <class T>
inline T __shfl_xor(T var, int lane_mask, int width = warpSize,
                    std::source_location l = std::source_location::current())
{
    return hip_cpu_detail::shuffle(hip_cpu_shfl_xor, var, lane_mask, width, l);
}

// The masked spellings (CUDA's, and HIP's since ROCm 6.2). The mask is not checked: as for the
// unmasked ones, the lanes of the wavefront that reach the call site together take part.
inline unsigned long long __activemask(std::source_location l = std::source_location::current())
{
    return __ballot(1, l);
}
inline void __syncwarp(unsigned long long = ~0ull, std::source_location l = std::source_location::current())
{
    (void)__ballot(1, l); // a wavefront's lanes meet here: what each wrote before is seen by all after
}
inline unsigned long long __ballot_sync(unsigned long long, int predicate,
                                        std::source_location l = std::source_location::current())
{
    return __ballot(predicate, l);
}
inline int __any_sync(unsigned long long, int predicate, std::source_location l = std::source_location::current())
{
    return __any(predicate, l);
}
inline int __all_sync(unsigned long long, int predicate, std::source_location l = std::source_location::current())
{
    return __all(predicate, l);
}
template <class T>
inline T __shfl_sync(unsigned long long, T var, int src_lane, int width = warpSize,
                     std::source_location l = std::source_location::current())
{
    return __shfl(var, src_lane, width, l);
}
template <class T>
inline T __shfl_up_sync(unsigned long long, T var, unsigned delta, int width = warpSize,
                        std::source_location l = std::source_location::current())
{
    return __shfl_up(var, delta, width, l);
}
template <class T>
inline T __shfl_down_sync(unsigned long long, T var, unsigned delta, int width = warpSize,
                          std::source_location l = std::source_location::current())
{
    return __shfl_down(var, delta, width, l);
}
template <class T>
inline T __shfl_xor_sync(unsigned long long, T var, int lane_mask, int width = warpSize,
                         std::source_location l = std::source_location::current())
{
    return __shfl_xor(var, lane_mask, width, l);
}

// Atomics: real atomics on host memory (relaxed, like the GPU's device-scope atomics).
namespace hip_cpu_detail {
template <class T, class F> inline T cas_loop(T* address, F update)
{
    T old = __atomic_load_n(address, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(address, &old, update(old), true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    return old;
}
} // namespace hip_cpu_detail

#define WB_CPU_INTEGER_ATOMICS(T)                                                                                      \
    inline T atomicAdd(T* a, T v) { return __atomic_fetch_add(a, v, __ATOMIC_RELAXED); }                               \
    inline T atomicSub(T* a, T v) { return __atomic_fetch_sub(a, v, __ATOMIC_RELAXED); }                               \
    inline T atomicExch(T* a, T v) { return __atomic_exchange_n(a, v, __ATOMIC_RELAXED); }                             \
    inline T atomicMax(T* a, T v)                                                                                      \
    {                                                                                                                  \
        return hip_cpu_detail::cas_loop(a, [v](T o) { return o < v ? v : o; });                                        \
    }                                                                                                                  \
    inline T atomicMin(T* a, T v)                                                                                      \
    {                                                                                                                  \
        return hip_cpu_detail::cas_loop(a, [v](T o) { return v < o ? v : o; });                                        \
    }                                                                                                                  \
    inline T atomicCAS(T* a, T compare, T v)                                                                           \
    {                                                                                                                  \
        __atomic_compare_exchange_n(a, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);                        \
        return compare;                                                                                                \
    }
WB_CPU_INTEGER_ATOMICS(int)
WB_CPU_INTEGER_ATOMICS(unsigned)
WB_CPU_INTEGER_ATOMICS(unsigned long long)
#undef WB_CPU_INTEGER_ATOMICS

namespace hip_cpu_detail {
inline unsigned float_bits(float f)
{
    unsigned u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline float bits_float(unsigned u)
{
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
template <class F> inline float float_cas_loop(float* address, F update)
{
    unsigned* a = reinterpret_cast<unsigned*>(address);
    return bits_float(cas_loop(a, [&](unsigned o) { return float_bits(update(bits_float(o))); }));
}
} // namespace hip_cpu_detail

inline float atomicAdd(float* a, float v)
{
    return hip_cpu_detail::float_cas_loop(a, [v](float o) { return o + v; });
}
inline float atomicSub(float* a, float v)
{
    return hip_cpu_detail::float_cas_loop(a, [v](float o) { return o - v; });
}
inline float atomicMax(float* a, float v)
{
    return hip_cpu_detail::float_cas_loop(a, [v](float o) { return o < v ? v : o; });
}
inline float atomicMin(float* a, float v)
{
    return hip_cpu_detail::float_cas_loop(a, [v](float o) { return v < o ? v : o; });
}
inline float atomicExch(float* a, float v)
{
    return hip_cpu_detail::bits_float(atomicExch(reinterpret_cast<unsigned*>(a), hip_cpu_detail::float_bits(v)));
}
inline float atomicCAS(float* a, float compare, float v)
{
    return hip_cpu_detail::bits_float(
        atomicCAS(reinterpret_cast<unsigned*>(a), hip_cpu_detail::float_bits(compare), hip_cpu_detail::float_bits(v)));
}
