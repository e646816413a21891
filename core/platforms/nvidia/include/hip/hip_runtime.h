// wavebench HIP on CUDA: the subset of HIP that wavebench's plugins use, mapped onto the CUDA
// runtime (CUDA 13). Debian's HIP 5.2 NVIDIA headers no longer compile against CUDA 13; this
// header covers only what the plugins and the platform library need. See ../../README.md.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#define __HIP_PLATFORM_NVIDIA__ 1

#include "../../../hip_subset.h"
#include "hip_vector_types.h" // HIP's operators on CUDA's vector types, and their shuffles

// ---- errors: HIP's values are CUDA's, so a cudaError_t converts without a table ---------------------
static_assert(int(hipErrorInvalidValue) == int(cudaErrorInvalidValue) &&
                  int(hipErrorOutOfMemory) == int(cudaErrorMemoryAllocation) &&
                  int(hipErrorNotInitialized) == int(cudaErrorInitializationError) &&
                  int(hipErrorInvalidConfiguration) == int(cudaErrorInvalidConfiguration) &&
                  int(hipErrorInvalidDevicePointer) == int(cudaErrorInvalidDevicePointer) &&
                  int(hipErrorInvalidMemcpyDirection) == int(cudaErrorInvalidMemcpyDirection) &&
                  int(hipErrorInsufficientDriver) == int(cudaErrorInsufficientDriver) &&
                  int(hipErrorInvalidDeviceFunction) == int(cudaErrorInvalidDeviceFunction) &&
                  int(hipErrorNoDevice) == int(cudaErrorNoDevice) &&
                  int(hipErrorInvalidDevice) == int(cudaErrorInvalidDevice) &&
                  int(hipErrorInvalidImage) == int(cudaErrorInvalidKernelImage) &&
                  int(hipErrorInvalidHandle) == int(cudaErrorInvalidResourceHandle) &&
                  int(hipErrorNotReady) == int(cudaErrorNotReady) &&
                  int(hipErrorIllegalAddress) == int(cudaErrorIllegalAddress) &&
                  int(hipErrorLaunchOutOfResources) == int(cudaErrorLaunchOutOfResources) &&
                  int(hipErrorLaunchTimeOut) == int(cudaErrorLaunchTimeout) &&
                  int(hipErrorLaunchFailure) == int(cudaErrorLaunchFailure) &&
                  int(hipErrorAssert) == int(cudaErrorAssert) &&
                  int(hipErrorNotSupported) == int(cudaErrorNotSupported) &&
                  int(hipErrorUnknown) == int(cudaErrorUnknown) &&
                  int(hipErrorInvalidSymbol) == int(cudaErrorInvalidSymbol) &&
                  int(hipErrorCooperativeLaunchTooLarge) == int(cudaErrorCooperativeLaunchTooLarge),
              "HIP error values must equal CUDA's");

/// A CUDA status as HIP's (values CUDA has and HIP does not name keep their number).
inline hipError_t hip_from_cuda(cudaError_t e) { return static_cast<hipError_t>(e); }

/// HIP's name for the errors HIP names; CUDA's own name for the rest.
inline const char* hipGetErrorName(hipError_t e)
{
    const char* name = hip_subset_error_name(e);
    return name ? name : cudaGetErrorName(cudaError_t(e));
}

inline const char* hipGetErrorString(hipError_t e) { return cudaGetErrorString(cudaError_t(e)); }
inline hipError_t hipGetLastError() { return hip_from_cuda(cudaGetLastError()); }
inline hipError_t hipPeekAtLastError() { return hip_from_cuda(cudaPeekAtLastError()); }

// ---- types ------------------------------------------------------------------------------------
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;

static_assert(int(hipMemcpyHostToDevice) == int(cudaMemcpyHostToDevice) &&
                  int(hipMemcpyDeviceToHost) == int(cudaMemcpyDeviceToHost) &&
                  int(hipMemcpyDeviceToDevice) == int(cudaMemcpyDeviceToDevice) &&
                  int(hipMemcpyDefault) == int(cudaMemcpyDefault),
              "HIP copy directions must equal CUDA's");

