// 8-bit floating point (hip_fp8.h): all 256 codes of each format decoded in a kernel (by
// __hip_cvt_fp8_to_halfraw and by the structs) and compared with their values from the format's
// definition, then encoded back (round trips); float to fp8 rounding and saturation compared with
// the host's search for the nearest code. The OCP formats everywhere; AMD's FNUZ formats, and the
// cases where HIP's rules differ from CUDA's, on the cpu platform (NVIDIA has no FNUZ formats).
#include <hip/hip_fp8.h>
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <cmath>
#include <vector>

struct kind {
    __hip_fp8_interpretation_t interp;
    int mant, bias;
    unsigned max; // the largest finite code
    bool fnuz, inf;
};
const kind kinds[] = {{__HIP_E4M3, 3, 7, 0x7e, false, false},
                      {__HIP_E5M2, 2, 15, 0x7b, false, true},
#ifdef __HIP_PLATFORM_WAVEBENCH_CPU__
                      {__HIP_E4M3_FNUZ, 3, 8, 0x7f, true, false},
                      {__HIP_E5M2_FNUZ, 2, 16, 0x7f, true, false}
#endif
};
constexpr int nkinds = sizeof(kinds) / sizeof(kinds[0]);

// The value of a code by the format's definition.
double decode(const kind& k, unsigned c)
{
    const unsigned mag = c & 0x7f, e = mag >> k.mant, m = mag & ((1u << k.mant) - 1);
    const double sign = c & 0x80 ? -1 : 1;
    if (k.fnuz ? c == 0x80 : (k.inf ? mag > 0x7c : mag == 0x7f)) return NAN;
    if (k.inf && mag == 0x7c) return sign * INFINITY;
    return sign *
           (e == 0 ? std::ldexp(m, 1 - k.bias - k.mant) : std::ldexp(m + (1u << k.mant), int(e) - k.bias - k.mant));
}

// HIP's float to fp8: the nearest finite code (the even one of two as near); beyond the largest
// finite value that value (saturating), else infinity or NaN.
unsigned encode(const kind& k, double x, bool saturate)
{
    const unsigned sign = std::signbit(x) ? 0x80 : 0, nan = k.fnuz ? 0x80 : sign | 0x7f;
    if (std::isnan(x)) return nan;
    if (std::isinf(x)) return k.inf ? sign | 0x7c : nan;
    const double a = std::fabs(x);
    if (a > decode(k, k.max)) return saturate ? sign | k.max : k.inf ? sign | 0x7c : nan;
    unsigned best = 0;
    for (unsigned c = 1; c <= k.max; ++c) {
        const double d = std::fabs(decode(k, c) - a), db = std::fabs(decode(k, best) - a);
        if (d < db || (d == db && c % 2 == 0)) best = c;
    }
    return best == 0 && k.fnuz ? 0 : sign | best;
}

template <class T> __device__ float via_struct(unsigned char c)
{
    T v;
    v.__x = c;
    return float(v);
}

// Thread k * 256 + c decodes code c of format k both ways and encodes the value back.
__global__ void round_trips(const int* interps, float* values, float* struct_values, unsigned char* back)
{
    const int i = blockIdx.x * 256 + threadIdx.x;
    const auto interp = __hip_fp8_interpretation_t(interps[blockIdx.x]);
    const unsigned char c = (unsigned char)threadIdx.x;
    values[i] = __half2float(__hip_cvt_fp8_to_halfraw(c, interp));
    back[i] = __hip_cvt_float_to_fp8(values[i], __HIP_NOSAT, interp);
    struct_values[i] = interp == __HIP_E4M3 ? via_struct<__hip_fp8_e4m3>(c) : via_struct<__hip_fp8_e5m2>(c);
#ifdef __HIP_PLATFORM_WAVEBENCH_CPU__
    if (interp == __HIP_E4M3_FNUZ) struct_values[i] = via_struct<__hip_fp8_e4m3_fnuz>(c);
    if (interp == __HIP_E5M2_FNUZ) struct_values[i] = via_struct<__hip_fp8_e5m2_fnuz>(c);
#endif
}

// Thread i converts input i to every format, saturating and not; thread 0 also packs four.
__global__ void conversions(const float* in, const int* interps, int nk, unsigned char* out, unsigned* packed, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int k = 0; k < nk; ++k) {
        out[(2 * k) * n + i] = __hip_cvt_float_to_fp8(in[i], __HIP_NOSAT, __hip_fp8_interpretation_t(interps[k]));
        out[(2 * k + 1) * n + i] =
            __hip_cvt_float_to_fp8(in[i], __HIP_SATFINITE, __hip_fp8_interpretation_t(interps[k]));
    }
    if (i == 0) packed[0] = __hip_fp8x4_e4m3(make_float4(1.0f, 2.0f, 3.0f, 4.0f)).__x;
    if (i == 0) packed[1] = __hip_cvt_float2_to_fp8x2(make_float2(-1.0f, 0.5f), __HIP_SATFINITE, __HIP_E5M2);
}

