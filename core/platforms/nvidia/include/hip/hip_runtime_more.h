// wavebench HIP on CUDA, continued (hip_runtime.h includes it at its end): peer access, more of the
// events, streams and device calls, pitched and managed memory, arrays, texture and surface
// objects, graphs and stream capture, kept in step with the cpu platform. HIP's types are CUDA's; where a HIP program
// names a type with its tag (`struct hipResourceDesc`), the name is a macro onto CUDA's, as in ROCm's own layer. The
// device side (tex2D<T>, surf2Dwrite ...) is CUDA's, with HIP's names.
#pragma once

#include <cuda_runtime.h>

static_assert(int(hipErrorInvalidPitchValue) == int(cudaErrorInvalidPitchValue) &&
                  int(hipErrorPeerAccessUnsupported) == int(cudaErrorPeerAccessUnsupported) &&
                  int(hipErrorPeerAccessAlreadyEnabled) == int(cudaErrorPeerAccessAlreadyEnabled) &&
                  int(hipErrorPeerAccessNotEnabled) == int(cudaErrorPeerAccessNotEnabled),
              "HIP error values must equal CUDA's");
static_assert(int(hipErrorIllegalState) == int(cudaErrorIllegalState) &&
                  int(hipErrorStreamCaptureUnsupported) == int(cudaErrorStreamCaptureUnsupported) &&
                  int(hipErrorStreamCaptureInvalidated) == int(cudaErrorStreamCaptureInvalidated) &&
                  int(hipErrorStreamCaptureMerge) == int(cudaErrorStreamCaptureMerge) &&
                  int(hipErrorStreamCaptureUnmatched) == int(cudaErrorStreamCaptureUnmatched) &&
                  int(hipErrorStreamCaptureUnjoined) == int(cudaErrorStreamCaptureUnjoined) &&
                  int(hipErrorStreamCaptureIsolation) == int(cudaErrorStreamCaptureIsolation) &&
                  int(hipErrorStreamCaptureImplicit) == int(cudaErrorStreamCaptureImplicit) &&
                  int(hipErrorCapturedEvent) == int(cudaErrorCapturedEvent) &&
                  int(hipErrorStreamCaptureWrongThread) == int(cudaErrorStreamCaptureWrongThread),
              "HIP error values must equal CUDA's");

// ---- peer access ------------------------------------------------------------------------------------
inline hipError_t hipDeviceEnablePeerAccess(int peer_device, unsigned flags)
{
    return hip_from_cuda(cudaDeviceEnablePeerAccess(peer_device, flags));
}
inline hipError_t hipDeviceDisablePeerAccess(int peer_device)
{
    return hip_from_cuda(cudaDeviceDisablePeerAccess(peer_device));
}
inline hipError_t hipMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, size_t bytes)
{
    return hip_from_cuda(cudaMemcpyPeer(dst, dst_device, src, src_device, bytes));
}
inline hipError_t hipMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t bytes,
                                     hipStream_t stream = 0)
{
    return hip_from_cuda(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, stream));
}

// ---- events and streams -----------------------------------------------------------------------------
#define hipEventDefault cudaEventDefault
#define hipEventBlockingSync cudaEventBlockingSync
#define hipEventDisableTiming cudaEventDisableTiming
#define hipEventInterprocess cudaEventInterprocess
inline hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags)
{
    return hip_from_cuda(cudaEventCreateWithFlags(event, flags));
}
inline hipError_t hipEventQuery(hipEvent_t event) { return hip_from_cuda(cudaEventQuery(event)); }
inline hipError_t hipStreamQuery(hipStream_t stream) { return hip_from_cuda(cudaStreamQuery(stream)); }
inline hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned flags = 0)
{
    return hip_from_cuda(cudaStreamWaitEvent(stream, event, flags));
}

