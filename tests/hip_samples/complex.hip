// Complex numbers (hip_complex.h): every function on hipFloatComplex and hipDoubleComplex in a
// kernel, against the host's values computed in long double, within a few units in the last place
// of the operands' scale (GPUs may fuse a multiply and an add). hipFloatComplex is float2, so it is
// passed to a function that takes float2. Where the platform computes as HIP on AMD (the cpu
// platform), also HIP's formulas at their limits: |z| and a quotient through the unscaled |z|^2.
#include <hip/hip_complex.h>
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <cmath>
#include <vector>

constexpr int n = 256, ops = 10;

// HIP's complex types are its vector types: they pass where those are taken.
__device__ float2 swapped(float2 v) { return make_float2(v.y, v.x); }
__device__ double2 swapped(double2 v) { return make_double2(v.y, v.x); }

__global__ void float_ops(const hipFloatComplex* p, const hipFloatComplex* q, const hipFloatComplex* r,
                          hipFloatComplex* out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const hipFloatComplex a = p[i], b = q[i];
    const hipFloatComplex results[ops] = {make_hipFloatComplex(hipCrealf(a), hipCimagf(a)),
                                          hipConjf(a),
                                          hipCaddf(a, b),
                                          hipCsubf(a, b),
                                          hipCmulf(a, b),
                                          hipCdivf(a, b),
                                          make_hipComplex(hipCabsf(a), hipCsqabsf(a)),
                                          hipCfmaf(a, b, r[i]),
                                          hipComplexDoubleToFloat(hipComplexFloatToDouble(a)),
                                          swapped(a)};
    for (int k = 0; k < ops; ++k) out[ops * i + k] = results[k];
}

__global__ void double_ops(const hipDoubleComplex* p, const hipDoubleComplex* q, const hipDoubleComplex* r,
                           hipDoubleComplex* out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const hipDoubleComplex a = p[i], b = q[i];
    const hipDoubleComplex results[ops] = {make_hipDoubleComplex(hipCreal(a), hipCimag(a)),
                                           hipConj(a),
                                           hipCadd(a, b),
                                           hipCsub(a, b),
                                           hipCmul(a, b),
                                           hipCdiv(a, b),
                                           make_hipDoubleComplex(hipCabs(a), hipCsqabs(a)),
                                           hipCfma(a, b, r[i]),
                                           hipComplexFloatToDouble(hipComplexDoubleToFloat(a)),
                                           swapped(a)};
    for (int k = 0; k < ops; ++k) out[ops * i + k] = results[k];
}

// HIP's formulas at their limits: |(3e19, 4e19)| squares past float's range; (1, 1) / (1e20, 1e20)
// divides by an infinite |q|^2.
__global__ void limits(hipFloatComplex* out)
{
    out[0] = make_hipFloatComplex(hipCabsf(make_hipFloatComplex(3e19f, 4e19f)), 0.0f);
    out[1] = hipCdivf(make_hipFloatComplex(1.0f, 1.0f), make_hipFloatComplex(1e20f, 1e20f));
}

struct cx {
    long double re, im;
};
long double mag(cx z) { return std::sqrt(z.re * z.re + z.im * z.im); }
/// v rounded to float: through memory, since g++ may keep an x87 value's excess precision across a cast.
long double to_float(long double v)
{
    volatile float f = float(v);
    return f;
}

/// The exact result of operation k on p, q, r, and the scale its rounding errors are relative to.
cx expected(int k, cx p, cx q, cx r, long double& scale)
{
    const long double d = q.re * q.re + q.im * q.im;
    const cx want[ops] = {p,
                          {p.re, -p.im},
                          {p.re + q.re, p.im + q.im},
                          {p.re - q.re, p.im - q.im},
                          {p.re * q.re - p.im * q.im, p.im * q.re + p.re * q.im},
                          {(p.re * q.re + p.im * q.im) / d, (p.im * q.re - p.re * q.im) / d},
                          {mag(p), p.re * p.re + p.im * p.im},
                          {p.re * q.re - p.im * q.im + r.re, p.im * q.re + p.re * q.im + r.im},
                          {to_float(p.re), to_float(p.im)},
                          {p.im, p.re}};
    const long double sum = mag(p) + mag(q), product = mag(p) * mag(q);
    const long double scales[ops] = {
        mag(p), mag(p), sum, sum, product, mag(p) / mag(q), mag(p) * (1 + mag(p)), product + mag(r), sum, mag(p)};
    scale = scales[k];
    return want[k];
}

