// The CPU runtime's arrays: elements row after row in host memory (rows without padding, then
// slices or layers), and the copies into and out of them (2-D, linear and 3-D).
#include "arrays.h"
#include "graphs.h"
#include "runtime_common.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {
namespace {

live_handles& arrays()
{
    static live_handles r;
    return r;
}

size_t rows_of(const hipArray& a) { return a.height ? a.height : 1; }
size_t slices_of(const hipArray& a) { return a.depth ? a.depth : 1; }

/// The array's type from its extent and flags; 0 when they do not make an array.
unsigned array_type(hipExtent e, unsigned flags)
{
    if (e.width == 0) return 0;
    if (flags & hipArrayLayered) return e.depth == 0 ? 0 : e.height ? hipTextureType2DLayered : hipTextureType1DLayered;
    if (e.depth) return e.height ? hipTextureType3D : 0;
    return e.height ? hipTextureType2D : hipTextureType1D;
}

/// One side of a 3-D copy: where its first row starts, and the bytes between rows and slices.
struct plane {
    unsigned char* base = nullptr;
    size_t pitch = 0, slice = 0;
};

/// The plane of an array (`pos` in elements) or of pitched memory (`pos.x` in bytes) that a copy of
/// `e` (x in `element_bytes`) reads or writes; hipErrorInvalidValue when it does not fit.
hipError_t plane_of(hipArray_t array, hipPitchedPtr ptr, hipPos pos, hipExtent e, size_t element_bytes, plane& out)
{
    const size_t row_bytes = e.width * element_bytes;
    if (array) {
        if (!live_array(array) || pos.x + e.width > array->width || pos.y + e.height > rows_of(*array) ||
            pos.z + e.depth > slices_of(*array))
            return fail(hipErrorInvalidValue);
        out.pitch = array->pitch, out.slice = array->slice_pitch;
        out.base = static_cast<unsigned char*>(array->data) + pos.z * out.slice + pos.y * out.pitch +
                   pos.x * array->element_bytes;
        return hipSuccess;
    }
    if (pos.x + row_bytes > ptr.pitch) return fail(hipErrorInvalidValue);
    out.pitch = ptr.pitch, out.slice = ptr.pitch * (ptr.ysize ? ptr.ysize : e.height);
    out.base = static_cast<unsigned char*>(ptr.ptr) + pos.z * out.slice + pos.y * out.pitch + pos.x;
    return hipSuccess;
}

/// Where a 2-D copy of `height` rows of `width` bytes at byte `x` of row `y` lands in the array.
hipError_t region(hipArray_const_t a, size_t x, size_t y, size_t width, size_t height, unsigned char*& at)
{
    if (!live_array(a) || x + width > a->pitch || y + height > rows_of(*a)) return fail(hipErrorInvalidValue);
    at = static_cast<unsigned char*>(a->data) + y * a->pitch + x;
    return hipSuccess;
}

/// Where a linear copy of `bytes` bytes from byte `x` of row `y` on lands in the array.
hipError_t span(hipArray_const_t a, size_t x, size_t y, size_t bytes, unsigned char*& at)
{
    if (!live_array(a) || x >= a->pitch || y >= rows_of(*a)) return fail(hipErrorInvalidValue);
    const size_t offset = y * a->pitch + x;
    if (bytes > a->slice_pitch * slices_of(*a) - offset) return fail(hipErrorInvalidValue);
    at = static_cast<unsigned char*>(a->data) + offset;
    return hipSuccess;
}

} // namespace

bool layout_of(const hipChannelFormatDesc& d, element_layout& layout)
{
    const int bits = d.x;
    const bool widths = d.f == hipChannelFormatKindFloat
                            ? bits == 16 || bits == 32
                            : (bits == 8 || bits == 16 || bits == 32) &&
                                  (d.f == hipChannelFormatKindSigned || d.f == hipChannelFormatKindUnsigned);
    if (!widths) return false;
    if (d.y == 0 && d.z == 0 && d.w == 0)
        layout.channels = 1;
    else if (d.y == bits && d.z == 0 && d.w == 0)
        layout.channels = 2;
    else if (d.y == bits && d.z == bits && d.w == bits)
        layout.channels = 4;
    else
        return false;
    layout.channel_bytes = unsigned(bits / 8);
    return true;
}