/// HIP's stream callback takes a hipError_t: CUDA's calls it through this record of it.
typedef void (*hipStreamCallback_t)(hipStream_t stream, hipError_t status, void* user_data);
struct hip_nvidia_stream_callback {
    hipStreamCallback_t callback;
    void* user_data;
    static void CUDART_CB run(cudaStream_t stream, cudaError_t status, void* self)
    {
        const hip_nvidia_stream_callback c = *static_cast<hip_nvidia_stream_callback*>(self);
        delete static_cast<hip_nvidia_stream_callback*>(self);
        c.callback(stream, hip_from_cuda(status), c.user_data);
    }
};
inline hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void* user_data,
                                       unsigned flags)
{
    if (!callback) return hipErrorInvalidValue;
    hip_nvidia_stream_callback* c = new hip_nvidia_stream_callback{callback, user_data};
    const cudaError_t e = cudaStreamAddCallback(stream, hip_nvidia_stream_callback::run, c, flags);
    if (e != cudaSuccess) delete c;
    return hip_from_cuda(e);
}
typedef cudaHostFn_t hipHostFn_t;
inline hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* user_data)
{
    return hip_from_cuda(cudaLaunchHostFunc(stream, fn, user_data));
}

// ---- the device ---------------------------------------------------------------------------------------
inline hipError_t hipDeviceReset() { return hip_from_cuda(cudaDeviceReset()); }
#define hipFuncCache_t cudaFuncCache
#define hipFuncCachePreferNone cudaFuncCachePreferNone
#define hipFuncCachePreferShared cudaFuncCachePreferShared
#define hipFuncCachePreferL1 cudaFuncCachePreferL1
#define hipFuncCachePreferEqual cudaFuncCachePreferEqual
inline hipError_t hipDeviceSetCacheConfig(hipFuncCache_t config)
{
    return hip_from_cuda(cudaDeviceSetCacheConfig(config));
}
inline hipError_t hipDeviceGetCacheConfig(hipFuncCache_t* config)
{
    return hip_from_cuda(cudaDeviceGetCacheConfig(config));
}
inline hipError_t hipFuncSetCacheConfig(const void* func, hipFuncCache_t config)
{
    return hip_from_cuda(cudaFuncSetCacheConfig(func, config));
}
template <class F> inline hipError_t hipFuncSetCacheConfig(F* func, hipFuncCache_t config)
{
    return hipFuncSetCacheConfig(reinterpret_cast<const void*>(func), config);
}
/// Shared memory banks: CUDA 13 deprecates their configuration, which has no effect since Volta
/// (4-byte banks): accepted, as on the cpu platform.
typedef enum hipSharedMemConfig {
    hipSharedMemBankSizeDefault,
    hipSharedMemBankSizeFourByte,
    hipSharedMemBankSizeEightByte,
} hipSharedMemConfig;
inline hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig config)
{
    return config >= hipSharedMemBankSizeDefault && config <= hipSharedMemBankSizeEightByte ? hipSuccess
                                                                                            : hipErrorInvalidValue;
}
inline hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig* config)
{
    if (!config) return hipErrorInvalidValue;
    *config = hipSharedMemBankSizeFourByte;
    return hipSuccess;
}
#define hipFuncAttribute cudaFuncAttribute
#define hipFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#define hipFuncAttributePreferredSharedMemoryCarveout cudaFuncAttributePreferredSharedMemoryCarveout
inline hipError_t hipFuncSetAttribute(const void* func, hipFuncAttribute attribute, int value)
{
    return hip_from_cuda(cudaFuncSetAttribute(func, attribute, value));
}
template <class F> inline hipError_t hipFuncSetAttribute(F* func, hipFuncAttribute attribute, int value)
{
    return hipFuncSetAttribute(reinterpret_cast<const void*>(func), attribute, value);
}
#define hipDeviceScheduleAuto cudaDeviceScheduleAuto
#define hipDeviceScheduleSpin cudaDeviceScheduleSpin
#define hipDeviceScheduleYield cudaDeviceScheduleYield
#define hipDeviceScheduleBlockingSync cudaDeviceScheduleBlockingSync
#define hipDeviceScheduleMask cudaDeviceScheduleMask
#define hipDeviceMapHost cudaDeviceMapHost
#define hipDeviceLmemResizeToMax cudaDeviceLmemResizeToMax
inline hipError_t hipGetDeviceFlags(unsigned* flags) { return hip_from_cuda(cudaGetDeviceFlags(flags)); }
inline hipError_t hipSetDeviceFlags(unsigned flags) { return hip_from_cuda(cudaSetDeviceFlags(flags)); }
inline hipError_t hipDriverGetVersion(int* version) { return hip_from_cuda(cudaDriverGetVersion(version)); }
inline hipError_t hipRuntimeGetVersion(int* version) { return hip_from_cuda(cudaRuntimeGetVersion(version)); }

