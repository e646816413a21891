// The cpu platform's texture fetches and surface reads and writes, through texture and surface
// objects (hip_texture_types.h): tex1Dfetch<T>, tex1D<T>, tex2D<T>, tex3D<T>, tex1DLayered<T>,
// tex2DLayered<T> (and their ...Lod forms: no mipmaps, level 0), surf1D/2D/3D/2DLayered read and
// write. They run in the calling lane and sample as the GPUs do (the CUDA programming guide's
// texture fetching appendix): a point sample reads texel floor(u); a linear one blends the two
// texels around u - 0.5 along each axis, with the fraction rounded to 8 bits (256 steps), as the
// texture units' 9-bit fixed-point weights. The address mode applies to each texel's index. What
// the guide leaves open is done as an H200 does it (measured, bit for bit on float textures): each
// texel's weight (the product of its axes') is rounded to 8 fractional bits again, in 3-D x times z
// first, then times y; and in clamp mode u - 0.5 is clamped to the edge texels' centres.
#pragma once

#include <hip/hip_texture_types.h>

// Included inside hip_runtime.h's extern "C" block (through hip_texture_types.h).
extern "C++" {
namespace hip_cpu_detail {

/// An IEEE half's bits as a float.
inline float half_to_float(uint16_t h)
{
    const int exponent = (h >> 10) & 0x1f;
    const float mantissa = float(h & 0x3ff);
    const float f = exponent == 0    ? std::ldexp(mantissa, -24)
                    : exponent == 31 ? (mantissa != 0 ? NAN : INFINITY)
                                     : std::ldexp(mantissa + 1024.0f, exponent - 25);
    return (h & 0x8000) ? -f : f;
}

template <class I> inline I load_as(const unsigned char* p)
{
    I v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

/// One channel at `p`: floats and integers as they are, 8- and 16-bit integers in normalized-float
/// read mode as [0, 1] (unsigned) or [-1, 1] (signed: the lowest value also reads -1).
inline double channel(const __hip_texture& t, const unsigned char* p)
{
    const bool norm = t.sampler.readMode == hipReadModeNormalizedFloat;
    if (t.kind == hipChannelFormatKindFloat)
        return t.channel_bytes == 2 ? half_to_float(load_as<uint16_t>(p)) : load_as<float>(p);
    if (t.kind == hipChannelFormatKindSigned) {
        if (t.channel_bytes == 1) {
            const float v = load_as<int8_t>(p);
            return norm ? std::fmax(v / 127.0f, -1.0f) : v;
        }
        if (t.channel_bytes == 2) {
            const float v = load_as<int16_t>(p);
            return norm ? std::fmax(v / 32767.0f, -1.0f) : v;
        }
        return load_as<int32_t>(p);
    }
    if (t.channel_bytes == 1) return norm ? load_as<uint8_t>(p) / 255.0f : load_as<uint8_t>(p);
    if (t.channel_bytes == 2) return norm ? load_as<uint16_t>(p) / 65535.0f : load_as<uint16_t>(p);
    return load_as<uint32_t>(p);
}

/// The texel at (x, y, z), inside the texture. Absent channels read 0, and w 1.
inline void load(const __hip_texture& t, size_t x, size_t y, size_t z, double (&v)[4])
{
    const unsigned char* p = t.data + z * t.slice_pitch + y * t.pitch + x * t.element_bytes;
    v[0] = v[1] = v[2] = 0;
    v[3] = 1;
    for (unsigned c = 0; c < t.channels; ++c) v[c] = channel(t, p + c * t.channel_bytes);
}

inline long clamp(long v, long low, long high) { return v < low ? low : v > high ? high : v; }

/// Where texel index i lands along an axis of n texels, or -1: outside, in border mode. Wrap and
/// mirror need normalized coordinates (CUDA's rule); without them they clamp.
inline long address(long i, long n, hipTextureAddressMode mode, bool normalized)
{
    if (i >= 0 && i < n) return i;
    if (normalized && mode == hipAddressModeWrap) {
        const long r = i % n;
        return r < 0 ? r + n : r;
    }
    if (normalized && mode == hipAddressModeMirror) {
        long r = i % (2 * n);
        if (r < 0) r += 2 * n;
        return r < n ? r : 2 * n - 1 - r;
    }
    if (mode == hipAddressModeBorder) return -1;
    return i < 0 ? 0 : n - 1;
}

/// A coordinate in texels, kept where a texel index fits (NaN reads texel 0).
inline float texel_coordinate(float c, size_t n, bool normalized)
{
    const float u = normalized ? c * float(n) : c;
    return u > -1e9f && u < 1e9f ? u : u >= 1e9f ? 1e9f : u <= -1e9f ? -1e9f : 0.0f;
}

/// A weight with 8 fractional bits, rounded half up.
inline float weight_bits(float w) { return std::floor(w * 256.0f + 0.5f) / 256.0f; }

/// A linear sample's weight of one texel, from its axes' weights.
inline float corner_weight(int dims, const float* f)
{
    return dims == 1 ? f[0] : dims == 2 ? weight_bits(f[0] * f[1]) : weight_bits(weight_bits(f[0] * f[2]) * f[1]);
}

/// Whether an axis clamps: clamp mode, or wrap and mirror without normalized coordinates.
inline bool clamps(hipTextureAddressMode mode, bool normalized)
{
    return mode == hipAddressModeClamp || (!normalized && mode != hipAddressModeBorder);
}

/// The texture's value at `dims` coordinates, in `layer` (-1: not layered) or along z.
inline void sample(const __hip_texture& t, int dims, const float* coord, long layer, double (&out)[4])
{
    const bool linear = t.sampler.filterMode == hipFilterModeLinear, normalized = t.sampler.normalizedCoords != 0;
    const size_t size[3] = {t.width, t.height, t.depth};
    long base[3] = {0, 0, clamp(layer, 0, long(t.depth) - 1)};
    float weight[3] = {0, 0, 0}; // of the second texel along each axis, in 1/256 steps
    for (int a = 0; a < dims; ++a) {
        float u = texel_coordinate(coord[a], size[a], normalized);
        if (linear) {
            const float last = float(size[a] - 1);
            u -= 0.5f;
            if (clamps(t.sampler.addressMode[a], normalized)) u = u < 0 ? 0 : u > last ? last : u;
        }
        const float whole = std::floor(u);
        base[a] = long(whole);
        weight[a] = linear ? std::round((u - whole) * 256.0f) / 256.0f : 0.0f;
    }
    float sum[4] = {0, 0, 0, 0};
    for (int corner = 0; corner < (linear ? 1 << dims : 1); ++corner) {
        long at[3] = {0, 0, base[2]};
        float f[3] = {1, 1, 1};
        bool border = false;
        for (int a = 0; a < dims; ++a) {
            const int second = (corner >> a) & 1;
            f[a] = second ? weight[a] : 1 - weight[a];
            at[a] = address(base[a] + second, long(size[a]), t.sampler.addressMode[a], normalized);
            border = border || at[a] < 0;
        }
        double v[4];
        if (border)
            for (int c = 0; c < 4; ++c) v[c] = t.sampler.borderColor[c];
        else
            load(t, size_t(at[0]), size_t(at[1]), size_t(at[2]), v);
        if (!linear) {
            for (int c = 0; c < 4; ++c) out[c] = v[c];
            return;
        }
        const float w = corner_weight(dims, f);
        if (w != 0)
            for (int c = 0; c < 4; ++c) sum[c] += w * float(v[c]);
    }
    for (int c = 0; c < 4; ++c) out[c] = sum[c];
}

/// A texel's four values as the type asked for: a scalar takes x; a vector type its components.
template <class T, int N = components<T>::value> struct texel_as;
template <class T> struct texel_as<T, 0> {
    static T make(const double* v) { return T(v[0]); }
};
template <class T> struct texel_as<T, 1> {
    static T make(const double* v)
    {
        typedef typename component<T>::type C;
        T r{};
        r.x = C(v[0]);
        return r;
    }
};
template <class T> struct texel_as<T, 2> {
    static T make(const double* v)
    {
        typedef typename component<T>::type C;
        T r{};
        r.x = C(v[0]), r.y = C(v[1]);
        return r;
    }
};
template <class T> struct texel_as<T, 3> {
    static T make(const double* v)
    {
        typedef typename component<T>::type C;
        T r{};
        r.x = C(v[0]), r.y = C(v[1]), r.z = C(v[2]);
        return r;
    }
};
template <class T> struct texel_as<T, 4> {
    static T make(const double* v)
    {
        typedef typename component<T>::type C;
        T r{};
        r.x = C(v[0]), r.y = C(v[1]), r.z = C(v[2]), r.w = C(v[3]);
        return r;
    }
};

template <class T> inline T fetch(hipTextureObject_t t, int dims, float x, float y, float z, long layer)
{
    const float coord[3] = {x, y, z};
    double v[4];
    sample(*t, dims, coord, layer, v);
    return texel_as<T>::make(v);
}

/// A surface access's address after the boundary mode (x in bytes); nullptr: outside, in zero mode.
inline unsigned char* surface_at(hipSurfaceObject_t s, long x, long y, long z, size_t bytes, int mode)
{
    const long last_x = long(s->row_bytes) - long(bytes), last_y = long(s->height) - 1, last_z = long(s->depth) - 1;
    if (x < 0 || x > last_x || y < 0 || y > last_y || z < 0 || z > last_z) {
        if (mode == hipBoundaryModeTrap) hip_cpu_surface_trap();
        if (mode != hipBoundaryModeClamp || last_x < 0) return nullptr;
        x = clamp(x, 0, last_x), y = clamp(y, 0, last_y), z = clamp(z, 0, last_z);
    }
    return s->data + size_t(z) * s->slice_pitch + size_t(y) * s->pitch + size_t(x);
}

template <class T> inline void surface_read(T* data, hipSurfaceObject_t s, long x, long y, long z, int mode)
{
    const unsigned char* at = surface_at(s, x, y, z, sizeof(T), mode);
    if (at)
        std::memcpy(static_cast<void*>(data), at, sizeof(T));
    else
        std::memset(static_cast<void*>(data), 0, sizeof(T));
}

template <class T> inline void surface_write(const T& data, hipSurfaceObject_t s, long x, long y, long z, int mode)
{
    if (unsigned char* at = surface_at(s, x, y, z, sizeof(T), mode)) std::memcpy(at, &data, sizeof(T));
}

} // namespace hip_cpu_detail

// ---- texture fetches: T is the texel's type, or float / floatN in normalized-float read mode ---------------------
/// Linear memory by element index, without filtering or address mode: outside, every component is 0.
template <class T> inline T tex1Dfetch(hipTextureObject_t t, int x)
{
    double v[4] = {0, 0, 0, 0};
    if (x >= 0 && size_t(x) < t->width) hip_cpu_detail::load(*t, size_t(x), 0, 0, v);
    return hip_cpu_detail::texel_as<T>::make(v);
}
template <class T> inline T tex1D(hipTextureObject_t t, float x) { return hip_cpu_detail::fetch<T>(t, 1, x, 0, 0, -1); }
template <class T> inline T tex2D(hipTextureObject_t t, float x, float y)
{
    return hip_cpu_detail::fetch<T>(t, 2, x, y, 0, -1);
}
template <class T> inline T tex3D(hipTextureObject_t t, float x, float y, float z)
{
    return hip_cpu_detail::fetch<T>(t, 3, x, y, z, -1);
}
/// Layered textures: `layer` (clamped to the layers there are) picks the 1-D or 2-D texture.
template <class T> inline T tex1DLayered(hipTextureObject_t t, float x, int layer)
{
    return hip_cpu_detail::fetch<T>(t, 1, x, 0, 0, layer);
}
template <class T> inline T tex2DLayered(hipTextureObject_t t, float x, float y, int layer)
{
    return hip_cpu_detail::fetch<T>(t, 2, x, y, 0, layer);
}
// No mipmaps: a level of detail reads level 0.
template <class T> inline T tex1DLod(hipTextureObject_t t, float x, float) { return tex1D<T>(t, x); }
template <class T> inline T tex2DLod(hipTextureObject_t t, float x, float y, float) { return tex2D<T>(t, x, y); }
template <class T> inline T tex3DLod(hipTextureObject_t t, float x, float y, float z, float)
{
    return tex3D<T>(t, x, y, z);
}
template <class T> inline T tex1DLayeredLod(hipTextureObject_t t, float x, int layer, float)
{
    return tex1DLayered<T>(t, x, layer);
}
template <class T> inline T tex2DLayeredLod(hipTextureObject_t t, float x, float y, int layer, float)
{
    return tex2DLayered<T>(t, x, y, layer);
}
// HIP's forms that store the texel through a pointer.
template <class T> inline void tex1Dfetch(T* out, hipTextureObject_t t, int x) { *out = tex1Dfetch<T>(t, x); }
template <class T> inline void tex1D(T* out, hipTextureObject_t t, float x) { *out = tex1D<T>(t, x); }
template <class T> inline void tex2D(T* out, hipTextureObject_t t, float x, float y) { *out = tex2D<T>(t, x, y); }
template <class T> inline void tex3D(T* out, hipTextureObject_t t, float x, float y, float z)
{
    *out = tex3D<T>(t, x, y, z);
}
template <class T> inline void tex1DLayered(T* out, hipTextureObject_t t, float x, int layer)
{
    *out = tex1DLayered<T>(t, x, layer);
}
template <class T> inline void tex2DLayered(T* out, hipTextureObject_t t, float x, float y, int layer)
{
    *out = tex2DLayered<T>(t, x, y, layer);
}

// ---- surfaces: x in bytes, as in HIP and CUDA; sizeof(T) bytes read or written as they are ----------------------
template <class T> inline void surf1Dread(T* data, hipSurfaceObject_t s, int x, int mode = hipBoundaryModeZero)
{
    hip_cpu_detail::surface_read(data, s, x, 0, 0, mode);
}
template <class T> inline T surf1Dread(hipSurfaceObject_t s, int x, int mode = hipBoundaryModeZero)
{
    T v;
    surf1Dread(&v, s, x, mode);
    return v;
}
template <class T> inline void surf1Dwrite(T data, hipSurfaceObject_t s, int x, int mode = hipBoundaryModeZero)
{
    hip_cpu_detail::surface_write(data, s, x, 0, 0, mode);
}
template <class T> inline void surf2Dread(T* data, hipSurfaceObject_t s, int x, int y, int mode = hipBoundaryModeZero)
{
    hip_cpu_detail::surface_read(data, s, x, y, 0, mode);
}
template <class T> inline T surf2Dread(hipSurfaceObject_t s, int x, int y, int mode = hipBoundaryModeZero)
{
    T v;
    surf2Dread(&v, s, x, y, mode);
    return v;
}
template <class T> inline void surf2Dwrite(T data, hipSurfaceObject_t s, int x, int y, int mode = hipBoundaryModeZero)
{
    hip_cpu_detail::surface_write(data, s, x, y, 0, mode);
}
template <class T>
inline void surf3Dread(T* data, hipSurfaceObject_t s, int x, int y, int z, int mode = hipBoundaryModeZero)
{
    hip_cpu_detail::surface_read(data, s, x, y, z, mode);
}
template <class T> inline T surf3Dread(hipSurfaceObject_t s, int x, int y, int z, int mode = hipBoundaryModeZero)
{
    T v;
    surf3Dread(&v, s, x, y, z, mode);
    return v;
}
template <class T>
inline void surf3Dwrite(T data, hipSurfaceObject_t s, int x, int y, int z, int mode = hipBoundaryModeZero)
{
    hip_cpu_detail::surface_write(data, s, x, y, z, mode);
}
template <class T>
inline void surf2DLayeredread(T* data, hipSurfaceObject_t s, int x, int y, int layer, int mode = hipBoundaryModeZero)
{
    hip_cpu_detail::surface_read(data, s, x, y, layer, mode);
}
template <class T>
inline void surf2DLayeredwrite(T data, hipSurfaceObject_t s, int x, int y, int layer, int mode = hipBoundaryModeZero)
{
    hip_cpu_detail::surface_write(data, s, x, y, layer, mode);
}

} // extern "C++"
