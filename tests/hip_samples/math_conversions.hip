// HIP's conversions with a rounding mode (_rn to nearest even, _rz toward zero, _rd down, _ru up),
// bit for bit against independent host computations: float and double to the four integer types
// (saturated to their range, as the GPUs' conversion instructions do; NaN, which GPUs convert
// differently, is not checked there), double to float, and the integer types to float and
// double. Inputs: ties, the edges of each range, subnormals, infinities, NaN, and pseudo-random
// values of every magnitude.
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

typedef unsigned long long u64;
constexpr int results = 62;

template <class T> __host__ __device__ u64 bits(T v)
{
    if (sizeof(T) == 4) {
        unsigned b;
        memcpy(&b, &v, 4);
        return std::is_integral<T>::value && std::is_signed<T>::value ? u64((long long)int(b)) : b; // sign-extended
    }
    u64 b;
    memcpy(&b, &v, 8);
    return b;
}

// Results k .. k + 3: `name` in the four modes, applied to `arg`.
#define MODES(k, name, arg)                                                                                            \
    o[k] = bits(name##_rn(arg)), o[k + 1] = bits(name##_rz(arg)), o[k + 2] = bits(name##_rd(arg)),                     \
    o[k + 3] = bits(name##_ru(arg))

__global__ void conversions(const float* f, const double* d, const u64* q, u64* out, int n)
{
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    u64* o = out + i * results;
    const float x = f[i];
    const double y = d[i];
    const u64 v = q[i];
    MODES(0, __float2int, x), MODES(4, __float2uint, x), MODES(8, __float2ll, x), MODES(12, __float2ull, x);
    MODES(16, __double2int, y), MODES(20, __double2uint, y), MODES(24, __double2ll, y), MODES(28, __double2ull, y);
    MODES(32, __double2float, y), MODES(36, __int2float, int(v)), MODES(40, __uint2float, unsigned(v));
    MODES(44, __ll2float, (long long)v), MODES(48, __ull2float, v), MODES(52, __ll2double, (long long)v);
    MODES(56, __ull2double, v), o[60] = bits(__int2double_rn(int(v))), o[61] = bits(__uint2double_rn(unsigned(v)));
}

// ---- the host's answers, from the exact value in long double (64-bit significand) ------------------
enum { rn, rz, rd, ru };
/// v rounded to an integer in `mode`, saturated to [lo, hi]; NaN gives 0.
long double to_integer(long double v, int mode, long double lo, long double hi)
{
    if (v != v) return 0;
    const long double down = std::floor(v), frac = v - down;
    long double r = down;
    if (mode == ru || (mode == rz && v < 0)) r = frac > 0 ? down + 1 : down;
    if (mode == rn) r = frac > 0.5L || (frac == 0.5L && std::fmod(down, 2.0L) != 0) ? down + 1 : down;
    return r < lo ? lo : r > hi ? hi : r;
}
template <class I> u64 integer(long double v, int mode)
{
    const long double r = to_integer(v, mode, std::numeric_limits<I>::min(), std::numeric_limits<I>::max());
    return bits(I(r));
}
/// The exact value `v` rounded to F in `mode`: to nearest by the host, then one step if needed.
template <class F> u64 floating(long double v, int mode)
{
    F r = F(v);
    const F inf = std::numeric_limits<F>::infinity();
    if (mode == rd && r > v) r = std::nextafter(r, -inf);
    if (mode == ru && r < v) r = std::nextafter(r, inf);
    if (mode == rz && std::fabs((long double)r) > std::fabs(v)) r = std::nextafter(r, F(0));
    return bits(r);
}
void reference(float x, double y, u64 v, u64* o)
{
    for (int m = 0; m < 4; ++m) {
        o[m] = integer<int>(x, m), o[4 + m] = integer<unsigned>(x, m), o[8 + m] = integer<long long>(x, m);
        o[12 + m] = integer<u64>(x, m), o[16 + m] = integer<int>(y, m), o[20 + m] = integer<unsigned>(y, m);
        o[24 + m] = integer<long long>(y, m), o[28 + m] = integer<u64>(y, m), o[32 + m] = floating<float>(y, m);
        o[36 + m] = floating<float>(int(v), m), o[40 + m] = floating<float>(unsigned(v), m);
        o[44 + m] = floating<float>((long long)v, m), o[48 + m] = floating<float>(v, m);
        o[52 + m] = floating<double>((long long)v, m), o[56 + m] = floating<double>(v, m);
    }
    o[60] = bits(double(int(v))), o[61] = bits(double(unsigned(v)));
}

int main()
{
    const float big = std::numeric_limits<float>::max(), inf = std::numeric_limits<float>::infinity();
    std::vector<float> f = {0.0f,
                            -0.0f,
                            0.5f,
                            -0.5f,
                            1.5f,
                            -1.5f,
                            2.5f,
                            -2.5f,
                            0.49999997f,
                            1e-45f,
                            -1e-45f,
                            8388607.5f,
                            2147483520.0f,
                            2147483648.0f,
                            -2147483648.0f,
                            -2147483904.0f,
                            4294967040.0f,
                            4294967296.0f,
                            9223371487098961920.0f,
                            9223372036854775808.0f,
                            -9223372036854775808.0f,
                            18446742974197923840.0f,
                            18446744073709551616.0f,
                            big,
                            -big,
                            inf,
                            -inf,
                            std::nanf("")};
    std::vector<double> d = {0.0,
                             -0.0,
                             0.5,
                             -2.5,
                             3.5,
                             2147483647.5,
                             2147483648.5,
                             -2147483648.5,
                             -2147483649.0,
                             4294967295.5,
                             4294967296.0,
                             9007199254740993.0,
                             9223372036854774784.0,
                             1e-300,
                             -1e-300,
                             3.4028235677973366e38,
                             3.4028235677973362e38,
                             -3.4028236e38,
                             1.00000005960464478,
                             1.0000000596046448 + 1e-16,
                             1e300,
                             -inf,
                             std::nan("")};
    std::vector<u64> q = {0,
                          1,
                          ~0ull,
                          16777217,
                          16777219,
                          0x7fffffff,
                          0x80000000,
                          0xffffffff,
                          9007199254740993ull,
                          0x7fffffffffffffffull,
                          0x8000000000000000ull,
                          0xfffffffffffffc01ull,
                          0x800000000000fc01ull};
    u64 r = 7;
    while (f.size() < 600 || d.size() < 600 || q.size() < 600) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        const double m = double(r >> 11) / 9007199254740992.0 - 0.5; // [-0.5, 0.5)
        if (f.size() < 600) f.push_back(float(std::ldexp(m, int(r % 80) - 10)));
        if (d.size() < 600) d.push_back(std::ldexp(m, int(r % 300) - 150));
        if (q.size() < 600) q.push_back(r >> (r % 64));
    }
    const int n = 600;
    float* df;
    double* dd;
    u64 *dq, *dout;
    SAMPLE_CHECK(hipMalloc(&df, n * sizeof(float)));
    SAMPLE_CHECK(hipMalloc(&dd, n * sizeof(double)));
    SAMPLE_CHECK(hipMalloc(&dq, n * sizeof(u64)));
    SAMPLE_CHECK(hipMalloc(&dout, n * results * sizeof(u64)));
    SAMPLE_CHECK(hipMemcpy(df, f.data(), n * sizeof(float), hipMemcpyHostToDevice));
    SAMPLE_CHECK(hipMemcpy(dd, d.data(), n * sizeof(double), hipMemcpyHostToDevice));
    SAMPLE_CHECK(hipMemcpy(dq, q.data(), n * sizeof(u64), hipMemcpyHostToDevice));
    conversions<<<(n + 127) / 128, 128>>>(df, dd, dq, dout, n);
    SAMPLE_CHECK(hipGetLastError());
    std::vector<u64> out(n * results);
    SAMPLE_CHECK(hipMemcpy(out.data(), dout, out.size() * sizeof(u64), hipMemcpyDeviceToHost));

    int errors = 0;
    for (int i = 0; i < n; ++i) {
        u64 want[results];
        reference(f[i], d[i], q[i], want);
        for (int k = 0; k < results; ++k) {
            const u64 got = out[i * results + k];
            if ((k < 16 && std::isnan(f[i])) || (k >= 16 && k < 32 && std::isnan(d[i])))
                continue; // NaN to an integer: 0 on AMD GPUs, INT_MIN or 0 on NVIDIA's; none is exact
            if (k >= 32 && k < 36 && std::isnan(d[i])) { // double to float of a NaN: any NaN
                errors += (got & 0x7f800000) != 0x7f800000 || (got & 0x7fffff) == 0;
                continue;
            }
            if (got != want[k] && ++errors <= 10)
                std::printf("input %d (%a, %a, %#llx), result %d: %#llx, want %#llx\n", i, f[i], d[i], q[i], k, got,
                            want[k]);
        }
    }
    SAMPLE_CHECK(hipFree(df));
    SAMPLE_CHECK(hipFree(dd));
    SAMPLE_CHECK(hipFree(dq));
    SAMPLE_CHECK(hipFree(dout));
    return sample_result("math_conversions", errors);
}