// ---- managed and pitched memory, 2-D copies and fills ----------------------------------------------------
#define hipMemAttachGlobal cudaMemAttachGlobal
#define hipMemAttachHost cudaMemAttachHost
#define hipMemAttachSingle cudaMemAttachSingle
typedef void* hipDeviceptr_t;
inline hipError_t hipMallocManaged(void** ptr, size_t bytes, unsigned flags = hipMemAttachGlobal)
{
    return hip_from_cuda(cudaMallocManaged(ptr, bytes, flags));
}
template <class T> inline hipError_t hipMallocManaged(T** ptr, size_t bytes, unsigned flags = hipMemAttachGlobal)
{
    return hipMallocManaged(reinterpret_cast<void**>(ptr), bytes, flags);
}
inline hipError_t hipMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height)
{
    return hip_from_cuda(cudaMallocPitch(ptr, pitch, width, height));
}
template <class T> inline hipError_t hipMallocPitch(T** ptr, size_t* pitch, size_t width, size_t height)
{
    return hipMallocPitch(reinterpret_cast<void**>(ptr), pitch, width, height);
}
inline hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                              hipMemcpyKind kind)
{
    return hip_from_cuda(cudaMemcpy2D(dst, dpitch, src, spitch, width, height, cudaMemcpyKind(kind)));
}
inline hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                   size_t height, hipMemcpyKind kind, hipStream_t stream = 0)
{
    return hip_from_cuda(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, cudaMemcpyKind(kind), stream));
}
inline hipError_t hipMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height)
{
    return hip_from_cuda(cudaMemset2D(dst, pitch, value, width, height));
}
inline hipError_t hipMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height,
                                   hipStream_t stream = 0)
{
    return hip_from_cuda(cudaMemset2DAsync(dst, pitch, value, width, height, stream));
}
inline hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count)
{
    return hip_from_cuda(cudaMemset(dst, value, count));
}
inline hipError_t hipMemsetD8Async(hipDeviceptr_t dst, unsigned char value, size_t count, hipStream_t stream = 0)
{
    return hip_from_cuda(cudaMemsetAsync(dst, value, count, stream));
}
#if defined(__CUDACC__)
// 16- and 32-bit fills are the driver API's (cuMemsetD16/D32): a kernel does them here, so that
// programs link the runtime only.
template <class T> __global__ void hip_nvidia_fill(T* dst, T value, size_t count)
{
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x)
        dst[i] = value;
}
template <class T> inline hipError_t hip_nvidia_fill_n(void* dst, T value, size_t count, hipStream_t stream)
{
    if (count == 0) return hipSuccess;
    if (!dst) return hipErrorInvalidValue;
    const size_t blocks = (count + 255) / 256;
    hip_nvidia_fill<T><<<unsigned(blocks < 4096 ? blocks : 4096), 256, 0, stream>>>(static_cast<T*>(dst), value, count);
    return hip_from_cuda(cudaGetLastError());
}
inline hipError_t hipMemsetD16Async(hipDeviceptr_t dst, unsigned short value, size_t count, hipStream_t stream = 0)
{
    return hip_nvidia_fill_n(dst, value, count, stream);
}
inline hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t stream = 0)
{
    return hip_nvidia_fill_n(dst, value, count, stream);
}
// The forms without a stream wait for the fill: the host may read the memory right after.
inline hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value, size_t count)
{
    const hipError_t e = hipMemsetD16Async(dst, value, count, 0);
    return e != hipSuccess ? e : hip_from_cuda(cudaStreamSynchronize(0));
}
inline hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count)
{
    const hipError_t e = hipMemsetD32Async(dst, value, count, 0);
    return e != hipSuccess ? e : hip_from_cuda(cudaStreamSynchronize(0));
}
#endif // __CUDACC__

