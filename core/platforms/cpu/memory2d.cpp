// The CPU runtime's pitched memory and the copies and fills over it: hipMallocPitch, hipMalloc3D,
// hipMemcpy2D, hipMemset2D, hipMemsetD8/D16/D32, and managed memory (host memory, as all of it).
// Every call has finished when it returns, so the ...Async forms are the same calls, except on a
// capturing stream, where they are recorded (graphs.cpp) once their arguments are checked.
#include "graphs.h"
#include "runtime_common.h"

#include <cstdint>
#include <cstring>

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {
namespace {

/// Rows of pitched memory start 256 bytes apart at least, as hipMalloc aligns its memory.
constexpr size_t pitch_alignment = 256;

/// `width` rounded up to the pitch alignment; false when it does not fit a size_t.
bool pitch_of(size_t width, size_t& pitch)
{
    if (width > SIZE_MAX - (pitch_alignment - 1)) return false;
    pitch = (width + pitch_alignment - 1) / pitch_alignment * pitch_alignment;
    return true;
}

/// `count` copies of the `bytes`-byte value at `value` from `dst` on.
hipError_t fill(void* dst, const void* value, size_t bytes, size_t count)
{
    if (count == 0) return hipSuccess;
    if (!dst) return fail(hipErrorInvalidValue);
    unsigned char* p = static_cast<unsigned char*>(dst);
    for (size_t i = 0; i < count; ++i, p += bytes) std::memcpy(p, value, bytes);
    return hipSuccess;
}

} // namespace
} // namespace cpu_runtime
#pragma GCC visibility pop

using namespace cpu_runtime;

extern "C" {

hipError_t hipMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height)
{
    if (!ptr || !pitch) return fail(hipErrorInvalidValue);
    size_t p = 0;
    if (!pitch_of(width, p) || (height != 0 && p > SIZE_MAX / height)) return fail(hipErrorOutOfMemory);
    if (const hipError_t e = hipMalloc(ptr, p * height); e != hipSuccess) return e;
    *pitch = p;
    return hipSuccess;
}

hipError_t hipMalloc3D(hipPitchedPtr* pitched, hipExtent extent)
{
    if (!pitched) return fail(hipErrorInvalidValue);
    size_t pitch = 0;
    if (!pitch_of(extent.width, pitch)) return fail(hipErrorOutOfMemory);
    const size_t rows = extent.height * extent.depth;
    if ((extent.depth != 0 && extent.height > SIZE_MAX / extent.depth) || (rows != 0 && pitch > SIZE_MAX / rows))
        return fail(hipErrorOutOfMemory);
    void* ptr = nullptr;
    if (const hipError_t e = hipMalloc(&ptr, pitch * rows); e != hipSuccess) return e;
    *pitched = make_hipPitchedPtr(ptr, pitch, extent.width, extent.height);
    return hipSuccess;
}

hipError_t hipMallocManaged(void** ptr, size_t bytes, unsigned flags)
{
    if (!ptr || bytes == 0 || (flags != hipMemAttachGlobal && flags != hipMemAttachHost))
        return fail(hipErrorInvalidValue);
    return hipMalloc(ptr, bytes);
}

hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                       hipMemcpyKind kind)
{
    if (width == 0 || height == 0) return hipSuccess;
    if (!dst || !src) return fail(hipErrorInvalidValue);
    if (dpitch < width || spitch < width) return fail(hipErrorInvalidPitchValue);
    if (int(kind) < 0 || int(kind) > int(hipMemcpyDefault)) return fail(hipErrorInvalidMemcpyDirection);
    unsigned char* d = static_cast<unsigned char*>(dst);
    const unsigned char* s = static_cast<const unsigned char*>(src);
    for (size_t row = 0; row < height; ++row) std::memmove(d + row * dpitch, s + row * spitch, width);
    return hipSuccess;
}

hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                            hipMemcpyKind kind, hipStream_t stream)
{
    if (!capturing(stream) || width == 0 || height == 0)
        return hipMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
    if (!dst || !src) return fail(hipErrorInvalidValue);
    if (dpitch < width || spitch < width) return fail(hipErrorInvalidPitchValue);
    if (int(kind) < 0 || int(kind) > int(hipMemcpyDefault)) return fail(hipErrorInvalidMemcpyDirection);
    return capture(stream, [=](hipStream_t) { return hipMemcpy2D(dst, dpitch, src, spitch, width, height, kind); });
}

hipError_t hipMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height)
{
    if (width == 0 || height == 0) return hipSuccess;
    if (!dst || pitch < width) return fail(hipErrorInvalidValue);
    for (size_t row = 0; row < height; ++row) std::memset(static_cast<unsigned char*>(dst) + row * pitch, value, width);
    return hipSuccess;
}

hipError_t hipMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height, hipStream_t stream)
{
    if (!capturing(stream) || width == 0 || height == 0) return hipMemset2D(dst, pitch, value, width, height);
    if (!dst || pitch < width) return fail(hipErrorInvalidValue);
    return capture(stream, [=](hipStream_t) { return hipMemset2D(dst, pitch, value, width, height); });
}

hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count)
{
    return fill(dst, &value, sizeof value, count);
}

hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value, size_t count)
{
    return fill(dst, &value, sizeof value, count);
}

hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count) { return fill(dst, &value, sizeof value, count); }

hipError_t hipMemsetD8Async(hipDeviceptr_t dst, unsigned char value, size_t count, hipStream_t stream)
{
    if (!capturing(stream) || count == 0) return hipMemsetD8(dst, value, count);
    if (!dst) return fail(hipErrorInvalidValue);
    return capture(stream, [=](hipStream_t) { return hipMemsetD8(dst, value, count); });
}

hipError_t hipMemsetD16Async(hipDeviceptr_t dst, unsigned short value, size_t count, hipStream_t stream)
{
    if (!capturing(stream) || count == 0) return hipMemsetD16(dst, value, count);
    if (!dst) return fail(hipErrorInvalidValue);
    return capture(stream, [=](hipStream_t) { return hipMemsetD16(dst, value, count); });
}

hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t stream)
{
    if (!capturing(stream) || count == 0) return hipMemsetD32(dst, value, count);
    if (!dst) return fail(hipErrorInvalidValue);
    return capture(stream, [=](hipStream_t) { return hipMemsetD32(dst, value, count); });
}

} // extern "C"
