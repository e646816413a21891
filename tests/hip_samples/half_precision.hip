// Half precision and bfloat16 (hip_fp16.h, hip_bf16.h): conversions in a kernel, checked bit for bit
// against the host's own rounding (the nearest value found by searching all of a format's codes):
// ties to even, subnormals, overflow to infinity, the directed modes, double rounded once; __half2
// arithmetic; a block reduction in half; a wavefront reduction of __half2 by shuffles; both types made
// from a class that converts to float (hip_bfloat16), as ROCm's are.
#include <hip/hip_bf16.h>
#include <hip/hip_bfloat16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <cmath>
#include <cstring>
#include <vector>

struct format {
    int mant, expo;
};
constexpr format half_fmt{10, 5}, bf16_fmt{7, 8};

// The value of a positive code from the format's definition; the infinity code counts as 2^(emax + 1).
double value_of(format f, unsigned c)
{
    const int bias = (1 << (f.expo - 1)) - 1;
    const unsigned e = c >> f.mant, m = c & ((1u << f.mant) - 1);
    return e == 0 ? std::ldexp(m, 1 - bias - f.mant) : std::ldexp(m + (1u << f.mant), int(e) - bias - f.mant);
}

// x rounded in format f: mode 0 to nearest even, 1 toward zero, 2 down, 3 up. NaN gives 0xffff.
unsigned reference(format f, double x, int mode)
{
    if (std::isnan(x)) return 0xffff;
    const unsigned inf = ((1u << f.expo) - 1) << f.mant, sign = std::signbit(x) ? 1u << (f.mant + f.expo) : 0;
    const double a = std::fabs(x);
    unsigned c = 0; // the largest code not above a
    for (unsigned step = 1u << 15; step; step >>= 1)
        if (c + step <= inf && value_of(f, c + step) <= a) c += step;
    if (c < inf && value_of(f, c) != a) {
        const double below = a - value_of(f, c), above = value_of(f, c + 1) - a;
        const bool up[] = {above < below || (above == below && (c & 1)), false, sign != 0, sign == 0};
        c += up[mode];
    }
    if (c == inf && std::isfinite(x) && (mode == 1 || (mode == 2 && !sign) || (mode == 3 && sign))) c = inf - 1;
    return c | sign;
}