// ---- channels and arrays ---------------------------------------------------------------------------------
#define hipChannelFormatKind cudaChannelFormatKind
#define hipChannelFormatKindSigned cudaChannelFormatKindSigned
#define hipChannelFormatKindUnsigned cudaChannelFormatKindUnsigned
#define hipChannelFormatKindFloat cudaChannelFormatKindFloat
#define hipChannelFormatKindNone cudaChannelFormatKindNone
#define hipChannelFormatDesc cudaChannelFormatDesc
inline hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f)
{
    return cudaCreateChannelDesc(x, y, z, w, f);
}
template <class T> inline hipChannelFormatDesc hipCreateChannelDesc() { return cudaCreateChannelDesc<T>(); }
inline hipChannelFormatDesc hipCreateChannelDescHalf() { return cudaCreateChannelDescHalf(); }
inline hipChannelFormatDesc hipCreateChannelDescHalf1() { return cudaCreateChannelDescHalf1(); }
inline hipChannelFormatDesc hipCreateChannelDescHalf2() { return cudaCreateChannelDescHalf2(); }
inline hipChannelFormatDesc hipCreateChannelDescHalf4() { return cudaCreateChannelDescHalf4(); }

#define hipArrayDefault cudaArrayDefault
#define hipArrayLayered cudaArrayLayered
#define hipArraySurfaceLoadStore cudaArraySurfaceLoadStore
#define hipArrayCubemap cudaArrayCubemap
#define hipArrayTextureGather cudaArrayTextureGather
#define hipTextureType1D cudaTextureType1D
#define hipTextureType2D cudaTextureType2D
#define hipTextureType3D cudaTextureType3D
#define hipTextureTypeCubemap cudaTextureTypeCubemap
#define hipTextureType1DLayered cudaTextureType1DLayered
#define hipTextureType2DLayered cudaTextureType2DLayered
#define hipArray cudaArray
typedef cudaArray_t hipArray_t;
typedef cudaArray_const_t hipArray_const_t;
typedef cudaMipmappedArray_t hipMipmappedArray_t;
typedef cudaMipmappedArray_const_t hipMipmappedArray_const_t;
#define hipExtent cudaExtent
#define hipPos cudaPos
#define hipPitchedPtr cudaPitchedPtr
inline hipExtent make_hipExtent(size_t w, size_t h, size_t d) { return make_cudaExtent(w, h, d); }
inline hipPos make_hipPos(size_t x, size_t y, size_t z) { return make_cudaPos(x, y, z); }
inline hipPitchedPtr make_hipPitchedPtr(void* ptr, size_t pitch, size_t xsize, size_t ysize)
{
    return make_cudaPitchedPtr(ptr, pitch, xsize, ysize);
}
/// CUDA's fields, with HIP's copy direction (cudaMemcpy3DParms would not take a hipMemcpyKind).
typedef struct hipMemcpy3DParms {
    hipArray_t srcArray;
    hipPos srcPos;
    hipPitchedPtr srcPtr;
    hipArray_t dstArray;
    hipPos dstPos;
    hipPitchedPtr dstPtr;
    hipExtent extent;
    hipMemcpyKind kind;
} hipMemcpy3DParms;

inline hipError_t hipMallocArray(hipArray_t* array, const hipChannelFormatDesc* desc, size_t width, size_t height = 0,
                                 unsigned flags = hipArrayDefault)
{
    return hip_from_cuda(cudaMallocArray(array, desc, width, height, flags));
}
inline hipError_t hipMalloc3DArray(hipArray_t* array, const hipChannelFormatDesc* desc, hipExtent extent,
                                   unsigned flags)
{
    return hip_from_cuda(cudaMalloc3DArray(array, desc, extent, flags));
}
inline hipError_t hipFreeArray(hipArray_t array) { return hip_from_cuda(cudaFreeArray(array)); }
inline hipError_t hipArrayGetInfo(hipChannelFormatDesc* desc, hipExtent* extent, unsigned* flags, hipArray_t array)
{
    return hip_from_cuda(cudaArrayGetInfo(desc, extent, flags, array));
}
inline hipError_t hipGetChannelDesc(hipChannelFormatDesc* desc, hipArray_const_t array)
{
    return hip_from_cuda(cudaGetChannelDesc(desc, array));
}
inline hipError_t hipMemcpy2DToArray(hipArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t spitch,
                                     size_t width, size_t height, hipMemcpyKind kind)
{
    return hip_from_cuda(
        cudaMemcpy2DToArray(dst, w_offset, h_offset, src, spitch, width, height, cudaMemcpyKind(kind)));
}
inline hipError_t hipMemcpy2DToArrayAsync(hipArray_t dst, size_t w_offset, size_t h_offset, const void* src,
                                          size_t spitch, size_t width, size_t height, hipMemcpyKind kind,
                                          hipStream_t stream = 0)
{
    return hip_from_cuda(
        cudaMemcpy2DToArrayAsync(dst, w_offset, h_offset, src, spitch, width, height, cudaMemcpyKind(kind), stream));
}
inline hipError_t hipMemcpy2DFromArray(void* dst, size_t dpitch, hipArray_const_t src, size_t w_offset, size_t h_offset,
                                       size_t width, size_t height, hipMemcpyKind kind)
{
    return hip_from_cuda(
        cudaMemcpy2DFromArray(dst, dpitch, src, w_offset, h_offset, width, height, cudaMemcpyKind(kind)));
}
inline hipError_t hipMemcpy2DFromArrayAsync(void* dst, size_t dpitch, hipArray_const_t src, size_t w_offset,
                                            size_t h_offset, size_t width, size_t height, hipMemcpyKind kind,
                                            hipStream_t stream = 0)
{
    return hip_from_cuda(
        cudaMemcpy2DFromArrayAsync(dst, dpitch, src, w_offset, h_offset, width, height, cudaMemcpyKind(kind), stream));
}