bool live_array(hipArray_const_t array) { return arrays().alive(array); }

} // namespace cpu_runtime
#pragma GCC visibility pop

using namespace cpu_runtime;

extern "C" {

hipError_t hipMalloc3DArray(hipArray_t* array, const hipChannelFormatDesc* desc, hipExtent extent, unsigned flags)
{
    element_layout layout;
    const unsigned known = hipArrayLayered | hipArraySurfaceLoadStore | hipArrayTextureGather | hipArrayCubemap;
    if (!array || !desc || !layout_of(*desc, layout) || (flags & ~known)) return fail(hipErrorInvalidValue);
    if (flags & hipArrayCubemap) return fail(hipErrorNotSupported);
    const unsigned type = array_type(extent, flags);
    if (type == 0 || extent.width > UINT32_MAX || extent.height > UINT32_MAX || extent.depth > UINT32_MAX)
        return fail(hipErrorInvalidValue);
    const size_t pitch = extent.width * layout.bytes(), rows = extent.height ? extent.height : 1;
    const size_t slices = extent.depth ? extent.depth : 1;
    if (pitch / layout.bytes() != extent.width || rows > SIZE_MAX / pitch || slices > SIZE_MAX / (pitch * rows) ||
        pitch * rows * slices > SIZE_MAX - 255)
        return fail(hipErrorOutOfMemory);
    const size_t bytes = pitch * rows * slices;
    void* data = std::aligned_alloc(256, (bytes + 255) & ~size_t(255));
    if (!data) return fail(hipErrorOutOfMemory);
    std::memset(data, 0, bytes);
    hipArray* a = new hipArray{};
    a->data = data;
    a->desc = *desc;
    a->type = type;
    a->width = unsigned(extent.width), a->height = unsigned(extent.height), a->depth = unsigned(extent.depth);
    a->flags = flags;
    a->element_bytes = layout.bytes(), a->pitch = pitch, a->slice_pitch = pitch * rows;
    arrays().add(a);
    *array = a;
    return hipSuccess;
}

hipError_t hipMallocArray(hipArray_t* array, const hipChannelFormatDesc* desc, size_t width, size_t height,
                          unsigned flags)
{
    if (flags & (hipArrayLayered | hipArrayCubemap)) return fail(hipErrorInvalidValue);
    return hipMalloc3DArray(array, desc, make_hipExtent(width, height, 0), flags);
}

hipError_t hipFreeArray(hipArray_t array)
{
    if (!array) return hipSuccess;
    if (!arrays().remove(array)) return fail(hipErrorInvalidValue);
    std::free(array->data);
    delete array;
    return hipSuccess;
}

hipError_t hipArrayGetInfo(hipChannelFormatDesc* desc, hipExtent* extent, unsigned* flags, hipArray_t array)
{
    if (!live_array(array)) return fail(hipErrorInvalidValue);
    if (desc) *desc = array->desc;
    if (extent) *extent = make_hipExtent(array->width, array->height, array->depth);
    if (flags) *flags = array->flags;
    return hipSuccess;
}

hipError_t hipGetChannelDesc(hipChannelFormatDesc* desc, hipArray_const_t array)
{
    if (!desc || !live_array(array)) return fail(hipErrorInvalidValue);
    *desc = array->desc;
    return hipSuccess;
}

hipError_t hipMemcpy2DToArray(hipArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t spitch,
                              size_t width, size_t height, hipMemcpyKind kind)
{
    unsigned char* at = nullptr;
    if (const hipError_t e = region(dst, w_offset, h_offset, width, height, at); e != hipSuccess) return e;
    return hipMemcpy2D(at, dst->pitch, src, spitch, width, height, kind);
}

hipError_t hipMemcpy2DToArrayAsync(hipArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t spitch,
                                   size_t width, size_t height, hipMemcpyKind kind, hipStream_t stream)
{
    if (capturing(stream)) { // recorded, once the region is checked
        unsigned char* at = nullptr;
        if (const hipError_t e = region(dst, w_offset, h_offset, width, height, at); e != hipSuccess) return e;
        return capture(stream, [=](hipStream_t) {
            return hipMemcpy2DToArray(dst, w_offset, h_offset, src, spitch, width, height, kind);
        });
    }
    return hipMemcpy2DToArray(dst, w_offset, h_offset, src, spitch, width, height, kind);
}

hipError_t hipMemcpyToArray(hipArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t bytes,
                            hipMemcpyKind kind)
{
    unsigned char* at = nullptr;
    if (const hipError_t e = span(dst, w_offset, h_offset, bytes, at); e != hipSuccess) return e;
    return hipMemcpy(at, src, bytes, kind);
}

hipError_t hipMemcpy2DFromArray(void* dst, size_t dpitch, hipArray_const_t src, size_t w_offset, size_t h_offset,
                                size_t width, size_t height, hipMemcpyKind kind)
{
    unsigned char* at = nullptr;
    if (const hipError_t e = region(src, w_offset, h_offset, width, height, at); e != hipSuccess) return e;
    return hipMemcpy2D(dst, dpitch, at, src->pitch, width, height, kind);
}

hipError_t hipMemcpy2DFromArrayAsync(void* dst, size_t dpitch, hipArray_const_t src, size_t w_offset, size_t h_offset,
                                     size_t width, size_t height, hipMemcpyKind kind, hipStream_t stream)
{
    if (capturing(stream)) { // recorded, once the region is checked
        unsigned char* at = nullptr;
        if (const hipError_t e = region(src, w_offset, h_offset, width, height, at); e != hipSuccess) return e;
        return capture(stream, [=](hipStream_t) {
            return hipMemcpy2DFromArray(dst, dpitch, src, w_offset, h_offset, width, height, kind);
        });
    }
    return hipMemcpy2DFromArray(dst, dpitch, src, w_offset, h_offset, width, height, kind);
}

hipError_t hipMemcpyFromArray(void* dst, hipArray_const_t src, size_t w_offset, size_t h_offset, size_t bytes,
                              hipMemcpyKind kind)
{
    unsigned char* at = nullptr;
    if (const hipError_t e = span(src, w_offset, h_offset, bytes, at); e != hipSuccess) return e;
    return hipMemcpy(dst, at, bytes, kind);
}

hipError_t hipMemcpy3D(const hipMemcpy3DParms* p)
{
    if (!p || !p->srcArray == !p->srcPtr.ptr || !p->dstArray == !p->dstPtr.ptr) return fail(hipErrorInvalidValue);
    const hipExtent e = p->extent;
    if (e.width == 0 || e.height == 0 || e.depth == 0) return hipSuccess;
    // The extent counts an array's elements (both arrays': the same size), else bytes.
    const size_t src_bytes = p->srcArray && live_array(p->srcArray) ? p->srcArray->element_bytes : 0;
    const size_t dst_bytes = p->dstArray && live_array(p->dstArray) ? p->dstArray->element_bytes : 0;
    if (src_bytes && dst_bytes && src_bytes != dst_bytes) return fail(hipErrorInvalidValue);
    const size_t element_bytes = src_bytes ? src_bytes : dst_bytes ? dst_bytes : 1;
    plane src, dst;
    if (const hipError_t r = plane_of(p->srcArray, p->srcPtr, p->srcPos, e, element_bytes, src); r != hipSuccess)
        return r;
    if (const hipError_t r = plane_of(p->dstArray, p->dstPtr, p->dstPos, e, element_bytes, dst); r != hipSuccess)
        return r;
    for (size_t z = 0; z < e.depth; ++z) {
        const hipError_t r = hipMemcpy2D(dst.base + z * dst.slice, dst.pitch, src.base + z * src.slice, src.pitch,
                                         e.width * element_bytes, e.height, p->kind);
        if (r != hipSuccess) return r;
    }
    return hipSuccess;
}

hipError_t hipMemcpy3DAsync(const hipMemcpy3DParms* p, hipStream_t stream)
{
    if (!p || !capturing(stream)) return hipMemcpy3D(p);
    const hipMemcpy3DParms copy = *p; // recorded with the parameters as they are now
    return capture(stream, [copy](hipStream_t) { return hipMemcpy3D(&copy); });
}

} // extern "C"
