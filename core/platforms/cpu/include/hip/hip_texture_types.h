// The cpu platform's arrays, texture and surface objects and 2-D / 3-D copies: HIP's types (what
// ROCm's hip/driver_types.h, hip/texture_types.h, hip/surface_types.h and hip/channel_descriptor.h
// hold) and their host API. hip_runtime.h includes it; the fetches (tex2D<T> ...) and surface
// reads and writes are in hip_cpu_textures.h. What is supported: ../../README.md.
#pragma once

#include <hip/hip_runtime.h>

// hip_runtime.h includes this header inside its extern "C" block: the C++ below says so itself.
extern "C++" {

// ---- channels -----------------------------------------------------------------------------------
typedef enum hipChannelFormatKind {
    hipChannelFormatKindSigned = 0,
    hipChannelFormatKindUnsigned = 1,
    hipChannelFormatKindFloat = 2,
    hipChannelFormatKindNone = 3,
} hipChannelFormatKind;

/// The bits of each channel (x, y, z, w; 0: absent) and how they are read.
typedef struct hipChannelFormatDesc {
    int x, y, z, w;
    enum hipChannelFormatKind f;
} hipChannelFormatDesc;

inline hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f)
{
    hipChannelFormatDesc d;
    d.x = x, d.y = y, d.z = z, d.w = w, d.f = f;
    return d;
}

namespace hip_cpu_detail {
template <class...> struct make_void {
    typedef void type;
};
// Which of x, y, z, w a type has: HIP's vector types (uchar4, float2 ...) by their members.
#define HIP_CPU_HAS_MEMBER(M)                                                                                          \
    template <class T, class = void> struct has_##M : std::false_type {                                                \
    };                                                                                                                 \
    template <class T> struct has_##M<T, typename make_void<decltype(std::declval<T&>().M)>::type> : std::true_type {  \
    };
HIP_CPU_HAS_MEMBER(x)
HIP_CPU_HAS_MEMBER(y)
HIP_CPU_HAS_MEMBER(z)
HIP_CPU_HAS_MEMBER(w)
#undef HIP_CPU_HAS_MEMBER

/// A texel type's components: 0 for a scalar, else how many of x, y, z, w it has.
template <class T> struct components {
    static constexpr int value =
        std::is_arithmetic<T>::value ? 0 : has_x<T>::value + has_y<T>::value + has_z<T>::value + has_w<T>::value;
};

/// The type of one component (T itself for a scalar).
template <class T, bool scalar = std::is_arithmetic<T>::value> struct component {
    typedef T type;
};
template <class T> struct component<T, false> {
    typedef typename std::remove_cv<typename std::remove_reference<decltype(std::declval<T&>().x)>::type>::type type;
};
} // namespace hip_cpu_detail

/// The channel description of a texel type: char ... float and their vectors (HIP's specializations,
/// read from the type: integers of their signedness and width, float as float).
template <class T> inline hipChannelFormatDesc hipCreateChannelDesc()
{
    typedef typename hip_cpu_detail::component<T>::type C;
    const int n = hip_cpu_detail::components<T>::value;
    const bool known = std::is_arithmetic<C>::value && !std::is_same<C, bool>::value;
    const int bits = known ? int(8 * sizeof(C)) : 0;
    const hipChannelFormatKind kind = !known                             ? hipChannelFormatKindNone
                                      : std::is_floating_point<C>::value ? hipChannelFormatKindFloat
                                      : std::is_signed<C>::value         ? hipChannelFormatKindSigned
                                                                         : hipChannelFormatKindUnsigned;
    return hipCreateChannelDesc(bits, n >= 2 ? bits : 0, n >= 3 ? bits : 0, n >= 4 ? bits : 0, kind);
}
inline hipChannelFormatDesc hipCreateChannelDescHalf()
{
    return hipCreateChannelDesc(16, 0, 0, 0, hipChannelFormatKindFloat);
}
inline hipChannelFormatDesc hipCreateChannelDescHalf1() { return hipCreateChannelDescHalf(); }
inline hipChannelFormatDesc hipCreateChannelDescHalf2()
{
    return hipCreateChannelDesc(16, 16, 0, 0, hipChannelFormatKindFloat);
}
inline hipChannelFormatDesc hipCreateChannelDescHalf4()
{
    return hipCreateChannelDesc(16, 16, 16, 16, hipChannelFormatKindFloat);
}

// ---- arrays ---------------------------------------------------------------------------------------
#define hipArrayDefault 0x00
#define hipArrayLayered 0x01
#define hipArraySurfaceLoadStore 0x02
#define hipArrayCubemap 0x04
#define hipArrayTextureGather 0x08

#define hipTextureType1D 0x01
#define hipTextureType2D 0x02
#define hipTextureType3D 0x03
#define hipTextureTypeCubemap 0x0C
#define hipTextureType1DLayered 0xF1
#define hipTextureType2DLayered 0xF2