/// A linear copy of `bytes` into (or out of) an array from byte `x` of row `y` on, row after row:
/// CUDA 13 deprecates cudaMemcpyToArray, so it is made of 2-D copies (the first row's rest, the
/// whole rows, the last row's start).
inline hipError_t hip_nvidia_array_span(hipArray_t array, size_t x, size_t y, void* memory, size_t bytes,
                                        hipMemcpyKind kind, bool to_array)
{
    cudaChannelFormatDesc d;
    cudaExtent e;
    unsigned flags = 0;
    if (const cudaError_t r = cudaArrayGetInfo(&d, &e, &flags, array); r != cudaSuccess) return hip_from_cuda(r);
    const size_t row = e.width * size_t((d.x + d.y + d.z + d.w) / 8);
    unsigned char* p = static_cast<unsigned char*>(memory);
    while (bytes > 0) {
        if (x >= row) return hipErrorInvalidValue;
        const size_t whole = x == 0 ? bytes / row : 0, width = whole ? row : (bytes < row - x ? bytes : row - x);
        const size_t height = whole ? whole : 1;
        const hipError_t r = to_array ? hipMemcpy2DToArray(array, x, y, p, width, width, height, kind)
                                      : hipMemcpy2DFromArray(p, width, array, x, y, width, height, kind);
        if (r != hipSuccess) return r;
        p += width * height, bytes -= width * height, y += height, x = (x + width) % row;
    }
    return hipSuccess;
}
inline hipError_t hipMemcpyToArray(hipArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t bytes,
                                   hipMemcpyKind kind)
{
    return hip_nvidia_array_span(dst, w_offset, h_offset, const_cast<void*>(src), bytes, kind, true);
}
inline hipError_t hipMemcpyFromArray(void* dst, hipArray_const_t src, size_t w_offset, size_t h_offset, size_t bytes,
                                     hipMemcpyKind kind)
{
    return hip_nvidia_array_span(const_cast<hipArray_t>(src), w_offset, h_offset, dst, bytes, kind, false);
}
inline hipError_t hipMemcpy3D(const hipMemcpy3DParms* p)
{
    if (!p) return hipErrorInvalidValue;
    cudaMemcpy3DParms c = {};
    c.srcArray = p->srcArray, c.srcPos = p->srcPos, c.srcPtr = p->srcPtr;
    c.dstArray = p->dstArray, c.dstPos = p->dstPos, c.dstPtr = p->dstPtr;
    c.extent = p->extent, c.kind = cudaMemcpyKind(p->kind);
    return hip_from_cuda(cudaMemcpy3D(&c));
}
inline hipError_t hipMemcpy3DAsync(const hipMemcpy3DParms* p, hipStream_t stream = 0)
{
    if (!p) return hipErrorInvalidValue;
    cudaMemcpy3DParms c = {};
    c.srcArray = p->srcArray, c.srcPos = p->srcPos, c.srcPtr = p->srcPtr;
    c.dstArray = p->dstArray, c.dstPos = p->dstPos, c.dstPtr = p->dstPtr;
    c.extent = p->extent, c.kind = cudaMemcpyKind(p->kind);
    return hip_from_cuda(cudaMemcpy3DAsync(&c, stream));
}
inline hipError_t hipMalloc3D(hipPitchedPtr* pitched, hipExtent extent)
{
    return hip_from_cuda(cudaMalloc3D(pitched, extent));
}