// hipDeviceProp_t (the project's subset: CUDA 13 removed clockRate and memoryClockRate from
// cudaDeviceProp, so they come from cudaDeviceGetAttribute) and hipFuncAttributes: hip_subset.h.

// ---- host API ---------------------------------------------------------------------------------
inline hipError_t hipMalloc(void** ptr, size_t bytes) { return hip_from_cuda(cudaMalloc(ptr, bytes)); }
template <class T> inline hipError_t hipMalloc(T** ptr, size_t bytes)
{
    return hipMalloc(reinterpret_cast<void**>(ptr), bytes);
}
inline hipError_t hipFree(void* ptr) { return hip_from_cuda(cudaFree(ptr)); }
inline hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind)
{
    return hip_from_cuda(cudaMemcpy(dst, src, bytes, cudaMemcpyKind(kind)));
}
inline hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t stream = 0)
{
    return hip_from_cuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyKind(kind), stream));
}
inline hipError_t hipMemset(void* ptr, int value, size_t bytes) { return hip_from_cuda(cudaMemset(ptr, value, bytes)); }
inline hipError_t hipMemsetAsync(void* ptr, int value, size_t bytes, hipStream_t stream = 0)
{
    return hip_from_cuda(cudaMemsetAsync(ptr, value, bytes, stream));
}
inline hipError_t hipStreamCreate(hipStream_t* stream) { return hip_from_cuda(cudaStreamCreate(stream)); }
inline hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned flags)
{
    return hip_from_cuda(cudaStreamCreateWithFlags(stream, flags));
}
inline hipError_t hipHostMalloc(void** ptr, size_t bytes, unsigned flags = hipHostMallocDefault)
{
    return hip_from_cuda(cudaHostAlloc(ptr, bytes, flags)); // the same flag values
}
template <class T> inline hipError_t hipHostMalloc(T** ptr, size_t bytes, unsigned flags = hipHostMallocDefault)
{
    return hipHostMalloc(reinterpret_cast<void**>(ptr), bytes, flags);
}
inline hipError_t hipHostFree(void* ptr) { return hip_from_cuda(cudaFreeHost(ptr)); }
inline hipError_t hipHostRegister(void* ptr, size_t bytes, unsigned flags)
{
    return hip_from_cuda(cudaHostRegister(ptr, bytes, flags)); // the same flag values
}
inline hipError_t hipHostUnregister(void* ptr) { return hip_from_cuda(cudaHostUnregister(ptr)); }
inline hipError_t hipHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned flags)
{
    return hip_from_cuda(cudaHostGetDevicePointer(device_ptr, host_ptr, flags));
}
inline hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total_bytes)
{
    return hip_from_cuda(cudaMemGetInfo(free_bytes, total_bytes));
}
inline hipError_t hipDeviceCanAccessPeer(int* can_access, int device, int peer_device)
{
    return hip_from_cuda(cudaDeviceCanAccessPeer(can_access, device, peer_device));
}
inline hipError_t hipStreamDestroy(hipStream_t stream) { return hip_from_cuda(cudaStreamDestroy(stream)); }
inline hipError_t hipStreamSynchronize(hipStream_t stream) { return hip_from_cuda(cudaStreamSynchronize(stream)); }
inline hipError_t hipEventCreate(hipEvent_t* event) { return hip_from_cuda(cudaEventCreate(event)); }
inline hipError_t hipEventDestroy(hipEvent_t event) { return hip_from_cuda(cudaEventDestroy(event)); }
inline hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream = 0)
{
    return hip_from_cuda(cudaEventRecord(event, stream));
}
inline hipError_t hipEventSynchronize(hipEvent_t event) { return hip_from_cuda(cudaEventSynchronize(event)); }
inline hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop)
{
    return hip_from_cuda(cudaEventElapsedTime(ms, start, stop));
}
inline hipError_t hipDeviceSynchronize() { return hip_from_cuda(cudaDeviceSynchronize()); }
inline hipError_t hipGetDeviceCount(int* count) { return hip_from_cuda(cudaGetDeviceCount(count)); }
inline hipError_t hipGetDevice(int* device) { return hip_from_cuda(cudaGetDevice(device)); }
inline hipError_t hipSetDevice(int device) { return hip_from_cuda(cudaSetDevice(device)); }
inline hipError_t hipDeviceGetPCIBusId(char* id, int length, int device)
{
    return hip_from_cuda(cudaDeviceGetPCIBusId(id, length, device));
}

