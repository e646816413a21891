// The CPU runtime's texture and surface objects: what a fetch or a surface access needs of its
// resource (an array, linear or pitched memory), flattened into one block that the inline functions
// of hip_cpu_textures.h read in the calling lane.
#include "arrays.h"
#include "runtime_common.h"

#include <cstring>
#include <stdexcept>

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {
namespace {

live_handles& objects()
{
    static live_handles r;
    return r;
}

void add_object(const void* object) { objects().add(object); }

bool remove_object(const void* object) { return objects().remove(object); }

/// The texture's data, sizes and element layout from its resource; hipErrorInvalidValue for a
/// resource the platform does not take.
hipError_t describe(const hipResourceDesc& res, __hip_texture& t)
{
    element_layout layout;
    const hipChannelFormatDesc* desc = nullptr;
    t.width = t.height = t.depth = 1;
    switch (res.resType) {
    case hipResourceTypeArray: {
        const hipArray* a = res.res.array.array;
        if (!live_array(a)) return fail(hipErrorInvalidValue);
        desc = &a->desc;
        t.data = static_cast<const unsigned char*>(a->data);
        t.width = a->width, t.height = a->height ? a->height : 1, t.depth = a->depth ? a->depth : 1;
        t.pitch = a->pitch, t.slice_pitch = a->slice_pitch;
        t.layered = a->type == hipTextureType1DLayered || a->type == hipTextureType2DLayered;
        break;
    }
    case hipResourceTypeLinear:
        desc = &res.res.linear.desc;
        if (!res.res.linear.devPtr || !layout_of(*desc, layout)) return fail(hipErrorInvalidValue);
        t.data = static_cast<const unsigned char*>(res.res.linear.devPtr);
        t.width = res.res.linear.sizeInBytes / layout.bytes();
        t.pitch = t.slice_pitch = res.res.linear.sizeInBytes;
        break;
    case hipResourceTypePitch2D:
        desc = &res.res.pitch2D.desc;
        if (!res.res.pitch2D.devPtr || !layout_of(*desc, layout) || res.res.pitch2D.width == 0 ||
            res.res.pitch2D.height == 0 || res.res.pitch2D.pitchInBytes < res.res.pitch2D.width * layout.bytes())
            return fail(hipErrorInvalidValue);
        t.data = static_cast<const unsigned char*>(res.res.pitch2D.devPtr);
        t.width = res.res.pitch2D.width, t.height = res.res.pitch2D.height;
        t.pitch = res.res.pitch2D.pitchInBytes, t.slice_pitch = t.pitch * t.height;
        break;
    case hipResourceTypeMipmappedArray:
        return fail(hipErrorNotSupported);
    default:
        return fail(hipErrorInvalidValue);
    }
    if (!layout_of(*desc, layout) || t.width == 0) return fail(hipErrorInvalidValue);
    t.channels = layout.channels, t.channel_bytes = layout.channel_bytes, t.element_bytes = layout.bytes();
    t.kind = desc->f;
    return hipSuccess;
}

/// Checks the sampler against the resource: known modes, and linear filtering only where the
/// fetch returns floats (CUDA's rule: float channels, or 8- and 16-bit integers read normalized).
hipError_t check_sampler(const hipTextureDesc& s, __hip_texture& t)
{
    for (int a = 0; a < 3; ++a)
        if (s.addressMode[a] < hipAddressModeWrap || s.addressMode[a] > hipAddressModeBorder)
            return fail(hipErrorInvalidValue);
    if ((s.filterMode != hipFilterModePoint && s.filterMode != hipFilterModeLinear) ||
        (s.readMode != hipReadModeElementType && s.readMode != hipReadModeNormalizedFloat))
        return fail(hipErrorInvalidValue);
    t.returns_float =
        t.kind == hipChannelFormatKindFloat || (s.readMode == hipReadModeNormalizedFloat && t.channel_bytes < 4);
    if (s.filterMode == hipFilterModeLinear && !t.returns_float) return fail(hipErrorInvalidValue);
    return hipSuccess;
}

} // namespace
} // namespace cpu_runtime
#pragma GCC visibility pop

using namespace cpu_runtime;

extern "C" {

hipError_t hipCreateTextureObject(hipTextureObject_t* texture, const hipResourceDesc* resource,
                                  const hipTextureDesc* sampler, const struct hipResourceViewDesc* view)
{
    if (!texture || !resource || !sampler) return fail(hipErrorInvalidValue);
    if (view) return fail(hipErrorNotSupported);
    __hip_texture t{};
    if (const hipError_t e = describe(*resource, t); e != hipSuccess) return e;
    if (const hipError_t e = check_sampler(*sampler, t); e != hipSuccess) return e;
    t.sampler = *sampler;
    t.resource = *resource;
    *texture = new __hip_texture(t);
    add_object(*texture);
    return hipSuccess;
}

hipError_t hipDestroyTextureObject(hipTextureObject_t texture)
{
    if (!texture) return hipSuccess;
    if (!remove_object(texture)) return fail(hipErrorInvalidValue);
    delete texture;
    return hipSuccess;
}

hipError_t hipGetTextureObjectResourceDesc(hipResourceDesc* resource, hipTextureObject_t texture)
{
    if (!resource || !texture) return fail(hipErrorInvalidValue);
    *resource = texture->resource;
    return hipSuccess;
}

hipError_t hipGetTextureObjectTextureDesc(hipTextureDesc* sampler, hipTextureObject_t texture)
{
    if (!sampler || !texture) return fail(hipErrorInvalidValue);
    *sampler = texture->sampler;
    return hipSuccess;
}

hipError_t hipCreateSurfaceObject(hipSurfaceObject_t* surface, const hipResourceDesc* resource)
{
    if (!surface || !resource || resource->resType != hipResourceTypeArray) return fail(hipErrorInvalidValue);
    const hipArray* a = resource->res.array.array;
    if (!live_array(a) || !(a->flags & hipArraySurfaceLoadStore)) return fail(hipErrorInvalidValue);
    __hip_surface* s = new __hip_surface{};
    s->data = static_cast<unsigned char*>(a->data);
    s->row_bytes = a->pitch;
    s->height = a->height ? a->height : 1, s->depth = a->depth ? a->depth : 1;
    s->pitch = a->pitch, s->slice_pitch = a->slice_pitch;
    add_object(s);
    *surface = s;
    return hipSuccess;
}

hipError_t hipDestroySurfaceObject(hipSurfaceObject_t surface)
{
    if (!surface) return hipSuccess;
    if (!remove_object(surface)) return fail(hipErrorInvalidValue);
    delete surface;
    return hipSuccess;
}

void hip_cpu_surface_trap(void) { throw std::out_of_range("surface access out of bounds (hipBoundaryModeTrap)"); }

} // extern "C"