// ---- texture and surface objects ---------------------------------------------------------------------------
#define hipResourceType cudaResourceType
#define hipResourceTypeArray cudaResourceTypeArray
#define hipResourceTypeMipmappedArray cudaResourceTypeMipmappedArray
#define hipResourceTypeLinear cudaResourceTypeLinear
#define hipResourceTypePitch2D cudaResourceTypePitch2D
#define hipResourceDesc cudaResourceDesc
#define hipResourceViewDesc cudaResourceViewDesc
#define hipResourceViewFormat cudaResourceViewFormat
#define hipResViewFormatNone cudaResViewFormatNone
#define hipTextureAddressMode cudaTextureAddressMode
#define hipAddressModeWrap cudaAddressModeWrap
#define hipAddressModeClamp cudaAddressModeClamp
#define hipAddressModeMirror cudaAddressModeMirror
#define hipAddressModeBorder cudaAddressModeBorder
#define hipTextureFilterMode cudaTextureFilterMode
#define hipFilterModePoint cudaFilterModePoint
#define hipFilterModeLinear cudaFilterModeLinear
#define hipTextureReadMode cudaTextureReadMode
#define hipReadModeElementType cudaReadModeElementType
#define hipReadModeNormalizedFloat cudaReadModeNormalizedFloat
#define hipTextureDesc cudaTextureDesc
typedef cudaTextureObject_t hipTextureObject_t;
#define hipSurfaceBoundaryMode cudaSurfaceBoundaryMode
#define hipBoundaryModeZero cudaBoundaryModeZero
#define hipBoundaryModeTrap cudaBoundaryModeTrap
#define hipBoundaryModeClamp cudaBoundaryModeClamp
typedef cudaSurfaceObject_t hipSurfaceObject_t;

inline hipError_t hipCreateTextureObject(hipTextureObject_t* texture, const hipResourceDesc* resource,
                                         const hipTextureDesc* sampler, const hipResourceViewDesc* view)
{
    return hip_from_cuda(cudaCreateTextureObject(texture, resource, sampler, view));
}
inline hipError_t hipDestroyTextureObject(hipTextureObject_t texture)
{
    return hip_from_cuda(cudaDestroyTextureObject(texture));
}
inline hipError_t hipGetTextureObjectResourceDesc(hipResourceDesc* resource, hipTextureObject_t texture)
{
    return hip_from_cuda(cudaGetTextureObjectResourceDesc(resource, texture));
}
inline hipError_t hipGetTextureObjectTextureDesc(hipTextureDesc* sampler, hipTextureObject_t texture)
{
    return hip_from_cuda(cudaGetTextureObjectTextureDesc(sampler, texture));
}
inline hipError_t hipCreateSurfaceObject(hipSurfaceObject_t* surface, const hipResourceDesc* resource)
{
    return hip_from_cuda(cudaCreateSurfaceObject(surface, resource));
}
inline hipError_t hipDestroySurfaceObject(hipSurfaceObject_t surface)
{
    return hip_from_cuda(cudaDestroySurfaceObject(surface));
}
// The fetches (tex1Dfetch<T>, tex1D<T>, tex2D<T>, tex3D<T>, tex1DLayered<T>, tex2DLayered<T>, their
// ...Lod forms and the forms that store through a pointer) and the surface reads and writes
// (surf1Dread ... surf2DLayeredwrite, x in bytes) are CUDA's, of the same names. A surface access
// out of bounds traps by default on CUDA (the cpu platform and HIP on AMD read zero by default).