inline hipError_t hipGetDeviceProperties(hipDeviceProp_t* p, int device)
{
    cudaDeviceProp c;
    if (cudaError_t e = cudaGetDeviceProperties(&c, device); e != cudaSuccess) return hip_from_cuda(e);
    *p = hipDeviceProp_t{};
    for (size_t i = 0; i + 1 < sizeof p->name && c.name[i]; ++i) p->name[i] = c.name[i];
    p->totalGlobalMem = c.totalGlobalMem;
    p->sharedMemPerBlock = c.sharedMemPerBlock;
    p->regsPerBlock = c.regsPerBlock;
    p->warpSize = c.warpSize;
    p->maxThreadsPerBlock = c.maxThreadsPerBlock;
    for (int i = 0; i < 3; ++i) {
        p->maxThreadsDim[i] = c.maxThreadsDim[i];
        p->maxGridSize[i] = c.maxGridSize[i];
    }
    p->memoryBusWidth = c.memoryBusWidth;
    p->totalConstMem = c.totalConstMem;
    p->major = c.major;
    p->minor = c.minor;
    p->multiProcessorCount = c.multiProcessorCount;
    p->l2CacheSize = c.l2CacheSize;
    p->maxThreadsPerMultiProcessor = c.maxThreadsPerMultiProcessor;
    p->maxSharedMemoryPerMultiProcessor = c.sharedMemPerMultiprocessor;
    p->regsPerMultiprocessor = c.regsPerMultiprocessor;
    p->maxBlocksPerMultiProcessor = c.maxBlocksPerMultiProcessor;
    p->reservedSharedMemPerBlock = c.reservedSharedMemPerBlock;
    p->cooperativeLaunch = c.cooperativeLaunch;
    if (cudaError_t e = cudaDeviceGetAttribute(&p->clockRate, cudaDevAttrClockRate, device); e != cudaSuccess)
        return hip_from_cuda(e);
    return hip_from_cuda(cudaDeviceGetAttribute(&p->memoryClockRate, cudaDevAttrMemoryClockRate, device));
}

inline hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, const void* func)
{
    cudaFuncAttributes c;
    if (cudaError_t e = cudaFuncGetAttributes(&c, func); e != cudaSuccess) return hip_from_cuda(e);
    *attr = hipFuncAttributes{
        c.binaryVersion,      c.cacheModeCA, c.constSizeBytes,         c.localSizeBytes, c.maxDynamicSharedSizeBytes,
        c.maxThreadsPerBlock, c.numRegs,     c.preferredShmemCarveout, c.ptxVersion,     c.sharedSizeBytes};
    return hipSuccess;
}
template <class F> inline hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, F* func)
{
    return hipFuncGetAttributes(attr, reinterpret_cast<const void*>(func));
}

inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func, int block_size,
                                                               size_t dynamic_shared_bytes)
{
    return hip_from_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, func, block_size, dynamic_shared_bytes));
}
template <class F>
inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, F* func, int block_size,
                                                               size_t dynamic_shared_bytes)
{
    return hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, reinterpret_cast<const void*>(func), block_size,
                                                        dynamic_shared_bytes);
}