/// An array: elements row after row in host memory, rows without padding, then slices (layers).
/// The first fields have HIP's names; width, height and depth are as allocated (0: unused).
typedef struct hipArray {
    void* data;
    struct hipChannelFormatDesc desc;
    unsigned int type; // hipTextureType1D ... hipTextureType2DLayered
    unsigned int width;
    unsigned int height;
    unsigned int depth;
    unsigned int flags;   // hipArrayLayered, hipArraySurfaceLoadStore ...
    size_t element_bytes; // the platform's own: bytes per element, per row, per slice
    size_t pitch;
    size_t slice_pitch;
} hipArray;
typedef struct hipArray* hipArray_t;
typedef const struct hipArray* hipArray_const_t;
/// Mipmapped arrays are not supported (hipErrorNotSupported); the type exists for hipResourceDesc.
typedef struct hipMipmappedArray* hipMipmappedArray_t;
typedef const struct hipMipmappedArray* hipMipmappedArray_const_t;

// ---- 3-D extents, positions and pitched memory --------------------------------------------------------
/// Elements of an array, or bytes of linear memory, along x; rows along y; slices along z.
typedef struct hipExtent {
    size_t width, height, depth;
} hipExtent;
typedef struct hipPos {
    size_t x, y, z;
} hipPos;
typedef struct hipPitchedPtr {
    void* ptr;
    size_t pitch; // bytes from one row to the next
    size_t xsize; // bytes of a row that hold data
    size_t ysize; // rows of a slice
} hipPitchedPtr;
inline hipExtent make_hipExtent(size_t w, size_t h, size_t d)
{
    hipExtent e;
    e.width = w, e.height = h, e.depth = d;
    return e;
}
inline hipPos make_hipPos(size_t x, size_t y, size_t z)
{
    hipPos p;
    p.x = x, p.y = y, p.z = z;
    return p;
}
inline hipPitchedPtr make_hipPitchedPtr(void* ptr, size_t pitch, size_t xsize, size_t ysize)
{
    hipPitchedPtr p;
    p.ptr = ptr, p.pitch = pitch, p.xsize = xsize, p.ysize = ysize;
    return p;
}
/// hipMemcpy3D: from an array or pitched memory to an array or pitched memory. The extent and an
/// array's position count its elements; pitched memory's position counts bytes along x.
typedef struct hipMemcpy3DParms {
    hipArray_t srcArray;
    struct hipPos srcPos;
    struct hipPitchedPtr srcPtr;
    hipArray_t dstArray;
    struct hipPos dstPos;
    struct hipPitchedPtr dstPtr;
    struct hipExtent extent;
    enum hipMemcpyKind kind;
} hipMemcpy3DParms;

// ---- resources, texture and surface objects --------------------------------------------------------------
typedef enum hipResourceType {
    hipResourceTypeArray = 0x00,
    hipResourceTypeMipmappedArray = 0x01, // not supported
    hipResourceTypeLinear = 0x02,
    hipResourceTypePitch2D = 0x03,
} hipResourceType;

/// What a texture or surface reads: an array, linear memory (tex1Dfetch) or pitched 2-D memory.
typedef struct hipResourceDesc {
    enum hipResourceType resType;
    union {
        struct {
            hipArray_t array;
        } array;
        struct {
            hipMipmappedArray_t mipmap;
        } mipmap;
        struct {
            void* devPtr;
            struct hipChannelFormatDesc desc;
            size_t sizeInBytes;
        } linear;
        struct {
            void* devPtr;
            struct hipChannelFormatDesc desc;
            size_t width;  // elements
            size_t height; // rows
            size_t pitchInBytes;
        } pitch2D;
    } res;
} hipResourceDesc;

/// Resource views are not supported: hipCreateTextureObject takes none (nullptr).
typedef enum hipResourceViewFormat {
    hipResViewFormatNone = 0x00,
} hipResourceViewFormat;
struct hipResourceViewDesc {
    enum hipResourceViewFormat format;
    size_t width, height, depth;
    unsigned int firstMipmapLevel, lastMipmapLevel, firstLayer, lastLayer;
};

enum hipTextureAddressMode {
    hipAddressModeWrap = 0, // normalized coordinates only (else clamp)
    hipAddressModeClamp = 1,
    hipAddressModeMirror = 2, // normalized coordinates only (else clamp)
    hipAddressModeBorder = 3,
};
enum hipTextureFilterMode { hipFilterModePoint = 0, hipFilterModeLinear = 1 };
enum hipTextureReadMode { hipReadModeElementType = 0, hipReadModeNormalizedFloat = 1 };

/// How a texture is sampled. sRGB, anisotropy and the mipmap fields are accepted and not used.
typedef struct hipTextureDesc {
    enum hipTextureAddressMode addressMode[3];
    enum hipTextureFilterMode filterMode;
    enum hipTextureReadMode readMode;
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned int maxAnisotropy;
    enum hipTextureFilterMode mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
} hipTextureDesc;