/// Checks every operation's results (V: float2 or double2) within tol of their scale.
template <class V> int check(const char* type, const std::vector<V>& in, const std::vector<V>& out, long double tol)
{
    int errors = 0;
    for (int i = 0; i < n; ++i) {
        const cx p{in[i].x, in[i].y}, q{in[n + i].x, in[n + i].y}, r{in[2 * n + i].x, in[2 * n + i].y};
        for (int k = 0; k < ops; ++k) {
            long double scale;
            const cx want = expected(k, p, q, r, scale);
            const V got = out[ops * i + k];
            const long double err = std::fmax(std::fabs(got.x - want.re), std::fabs(got.y - want.im));
            if (!(err <= tol * scale) && errors++ < 5)
                std::printf("%s operation %d of (%g, %g), (%g, %g): (%g, %g), expected (%Lg, %Lg)\n", type, k,
                            double(p.re), double(p.im), double(q.re), double(q.im), double(got.x), double(got.y),
                            want.re, want.im);
        }
    }
    return errors;
}

template <class T> T* to_device(const std::vector<T>& v)
{
    T* d;
    SAMPLE_CHECK(hipMalloc(&d, v.size() * sizeof(T)));
    SAMPLE_CHECK(hipMemcpy(d, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice));
    return d;
}
template <class T> std::vector<T> to_host(T* d, size_t count)
{
    std::vector<T> v(count);
    SAMPLE_CHECK(hipMemcpy(v.data(), d, count * sizeof(T), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipFree(d));
    return v;
}

int main()
{
    std::vector<hipFloatComplex> in_f(3 * n); // p, q (|q| >= 1/2), r
    std::vector<hipDoubleComplex> in_d(3 * n);
    unsigned seed = 2026;
    const auto next = [&seed](float lo, float hi) {
        seed = seed * 1664525u + 1013904223u;
        return lo + (hi - lo) * float(seed >> 8) / float(1 << 24);
    };
    for (int i = 0; i < 3 * n; ++i) {
        const float scale = std::ldexp(1.0f, int(next(-6, 6)));
        in_f[i] = make_hipFloatComplex(scale * next(-4, 4), scale * next(-4, 4));
        if (i / n == 1 && hipCabsf(in_f[i]) < 0.5f) in_f[i].x += 1.0f;
        in_d[i] = make_hipDoubleComplex(in_f[i].x * (1 + 1e-9 * i), in_f[i].y / 3.0); // beyond float's bits
    }
    hipFloatComplex* df = to_device(in_f);
    hipDoubleComplex* dd = to_device(in_d);
    hipFloatComplex* dout_f = to_device(std::vector<hipFloatComplex>(ops * n));
    hipDoubleComplex* dout_d = to_device(std::vector<hipDoubleComplex>(ops * n));
    hipFloatComplex* dlimits = to_device(std::vector<hipFloatComplex>(2));
    float_ops<<<n / 64, 64>>>(df, df + n, df + 2 * n, dout_f);
    double_ops<<<n / 64, 64>>>(dd, dd + n, dd + 2 * n, dout_d);
    limits<<<1, 1>>>(dlimits);
    SAMPLE_CHECK(hipGetLastError());
    const std::vector<hipFloatComplex> out_f = to_host(dout_f, ops * n), lim = to_host(dlimits, 2);
    const std::vector<hipDoubleComplex> out_d = to_host(dout_d, ops * n);
    SAMPLE_CHECK(hipFree(df));
    SAMPLE_CHECK(hipFree(dd));
    int errors = check("float", in_f, out_f, 8 * std::ldexp(1.0L, -24)) + check("double", in_d, out_d, 1e-15L);
#if !defined(__HIP_PLATFORM_NVIDIA__) // CUDA scales: |z| = 5e19, the quotient (1e-20, 0)
    if (!std::isinf(lim[0].x) || lim[1].x != 0.0f || lim[1].y != 0.0f) {
        std::printf("HIP's formulas: |z| %g, quotient (%g, %g)\n", lim[0].x, lim[1].x, lim[1].y);
        ++errors;
    }
#endif
    return sample_result("complex", errors);
}