bool matches(const kind& k, unsigned got, unsigned want)
{
    return std::isnan(decode(k, want)) ? std::isnan(decode(k, got)) : got == want;
}

int main()
{
    int errors = 0, interps[nkinds];
    for (int k = 0; k < nkinds; ++k) interps[k] = kinds[k].interp;
    int* dinterps;
    float *dvalues, *dstruct, *din;
    unsigned char *dback, *dout;
    unsigned* dpacked;
    SAMPLE_CHECK(hipMalloc(&dinterps, sizeof interps));
    SAMPLE_CHECK(hipMemcpy(dinterps, interps, sizeof interps, hipMemcpyHostToDevice));
    SAMPLE_CHECK(hipMalloc(&dvalues, nkinds * 256 * sizeof(float)));
    SAMPLE_CHECK(hipMalloc(&dstruct, nkinds * 256 * sizeof(float)));
    SAMPLE_CHECK(hipMalloc(&dback, nkinds * 256));
    round_trips<<<nkinds, 256>>>(dinterps, dvalues, dstruct, dback);
    SAMPLE_CHECK(hipGetLastError());
    std::vector<float> values(nkinds * 256), struct_values(nkinds * 256);
    std::vector<unsigned char> back(nkinds * 256);
    SAMPLE_CHECK(hipMemcpy(values.data(), dvalues, values.size() * sizeof(float), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipMemcpy(struct_values.data(), dstruct, values.size() * sizeof(float), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipMemcpy(back.data(), dback, back.size(), hipMemcpyDeviceToHost));
    for (int k = 0; k < nkinds; ++k) {
        for (unsigned c = 0; c < 256; ++c) {
            const double want = decode(kinds[k], c);
            const float got = values[k * 256 + c], got_struct = struct_values[k * 256 + c];
            const bool same = std::isnan(want) ? std::isnan(got) && std::isnan(got_struct)
                                               : got == float(want) && got_struct == float(want) &&
                                                     std::signbit(got) == std::signbit(want);
            if ((!same || !matches(kinds[k], back[k * 256 + c], c)) && errors++ < 5)
                std::printf("format %d code 0x%02x: %g %g, back 0x%02x\n", k, c, got, got_struct, back[k * 256 + c]);
        }
    }
    // Rounding cases: ties between neighbouring codes and either side of them, a half of the
    // smallest subnormal, zeros, far beyond the largest value, NaN.
    std::vector<float> in = {0.0f, -0.0f, NAN, 1.5f, -3.25f, 1e6f, -1e9f, 1e-10f};
    for (const kind& k : kinds) {
        for (unsigned c : {0u, 1u, 2u, 3u, 7u, 8u, 0x33u, k.max - 1}) {
            const float tie = float((decode(k, c) + decode(k, c + 1)) / 2);
            in.insert(in.end(), {tie, -tie, tie * (1 + 1e-6f), tie * (1 - 1e-6f)});
        }
#ifdef __HIP_PLATFORM_WAVEBENCH_CPU__
        // HIP's rules, not CUDA's: just above the largest value is beyond it; infinities stay.
        in.insert(in.end(), {float(decode(k, k.max)) * (1 + 1e-6f), -INFINITY, INFINITY});
#endif
    }
    const int n = int(in.size());
    SAMPLE_CHECK(hipMalloc(&din, n * sizeof(float)));
    SAMPLE_CHECK(hipMalloc(&dout, 2 * nkinds * n));
    SAMPLE_CHECK(hipMalloc(&dpacked, 2 * sizeof(unsigned)));
    SAMPLE_CHECK(hipMemcpy(din, in.data(), n * sizeof(float), hipMemcpyHostToDevice));
    conversions<<<(n + 127) / 128, 128>>>(din, dinterps, nkinds, dout, dpacked, n);
    SAMPLE_CHECK(hipGetLastError());
    std::vector<unsigned char> out(2 * nkinds * n);
    unsigned packed[2];
    SAMPLE_CHECK(hipMemcpy(out.data(), dout, out.size(), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipMemcpy(packed, dpacked, sizeof packed, hipMemcpyDeviceToHost));
    for (int k = 0; k < nkinds; ++k) {
        for (int i = 0; i < n; ++i) {
            for (int sat = 0; sat < 2; ++sat) {
                const unsigned got = out[(2 * k + sat) * n + i], want = encode(kinds[k], in[i], sat != 0);
                if (!matches(kinds[k], got, want) && errors++ < 10)
                    std::printf("format %d, %a (saturate %d): 0x%02x, expected 0x%02x\n", k, in[i], sat, got, want);
            }
        }
    }
    if ((packed[0] != 0x48444038u || packed[1] != 0x38bcu) && errors++ < 10)
        std::printf("packed: 0x%08x 0x%04x\n", packed[0], packed[1]);
    for (void* p :
         {(void*)dinterps, (void*)dvalues, (void*)dstruct, (void*)dback, (void*)din, (void*)dout, (void*)dpacked})
        SAMPLE_CHECK(hipFree(p));
    return sample_result("fp8", errors);
}
