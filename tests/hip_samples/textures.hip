// Texture and surface objects: a 1-D fetch from linear memory, a 2-D texture of an array sampled
// with point and linear filtering in every address mode (normalized coordinates for wrap and
// mirror), a pitched 2-D texture, 8-bit channels read as normalized floats, and a surface written
// and read back. The expected values come from the documented rules (the CUDA programming guide's
// texture fetching appendix): point sampling reads texel floor(u); linear filtering blends the
// texels around u - 0.5 with weights of 8 fractional bits, and each of the four texels' weights
// is rounded to 8 fractional bits again (as an H200 does). The coordinates keep away from texel
// boundaries and from the weights' rounding ties, where fixed-point hardware may round either way.
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <cmath>
#include <vector>

__global__ void fetch_1d(hipTextureObject_t t, float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(t, i - 2); // two before the start, two past the end
}

template <class V> __global__ void sample_2d(hipTextureObject_t t, const float2* at, V* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<V>(t, at[i].x, at[i].y);
}

__global__ void surface_square(hipSurfaceObject_t s, int* out, int w, int h)
{
    const int x = threadIdx.x, y = blockIdx.x;
    if (x >= w || y >= h) return;
    surf2Dwrite(x * x - y, s, x * int(sizeof(int)), y);
    int v = 0;
    surf2Dread(&v, s, x * int(sizeof(int)), y);
    out[y * w + x] = v + surf2Dread<int>(s, (w + x) * int(sizeof(int)), y, hipBoundaryModeZero); // outside: 0
}

const int W = 8, H = 4; // powers of two: normalized coordinates u / W are exact

float texel_value(int x, int y) { return float((x * 7 + y * 13) % 17) - 0.25f * float(x) + 0.5f * float(y); }

/// The blend of four texels with weights of 8 fractional bits: a, b along x and y, then each product.
float bilinear(float a, float b, float t00, float t10, float t01, float t11)
{
    a = std::round(a * 256.0f) / 256.0f, b = std::round(b * 256.0f) / 256.0f;
    auto w = [](float p) { return std::floor(p * 256.0f + 0.5f) / 256.0f; };
    return w((1 - a) * (1 - b)) * t00 + w(a * (1 - b)) * t10 + w((1 - a) * b) * t01 + w(a * b) * t11;
}

/// Texel (i, j) after the address mode, on integer indices: wrap and mirror repeat the texture,
/// clamp takes the nearest edge texel, border the border color.
float texel(int i, int j, hipTextureAddressMode mode, float border)
{
    int at[2] = {i, j};
    const int n[2] = {W, H};
    for (int a = 0; a < 2; ++a) {
        const int k = at[a];
        if (mode == hipAddressModeWrap) at[a] = ((k % n[a]) + n[a]) % n[a];
        if (mode == hipAddressModeMirror) {
            const int r = ((k % (2 * n[a])) + 2 * n[a]) % (2 * n[a]);
            at[a] = r < n[a] ? r : 2 * n[a] - 1 - r;
        }
        if (mode == hipAddressModeClamp) at[a] = k < 0 ? 0 : k >= n[a] ? n[a] - 1 : k;
        if (mode == hipAddressModeBorder && (k < 0 || k >= n[a])) return border;
    }
    return texel_value(at[0], at[1]);
}

/// The guide's rules: normalized coordinates wrap to frac(x), or mirror to frac(x) / 1 - frac(x) for
/// an even / odd floor(x), then scale by the size; a linear sample weighs the texels around u - 0.5.
float expected(float x, float y, hipTextureAddressMode mode, bool linear, bool normalized, float border)
{
    float u[2] = {x, y};
    const int n[2] = {W, H};
    for (int a = 0; a < 2 && normalized; ++a) {
        const float whole = std::floor(u[a]), frac = u[a] - whole;
        if (mode == hipAddressModeWrap) u[a] = frac;
        if (mode == hipAddressModeMirror) u[a] = long(whole) % 2 == 0 ? frac : 1.0f - frac;
        u[a] *= float(n[a]);
    }
    if (!linear) return texel(int(std::floor(u[0])), int(std::floor(u[1])), mode, border);
    const float bx = u[0] - 0.5f, by = u[1] - 0.5f, ix = std::floor(bx), iy = std::floor(by);
    const int i = int(ix), j = int(iy);
    return bilinear(bx - ix, by - iy, texel(i, j, mode, border), texel(i + 1, j, mode, border),
                    texel(i, j + 1, mode, border), texel(i + 1, j + 1, mode, border));
}

bool near(float got, float want) { return std::fabs(got - want) <= 1e-4f * (1.0f + std::fabs(want)); }