inline hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attribute, int device)
{
    cudaDeviceAttr a;
    switch (attribute) {
    case hipDeviceAttributeMaxThreadsPerBlock:
        a = cudaDevAttrMaxThreadsPerBlock;
        break;
    case hipDeviceAttributeWarpSize:
        a = cudaDevAttrWarpSize;
        break;
    case hipDeviceAttributeMultiprocessorCount:
        a = cudaDevAttrMultiProcessorCount;
        break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock:
        a = cudaDevAttrMaxSharedMemoryPerBlock;
        break;
    case hipDeviceAttributeCooperativeLaunch:
        a = cudaDevAttrCooperativeLaunch;
        break;
    case hipDeviceAttributeComputeCapabilityMajor:
        a = cudaDevAttrComputeCapabilityMajor;
        break;
    case hipDeviceAttributeComputeCapabilityMinor:
        a = cudaDevAttrComputeCapabilityMinor;
        break;
    case hipDeviceAttributeClockRate:
        a = cudaDevAttrClockRate;
        break;
    case hipDeviceAttributeL2CacheSize:
        a = cudaDevAttrL2CacheSize;
        break;
    case hipDeviceAttributeMaxBlockDimX:
        a = cudaDevAttrMaxBlockDimX;
        break;
    case hipDeviceAttributeMaxGridDimX:
        a = cudaDevAttrMaxGridDimX;
        break;
    case hipDeviceAttributeConcurrentManagedAccess:
        a = cudaDevAttrConcurrentManagedAccess;
        break;
    default:
        return hipErrorInvalidValue;
    }
    return hip_from_cuda(cudaDeviceGetAttribute(value, a, device));
}
template <class F>
inline hipError_t hipOccupancyMaxPotentialBlockSize(int* grid_size, int* block_size, F func,
                                                    size_t dynamic_shared_bytes = 0, int block_size_limit = 0)
{
    return hip_from_cuda(
        cudaOccupancyMaxPotentialBlockSize(grid_size, block_size, func, dynamic_shared_bytes, block_size_limit));
}
template <class F>
inline hipError_t hipLaunchCooperativeKernel(F* kernel, dim3 grid, dim3 block, void** args, size_t shared_bytes = 0,
                                             hipStream_t stream = 0)
{
    return hip_from_cuda(cudaLaunchCooperativeKernel(kernel, grid, block, args, shared_bytes, stream));
}

// ---- symbols: HIP_SYMBOL is the variable itself on CUDA ------------------------------------------
#define HIP_SYMBOL(X) X
template <class T>
inline hipError_t hipMemcpyToSymbol(const T& symbol, const void* src, size_t bytes, size_t offset = 0,
                                    hipMemcpyKind kind = hipMemcpyHostToDevice)
{
    return hip_from_cuda(cudaMemcpyToSymbol(symbol, src, bytes, offset, cudaMemcpyKind(kind)));
}
template <class T>
inline hipError_t hipMemcpyFromSymbol(void* dst, const T& symbol, size_t bytes, size_t offset = 0,
                                      hipMemcpyKind kind = hipMemcpyDeviceToHost)
{
    return hip_from_cuda(cudaMemcpyFromSymbol(dst, symbol, bytes, offset, cudaMemcpyKind(kind)));
}
template <class T>
inline hipError_t hipMemcpyToSymbolAsync(const T& symbol, const void* src, size_t bytes, size_t offset,
                                         hipMemcpyKind kind, hipStream_t stream = 0)
{
    return hip_from_cuda(cudaMemcpyToSymbolAsync(symbol, src, bytes, offset, cudaMemcpyKind(kind), stream));
}
template <class T>
inline hipError_t hipMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t bytes, size_t offset, hipMemcpyKind kind,
                                           hipStream_t stream = 0)
{
    return hip_from_cuda(cudaMemcpyFromSymbolAsync(dst, symbol, bytes, offset, cudaMemcpyKind(kind), stream));
}
template <class T> inline hipError_t hipGetSymbolAddress(void** address, const T& symbol)
{
    return hip_from_cuda(cudaGetSymbolAddress(address, symbol));
}
template <class T> inline hipError_t hipGetSymbolSize(size_t* size, const T& symbol)
{
    return hip_from_cuda(cudaGetSymbolSize(size, symbol));
}