/// What a texture object points to: its resource as a base address, sizes and pitches, and how it
/// is sampled (filled by hipCreateTextureObject, read by the fetches in the calling lane).
struct __hip_texture {
    const unsigned char* data;
    size_t width, height, depth; // texels along x, y and z (layers count along z); 1 where unused
    size_t pitch, slice_pitch;   // bytes from a row to the next, from a slice (layer) to the next
    size_t element_bytes;
    unsigned channels;      // 1, 2 or 4
    unsigned channel_bytes; // 1, 2 or 4
    hipChannelFormatKind kind;
    bool returns_float; // float channels, or 8- and 16-bit integers read as normalized floats
    bool layered;
    hipTextureDesc sampler;
    hipResourceDesc resource;
};
typedef struct __hip_texture* hipTextureObject_t;

enum hipSurfaceBoundaryMode { hipBoundaryModeZero = 0, hipBoundaryModeTrap = 1, hipBoundaryModeClamp = 2 };

/// What a surface object points to: an array's memory, addressed in bytes along x.
struct __hip_surface {
    unsigned char* data;
    size_t row_bytes, height, depth; // height and depth 1 where unused
    size_t pitch, slice_pitch;
};
typedef struct __hip_surface* hipSurfaceObject_t;

extern "C" {
// ---- arrays and copies that involve them -----------------------------------------------------------------
/// A 1-D (height 0) or 2-D array of `desc` elements; flags hipArrayDefault, hipArraySurfaceLoadStore,
/// hipArrayTextureGather. Channels: 1, 2 or 4 of the same width (8, 16 or 32 bits; floats 16 or 32).
hipError_t hipMallocArray(hipArray_t* array, const hipChannelFormatDesc* desc, size_t width, size_t height = 0,
                          unsigned int flags = hipArrayDefault);
/// A 1-, 2- or 3-D array (height or depth 0: fewer dimensions); hipArrayLayered: depth counts layers.
hipError_t hipMalloc3DArray(hipArray_t* array, const hipChannelFormatDesc* desc, hipExtent extent, unsigned int flags);
hipError_t hipFreeArray(hipArray_t array);
hipError_t hipArrayGetInfo(hipChannelFormatDesc* desc, hipExtent* extent, unsigned int* flags, hipArray_t array);
hipError_t hipGetChannelDesc(hipChannelFormatDesc* desc, hipArray_const_t array);
/// `height` rows of `width` bytes into the array at byte `w_offset` of row `h_offset`.
hipError_t hipMemcpy2DToArray(hipArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t spitch,
                              size_t width, size_t height, hipMemcpyKind kind);
hipError_t hipMemcpy2DToArrayAsync(hipArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t spitch,
                                   size_t width, size_t height, hipMemcpyKind kind, hipStream_t stream = nullptr);
/// `bytes` bytes into the array from byte `w_offset` of row `h_offset` on, row after row.
hipError_t hipMemcpyToArray(hipArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t bytes,
                            hipMemcpyKind kind);
hipError_t hipMemcpy2DFromArray(void* dst, size_t dpitch, hipArray_const_t src, size_t w_offset, size_t h_offset,
                                size_t width, size_t height, hipMemcpyKind kind);
hipError_t hipMemcpy2DFromArrayAsync(void* dst, size_t dpitch, hipArray_const_t src, size_t w_offset, size_t h_offset,
                                     size_t width, size_t height, hipMemcpyKind kind, hipStream_t stream = nullptr);
hipError_t hipMemcpyFromArray(void* dst, hipArray_const_t src, size_t w_offset, size_t h_offset, size_t bytes,
                              hipMemcpyKind kind);
hipError_t hipMemcpy3D(const hipMemcpy3DParms* p);
hipError_t hipMemcpy3DAsync(const hipMemcpy3DParms* p, hipStream_t stream = nullptr);
/// Pitched 3-D memory: rows of extent.width bytes, padded to the pitch.
hipError_t hipMalloc3D(hipPitchedPtr* pitched, hipExtent extent);

// ---- texture and surface objects ---------------------------------------------------------------------------
hipError_t hipCreateTextureObject(hipTextureObject_t* texture, const hipResourceDesc* resource,
                                  const hipTextureDesc* sampler, const struct hipResourceViewDesc* view);
hipError_t hipDestroyTextureObject(hipTextureObject_t texture);
hipError_t hipGetTextureObjectResourceDesc(hipResourceDesc* resource, hipTextureObject_t texture);
hipError_t hipGetTextureObjectTextureDesc(hipTextureDesc* sampler, hipTextureObject_t texture);
/// A surface over an array allocated with hipArraySurfaceLoadStore.
hipError_t hipCreateSurfaceObject(hipSurfaceObject_t* surface, const hipResourceDesc* resource);
hipError_t hipDestroySurfaceObject(hipSurfaceObject_t surface);
/// Called by a surface access out of bounds in hipBoundaryModeTrap: the lane's launch fails.
__attribute__((noreturn)) void hip_cpu_surface_trap(void);
} // extern "C"

} // extern "C++"

#include <hip/hip_cpu_textures.h> // the fetches and the surface reads and writes (C++ too)