/// Samples `t` at every point of `at` on the device, as V (float or float4).
template <class V> std::vector<V> sample(hipTextureObject_t t, const std::vector<float2>& at)
{
    const int n = int(at.size());
    float2* d_at;
    V* d_out;
    SAMPLE_CHECK(hipMalloc(&d_at, n * sizeof(float2)));
    SAMPLE_CHECK(hipMalloc(&d_out, n * sizeof(V)));
    SAMPLE_CHECK(hipMemcpy(d_at, at.data(), n * sizeof(float2), hipMemcpyHostToDevice));
    sample_2d<V><<<(n + 63) / 64, 64>>>(t, d_at, d_out, n);
    SAMPLE_CHECK(hipGetLastError());
    std::vector<V> out(n);
    SAMPLE_CHECK(hipMemcpy(out.data(), d_out, n * sizeof(V), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipFree(d_at));
    SAMPLE_CHECK(hipFree(d_out));
    return out;
}

hipTextureObject_t make_texture(const hipResourceDesc& res, hipTextureAddressMode mode, bool linear, bool normalized,
                                hipTextureReadMode read = hipReadModeElementType)
{
    hipTextureDesc td{};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
    td.filterMode = linear ? hipFilterModeLinear : hipFilterModePoint;
    td.readMode = read;
    td.normalizedCoords = normalized;
    td.borderColor[0] = 0.5f;
    hipTextureObject_t t;
    SAMPLE_CHECK(hipCreateTextureObject(&t, &res, &td, nullptr));
    return t;
}

hipResourceDesc array_resource(hipArray_t array)
{
    hipResourceDesc res{};
    res.resType = hipResourceTypeArray;
    res.res.array.array = array;
    return res;
}

/// 1-D fetches from linear memory: no filtering; outside the buffer every component reads 0.
int check_fetch_1d()
{
    const int n = 100;
    std::vector<float> line(n), fetched(n + 4);
    for (int i = 0; i < n; ++i) line[i] = 0.5f * float(i) - 7.0f;
    float *d_line, *d_out;
    SAMPLE_CHECK(hipMalloc(&d_line, n * sizeof(float)));
    SAMPLE_CHECK(hipMalloc(&d_out, (n + 4) * sizeof(float)));
    SAMPLE_CHECK(hipMemcpy(d_line, line.data(), n * sizeof(float), hipMemcpyHostToDevice));
    hipResourceDesc res{};
    res.resType = hipResourceTypeLinear;
    res.res.linear.devPtr = d_line;
    res.res.linear.desc = hipCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = n * sizeof(float);
    hipTextureObject_t t = make_texture(res, hipAddressModeClamp, false, false);
    fetch_1d<<<2, 64>>>(t, d_out, n + 4);
    SAMPLE_CHECK(hipMemcpy(fetched.data(), d_out, (n + 4) * sizeof(float), hipMemcpyDeviceToHost));
    int errors = 0;
    for (int i = 0; i < n + 4; ++i) errors += fetched[i] != (i >= 2 && i < n + 2 ? line[i - 2] : 0.0f);
    SAMPLE_CHECK(hipDestroyTextureObject(t));
    SAMPLE_CHECK(hipFree(d_line));
    SAMPLE_CHECK(hipFree(d_out));
    return errors;
}

/// A 2-D array of floats in every address mode, point and linear, with both kinds of coordinates;
/// then the same values in pitched memory (hipMallocPitch, hipMemcpy2D), read at texel centres.
int check_2d(const std::vector<float>& values)
{
    const hipChannelFormatDesc desc = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindFloat);
    hipArray_t array;
    SAMPLE_CHECK(hipMallocArray(&array, &desc, W, H));
    SAMPLE_CHECK(
        hipMemcpy2DToArray(array, 0, 0, values.data(), W * sizeof(float), W * sizeof(float), H, hipMemcpyHostToDevice));
    // Texel coordinates whose fractions stay clear of 0 and 1/2.
    const float xs[] = {-9.35f, -1.35f, -0.2f, 0.3f, 0.65f, 1.8f, 3.6f, 4.85f, 6.35f, 7.7f, 7.85f, 8.3f, 13.2f, 17.35f};
    const float ys[] = {-4.65f, -0.8f, 0.15f, 1.35f, 2.7f, 3.2f, 3.85f, 4.65f, 7.3f};
    int errors = 0;
    for (int mode = hipAddressModeWrap; mode <= hipAddressModeBorder; ++mode)
        for (int normalized = 0; normalized < 2; ++normalized)
            for (int linear = 0; linear < 2; ++linear) {
                const hipTextureAddressMode m = hipTextureAddressMode(mode);
                if (!normalized && (m == hipAddressModeWrap || m == hipAddressModeMirror)) continue; // need them
                std::vector<float2> at;
                for (float x : xs)
                    for (float y : ys) at.push_back(normalized ? make_float2(x / W, y / H) : make_float2(x, y));
                hipTextureObject_t t = make_texture(array_resource(array), m, linear, normalized);
                const std::vector<float> got = sample<float>(t, at);
                for (size_t k = 0; k < at.size(); ++k) {
                    const float want = expected(at[k].x, at[k].y, m, linear, normalized, 0.5f);
                    if (!near(got[k], want) && ++errors <= 5)
                        std::printf("mode %d normalized %d linear %d at (%g, %g): %g, expected %g\n", mode, normalized,
                                    linear, at[k].x, at[k].y, got[k], want);
                }
                SAMPLE_CHECK(hipDestroyTextureObject(t));
            }
    SAMPLE_CHECK(hipFreeArray(array));

    float* pitched;
    size_t pitch = 0;
    SAMPLE_CHECK(hipMallocPitch(&pitched, &pitch, W * sizeof(float), H));
    SAMPLE_CHECK(
        hipMemcpy2D(pitched, pitch, values.data(), W * sizeof(float), W * sizeof(float), H, hipMemcpyHostToDevice));
    hipResourceDesc res{};
    res.resType = hipResourceTypePitch2D;
    res.res.pitch2D.devPtr = pitched;
    res.res.pitch2D.desc = desc;
    res.res.pitch2D.width = W, res.res.pitch2D.height = H, res.res.pitch2D.pitchInBytes = pitch;
    hipTextureObject_t t = make_texture(res, hipAddressModeClamp, true, false);
    std::vector<float2> centres;
    for (int k = 0; k < W * H; ++k) centres.push_back(make_float2(float(k % W) + 0.5f, float(k / W) + 0.5f));
    const std::vector<float> got = sample<float>(t, centres);
    for (int k = 0; k < W * H; ++k) errors += got[k] != values[k];
    SAMPLE_CHECK(hipDestroyTextureObject(t));
    SAMPLE_CHECK(hipFree(pitched));
    return errors;
}