/// HIP's launch macro, as HIP's NVIDIA header has it: nvcc's triple chevrons (the kernel's template
/// arguments may be left to the call's arguments; a template-id with commas needs HIP_KERNEL_NAME).
#define hipLaunchKernelGGL(kernel, grid, block, shared_bytes, stream, ...)                                             \
    kernel<<<(grid), (block), (shared_bytes), (stream)>>>(__VA_ARGS__)
#define HIP_KERNEL_NAME(...) __VA_ARGS__
/// Dynamic shared memory. One extern array for every kernel of a file, so that kernels asking for
/// different element types do not redeclare it.
#define HIP_DYNAMIC_SHARED(type, var)                                                                                  \
    extern __shared__ __align__(16) unsigned char hip_dynamic_shared_memory[];                                         \
    type* var = reinterpret_cast<type*>(hip_dynamic_shared_memory)

// ---- device functions (nvcc only) -------------------------------------------------------------
#if defined(__CUDACC__)
// Warp collectives follow HIP on AMD: the lanes taking part are those active at the call
// (__activemask()), so a collective inside a branch counts only the lanes that took it.
// __ballot returns 64 bits, as in HIP; on a 32-wide warp the upper half is zero. CUDA still
// declares deprecated collectives of these names, so HIP's names are macros onto these.
__device__ inline unsigned long long hip_nvidia_ballot(int predicate)
{
    return __ballot_sync(__activemask(), predicate);
}
__device__ inline int hip_nvidia_any(int predicate) { return __any_sync(__activemask(), predicate); }
__device__ inline int hip_nvidia_all(int predicate) { return __all_sync(__activemask(), predicate); }
template <class T> __device__ inline T hip_nvidia_shfl(T var, int src_lane, int width = warpSize)
{
    return __shfl_sync(__activemask(), var, src_lane, width);
}
template <class T> __device__ inline T hip_nvidia_shfl_up(T var, unsigned delta, int width = warpSize)
{
    return __shfl_up_sync(__activemask(), var, delta, width);
}
template <class T> __device__ inline T hip_nvidia_shfl_down(T var, unsigned delta, int width = warpSize)
{
    return __shfl_down_sync(__activemask(), var, delta, width);
}
template <class T> __device__ inline T hip_nvidia_shfl_xor(T var, int lane_mask, int width = warpSize)
{
    return __shfl_xor_sync(__activemask(), var, lane_mask, width);
}
// libcu++ (under CUB and Thrust) has a struct named __any; let it be read before the macros exist.
#include <cuda/std/functional>
#define __ballot(...) hip_nvidia_ballot(__VA_ARGS__)
#define __any(...) hip_nvidia_any(__VA_ARGS__)
#define __all(...) hip_nvidia_all(__VA_ARGS__)
#define __shfl(...) hip_nvidia_shfl(__VA_ARGS__)
#define __shfl_up(...) hip_nvidia_shfl_up(__VA_ARGS__)
#define __shfl_down(...) hip_nvidia_shfl_down(__VA_ARGS__)
#define __shfl_xor(...) hip_nvidia_shfl_xor(__VA_ARGS__)
__device__ inline unsigned __lane_id()
{
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
}
// __popc __popcll __ffs __ffsll __clz __clzll, __syncthreads __threadfence, the atomics and the
// vector types (int4, make_int4, ...) are CUDA's own, with HIP's names.
#endif                            // __CUDACC__
#include <hip/hip_device_extra.h> // HIP device functions CUDA lacks (atomics, bit fields, ...)
#include <hip/hip_runtime_more.h> // peer access, events, streams, 2-D memory, arrays, textures, surfaces