// ---- graphs and stream capture ------------------------------------------------------------------------
typedef cudaGraph_t hipGraph_t;
typedef cudaGraphExec_t hipGraphExec_t;
typedef cudaGraphNode_t hipGraphNode_t;
#define hipStreamCaptureMode cudaStreamCaptureMode
#define hipStreamCaptureModeGlobal cudaStreamCaptureModeGlobal
#define hipStreamCaptureModeThreadLocal cudaStreamCaptureModeThreadLocal
#define hipStreamCaptureModeRelaxed cudaStreamCaptureModeRelaxed
#define hipStreamCaptureStatus cudaStreamCaptureStatus
#define hipStreamCaptureStatusNone cudaStreamCaptureStatusNone
#define hipStreamCaptureStatusActive cudaStreamCaptureStatusActive
#define hipStreamCaptureStatusInvalidated cudaStreamCaptureStatusInvalidated
#define hipGraphInstantiateFlagAutoFreeOnLaunch cudaGraphInstantiateFlagAutoFreeOnLaunch
#define hipGraphInstantiateFlagUpload cudaGraphInstantiateFlagUpload
#define hipGraphInstantiateFlagDeviceLaunch cudaGraphInstantiateFlagDeviceLaunch
#define hipGraphInstantiateFlagUseNodePriority cudaGraphInstantiateFlagUseNodePriority
#define hipKernelNodeParams cudaKernelNodeParams
inline hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode)
{
    return hip_from_cuda(cudaStreamBeginCapture(stream, mode));
}
inline hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t* graph)
{
    return hip_from_cuda(cudaStreamEndCapture(stream, graph));
}
inline hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus* status)
{
    return hip_from_cuda(cudaStreamIsCapturing(stream, status));
}
inline hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus* status,
                                          unsigned long long* id = nullptr)
{
    return hip_from_cuda(cudaStreamGetCaptureInfo(stream, status, id));
}
inline hipError_t hipGraphCreate(hipGraph_t* graph, unsigned flags)
{
    return hip_from_cuda(cudaGraphCreate(graph, flags));
}
inline hipError_t hipGraphDestroy(hipGraph_t graph) { return hip_from_cuda(cudaGraphDestroy(graph)); }
inline hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t* nodes, size_t* count)
{
    return hip_from_cuda(cudaGraphGetNodes(graph, nodes, count));
}
/// HIP's form (CUDA's before 12, which CUDA 12 replaced by one with flags): the error node and the
/// log are filled as CUDA 12's instantiation leaves them, with nothing.
inline hipError_t hipGraphInstantiate(hipGraphExec_t* exec, hipGraph_t graph, hipGraphNode_t* error_node, char* log,
                                      size_t log_bytes)
{
#if CUDART_VERSION >= 12000
    if (error_node) *error_node = nullptr;
    if (log && log_bytes > 0) log[0] = '\0';
    return hip_from_cuda(cudaGraphInstantiate(exec, graph, 0));
#else
    return hip_from_cuda(cudaGraphInstantiate(exec, graph, error_node, log, log_bytes));
#endif
}
inline hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t* exec, hipGraph_t graph, unsigned long long flags)
{
    return hip_from_cuda(cudaGraphInstantiateWithFlags(exec, graph, flags));
}
inline hipError_t hipGraphLaunch(hipGraphExec_t exec, hipStream_t stream)
{
    return hip_from_cuda(cudaGraphLaunch(exec, stream));
}
inline hipError_t hipGraphExecDestroy(hipGraphExec_t exec) { return hip_from_cuda(cudaGraphExecDestroy(exec)); }
inline hipError_t hipGraphAddKernelNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* dependencies,
                                        size_t count, const hipKernelNodeParams* params)
{
    return hip_from_cuda(cudaGraphAddKernelNode(node, graph, dependencies, count, params));
}

// ---- prefetching managed memory (CUDA 13 names the place as a cudaMemLocation) -------------------------
#define hipCpuDeviceId cudaCpuDeviceId
#define hipInvalidDeviceId cudaInvalidDeviceId
inline hipError_t hipMemPrefetchAsync(const void* ptr, size_t bytes, int device, hipStream_t stream = 0)
{
#if CUDART_VERSION >= 13000
    cudaMemLocation where{};
    where.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    where.id = device == cudaCpuDeviceId ? 0 : device;
    return hip_from_cuda(cudaMemPrefetchAsync(ptr, bytes, where, 0, stream));
#else
    return hip_from_cuda(cudaMemPrefetchAsync(ptr, bytes, device, stream));
#endif
}