/// Four 8-bit channels read as normalized floats (each byte / 255), filtered linearly.
int check_rgba8()
{
    const int w = 4, h = 3;
    std::vector<unsigned char> bytes(w * h * 4);
    for (size_t k = 0; k < bytes.size(); ++k) bytes[k] = (unsigned char)((k * 61 + 11) % 256);
    const hipChannelFormatDesc rgba = hipCreateChannelDesc(8, 8, 8, 8, hipChannelFormatKindUnsigned);
    hipArray_t array;
    SAMPLE_CHECK(hipMallocArray(&array, &rgba, w, h));
    SAMPLE_CHECK(hipMemcpyToArray(array, 0, 0, bytes.data(), bytes.size(), hipMemcpyHostToDevice));
    hipTextureObject_t t =
        make_texture(array_resource(array), hipAddressModeClamp, true, false, hipReadModeNormalizedFloat);
    const std::vector<float2> at = {make_float2(0.3f, 0.2f), make_float2(1.85f, 1.35f), make_float2(2.6f, 2.7f),
                                    make_float2(3.8f, 0.65f)};
    const std::vector<float4> got = sample<float4>(t, at);
    auto byte = [&](int i, int j, int c) {
        i = i < 0 ? 0 : i >= w ? w - 1 : i, j = j < 0 ? 0 : j >= h ? h - 1 : j;
        return float(bytes[(j * w + i) * 4 + c]) / 255.0f;
    };
    int errors = 0;
    for (size_t k = 0; k < at.size(); ++k) {
        const float bx = at[k].x - 0.5f, by = at[k].y - 0.5f, ix = std::floor(bx), iy = std::floor(by);
        const int i = int(ix), j = int(iy);
        const float channels[4] = {got[k].x, got[k].y, got[k].z, got[k].w};
        for (int c = 0; c < 4; ++c)
            errors += !near(channels[c], bilinear(bx - ix, by - iy, byte(i, j, c), byte(i + 1, j, c), byte(i, j + 1, c),
                                                  byte(i + 1, j + 1, c)));
    }
    SAMPLE_CHECK(hipDestroyTextureObject(t));
    SAMPLE_CHECK(hipFreeArray(array));
    return errors;
}

/// A surface: each lane writes its element (x in bytes) and reads it back; a read past the row in
/// zero mode reads 0. The host copies the array out as well.
int check_surface()
{
    const int w = 16, h = 4;
    const hipChannelFormatDesc desc = hipCreateChannelDesc<int>();
    hipArray_t array;
    SAMPLE_CHECK(hipMallocArray(&array, &desc, w, h, hipArraySurfaceLoadStore));
    const hipResourceDesc res = array_resource(array);
    hipSurfaceObject_t surface;
    SAMPLE_CHECK(hipCreateSurfaceObject(&surface, &res));
    int* d_read;
    SAMPLE_CHECK(hipMalloc(&d_read, w * h * sizeof(int)));
    surface_square<<<h, w>>>(surface, d_read, w, h);
    SAMPLE_CHECK(hipGetLastError());
    std::vector<int> read(w * h), copied(w * h);
    SAMPLE_CHECK(hipMemcpy(read.data(), d_read, w * h * sizeof(int), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(
        hipMemcpy2DFromArray(copied.data(), w * sizeof(int), array, 0, 0, w * sizeof(int), h, hipMemcpyDeviceToHost));
    int errors = 0;
    for (int k = 0; k < w * h; ++k) errors += read[k] != (k % w) * (k % w) - k / w || copied[k] != read[k];
    SAMPLE_CHECK(hipDestroySurfaceObject(surface));
    SAMPLE_CHECK(hipFreeArray(array));
    SAMPLE_CHECK(hipFree(d_read));
    return errors;
}

int main()
{
    std::vector<float> values(W * H);
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) values[y * W + x] = texel_value(x, y);
    const int errors = check_fetch_1d() + check_2d(values) + check_rgba8() + check_surface();
    return sample_result("textures", errors);
}