float float_of_bits(uint32_t bits)
{
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

bool matches(format f, unsigned got, unsigned want)
{
    const unsigned inf = ((1u << f.expo) - 1) << f.mant;
    return want == 0xffff ? (got & 0x7fff) > inf : got == want;
}

__global__ void convert(const float* in, const double* din, unsigned short* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float x = in[i];
    const __half h[] = {__float2half(x), __float2half_rz(x), __float2half_rd(x), __float2half_ru(x),
                        __double2half(din[i])};
    const __hip_bfloat16 b[] = {__float2bfloat16(x), __float2bfloat16_rz(x), __float2bfloat16_rd(x),
                                __float2bfloat16_ru(x), __double2bfloat16(din[i])};
    for (int k = 0; k < 5; ++k) out[10 * i + k] = __half_as_ushort(h[k]);
    for (int k = 0; k < 5; ++k) out[10 * i + 5 + k] = __bfloat16_as_ushort(b[k]);
}

// a + b, a - b, a * b, a / b, fma(a, b, c), -a * b, by intrinsics and operators.
__global__ void arithmetic(const __half2* a, const __half2* b, const __half2* c, __half2* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const __half2 r[] = {__hadd2(a[i], b[i]),       a[i] - b[i], __hmul2(a[i], b[i]), a[i] / b[i],
                         __hfma2(a[i], b[i], c[i]), -a[i] * b[i]};
    for (int k = 0; k < 6; ++k) out[6 * i + k] = r[k];
}

// Block sums in half (exact: small integers), and each wavefront's sum of __half2 by shuffles.
__global__ void reduce(const __half* in, __half* block_sums, __half2* wave_sums)
{
    __shared__ __half s[256];
    const unsigned t = threadIdx.x;
    const __half v = in[blockIdx.x * 256 + t];
    s[t] = v;
    __syncthreads();
    for (unsigned half = 128; half > 0; half /= 2) {
        if (t < half) s[t] = __hadd(s[t], s[t + half]);
        __syncthreads();
    }
    if (t == 0) block_sums[blockIdx.x] = s[0];
    __half2 w = __halves2half2(v, __hmul(v, __float2half(2.0f)));
    for (int offset = warpSize / 2; offset > 0; offset /= 2) w = __hadd2(w, __shfl_xor(w, offset));
    if (t % warpSize == 0) wave_sums[(blockIdx.x * 256 + t) / warpSize] = w;
}

// __half and __hip_bfloat16 from hip_bfloat16, through its operator float (explicitly, as ROCm's).
__global__ void from_class(const hip_bfloat16* in, float* out)
{
    const hip_bfloat16 b = in[threadIdx.x];
    const __half h(b), one = 1, two(2.0);
    const __hip_bfloat16 c(b);
    out[threadIdx.x] = __half2float(h) + __half2float(static_cast<__half>(b)) + __bfloat162float(c) +
                       __bfloat162float(static_cast<__hip_bfloat16>(b)) + __half2float(one + two);
}

// A device copy of a host vector; the host copy of n device values, the device memory freed.
template <class T> T* to_device(const std::vector<T>& v)
{
    T* p;
    SAMPLE_CHECK(hipMalloc(&p, v.size() * sizeof(T)));
    SAMPLE_CHECK(hipMemcpy(p, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice));
    return p;
}
template <class T> std::vector<T> to_host(T* p, size_t n)
{
    std::vector<T> v(n);
    SAMPLE_CHECK(hipMemcpy(v.data(), p, n * sizeof(T), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipFree(p));
    return v;
}

int check_conversions()
{
    std::vector<float> x = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 65504.0f, 65519.0f, 65520.0f, -65520.0f};
    x.insert(x.end(), {1e30f, std::ldexp(1.0f, -24), std::ldexp(1.0f, -25), std::ldexp(3.0f, -26), 1e-30f, 3.4e38f});
    for (unsigned c : {0u, 1u, 2u, 0x3ffu, 0x400u, 0x3c00u, 0x3c01u, 0x5555u, 0x7bfeu, 0x7bffu}) {
        const float tie = float((value_of(half_fmt, c) + value_of(half_fmt, c + 1)) / 2); // and either side of it
        x.insert(x.end(), {tie, -tie, std::nextafter(tie, 0.0f), std::nextafter(tie, INFINITY)});
    }
    for (unsigned c : {0u, 1u, 0x7fu, 0x80u, 0x3f80u, 0x3f81u, 0x7f7eu, 0x7f7fu}) { // bfloat16 ties
        const uint32_t tie = c << 16 | 0x8000;
        for (uint32_t bits : {tie, tie - 1, tie + 1, tie | 0x80000000u}) x.push_back(float_of_bits(bits));
    }
    uint32_t seed = 12345;
    for (int i = 0; i < 2000; ++i) x.push_back(float_of_bits(seed = seed * 1664525u + 1013904223u));
    const int n = int(x.size());
    std::vector<double> d(n);
    for (int i = 0; i < n; ++i) d[i] = double(x[i]) * (1 + std::ldexp(1.0, -40)); // bits below float's
    float* dx = to_device(x);
    double* dd = to_device(d);
    unsigned short* dout = to_device(std::vector<unsigned short>(10 * n));
    convert<<<(n + 255) / 256, 256>>>(dx, dd, dout, n);
    SAMPLE_CHECK(hipGetLastError());
    const std::vector<unsigned short> out = to_host(dout, 10 * n);
    SAMPLE_CHECK(hipFree(dx));
    SAMPLE_CHECK(hipFree(dd));
    int errors = 0;
    for (int i = 0; i < 10 * n; ++i) {
        const format f = i % 10 < 5 ? half_fmt : bf16_fmt;
        const int k = i % 5;
        const unsigned want = k == 4 ? reference(f, d[i / 10], 0) : reference(f, x[i / 10], k);
        if (!matches(f, out[i], want) && errors++ < 5)
            std::printf("conversion %d of %a: 0x%04x, expected 0x%04x\n", i % 10, d[i / 10], out[i], want);
    }
    for (unsigned c = 0; c < 0x10000; ++c) { // half and bfloat16 to float, every finite code
        const double sign = c & 0x8000 ? -1 : 1, h = sign * value_of(half_fmt, c & 0x7fff);
        const double b = sign * value_of(bf16_fmt, c & 0x7fff);
        if ((c & 0x7fff) < 0x7c00 && __half2float(__ushort_as_half((unsigned short)c)) != float(h) && errors++ < 5)
            std::printf("half 0x%04x\n", c);
        if ((c & 0x7fff) < 0x7f80 && __bfloat162float(__ushort_as_bfloat16((unsigned short)c)) != float(b) &&
            errors++ < 5)
            std::printf("bfloat16 0x%04x\n", c);
    }
    return errors;
}

int check_arithmetic()
{
    const int n = 1024;
    std::vector<__half2> in(3 * n);
    uint32_t seed = 7;
    for (auto& v : in) { // halves in [-64, 64]: a * b + c is exact in double
        seed = seed * 1664525u + 1013904223u;
        const float x = float(int((seed >> 8) % 131072) - 65536) / 1024.0f, y = float(seed % 4093) / 67.0f;
        v = __halves2half2(__float2half(x), __float2half(y));
    }
    __half2* din = to_device(in);
    __half2* dout = to_device(std::vector<__half2>(6 * n));
    arithmetic<<<n / 256, 256>>>(din, din + n, din + 2 * n, dout, n);
    SAMPLE_CHECK(hipGetLastError());
    const std::vector<__half2> out = to_host(dout, 6 * n);
    SAMPLE_CHECK(hipFree(din));
    int errors = 0;
    for (int i = 0; i < 2 * n; ++i) { // each lane
        const auto lane = [&](const __half2& v) { return i % 2 ? __high2half(v) : __low2half(v); };
        const double a = __half2float(lane(in[i / 2])), b = __half2float(lane(in[n + i / 2]));
        const double c = __half2float(lane(in[2 * n + i / 2]));
        const double exact[] = {a + b, a - b, a * b, a / b, a * b + c, -a * b};
        for (int k = 0; k < 6; ++k) {
            const unsigned got = __half_as_ushort(lane(out[6 * (i / 2) + k]));
            if (!matches(half_fmt, got, reference(half_fmt, exact[k], 0)) && errors++ < 5)
                std::printf("operation %d of %g, %g, %g: 0x%04x\n", k, a, b, c, got);
        }
    }
    return errors;
}

int check_reductions()
{
    const int blocks = 8, n = blocks * 256;
    int warp = 0;
    SAMPLE_CHECK(hipDeviceGetAttribute(&warp, hipDeviceAttributeWarpSize, 0));
    std::vector<__half> in(n);
    for (int i = 0; i < n; ++i) in[i] = __float2half(float((i * 7) % 4));
    __half* din = to_device(in);
    __half* dblock = to_device(std::vector<__half>(blocks));
    __half2* dwave = to_device(std::vector<__half2>(n / warp));
    reduce<<<blocks, 256>>>(din, dblock, dwave);
    SAMPLE_CHECK(hipGetLastError());
    const std::vector<__half> block_sums = to_host(dblock, blocks);
    const std::vector<__half2> wave_sums = to_host(dwave, n / warp);
    SAMPLE_CHECK(hipFree(din));
    int errors = 0;
    std::vector<float> want_block(blocks), want_wave(n / warp);
    for (int i = 0; i < n; ++i) want_block[i / 256] += __half2float(in[i]), want_wave[i / warp] += __half2float(in[i]);
    for (int b = 0; b < blocks; ++b)
        if (__half2float(block_sums[b]) != want_block[b] && errors++ < 5) std::printf("block %d\n", b);
    for (int w = 0; w < n / warp; ++w) {
        const float2 got = __half22float2(wave_sums[w]);
        if ((got.x != want_wave[w] || got.y != 2 * want_wave[w]) && errors++ < 5) std::printf("wavefront %d\n", w);
    }
    return errors;
}

int check_from_class()
{
    const std::vector<hip_bfloat16> in = {hip_bfloat16(1.5f), hip_bfloat16(-0.375f), hip_bfloat16(96.0f)};
    hip_bfloat16* din = to_device(in);
    float* dout = to_device(std::vector<float>(in.size()));
    from_class<<<1, unsigned(in.size())>>>(din, dout);
    SAMPLE_CHECK(hipGetLastError());
    const std::vector<float> out = to_host(dout, in.size());
    SAMPLE_CHECK(hipFree(din));
    int errors = 0;
    for (size_t i = 0; i < in.size(); ++i)
        if (out[i] != 4 * float(in[i]) + 3 && errors++ < 5)
            std::printf("from hip_bfloat16 %g: %g\n", float(in[i]), out[i]);
    return errors;
}

int main()
{
    const int errors = check_conversions() + check_arithmetic() + check_reductions() + check_from_class();
    return sample_result("half_precision", errors);
}
