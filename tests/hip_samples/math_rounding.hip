// HIP's arithmetic with a rounding mode (__fadd_rd ... __dsqrt_ru: _rn to nearest even, _rz toward
// zero, _rd down, _ru up), bit for bit against exact reasoning on the host: the host rounds to
// nearest, finds the sign of the exact result minus that with error-free transformations, and
// steps one ulp where the mode requires it. Inputs: random operands, exact cancellations (the
// signed zeros of each mode), near-cancelling fmas, overflow and underflow.
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

typedef unsigned long long u64;
constexpr int results = 28; // 7 operations in 4 modes

template <class T> __host__ __device__ u64 bits(T v)
{
    u64 b = 0;
    memcpy(&b, &v, sizeof(T));
    return b;
}
#define MODES(k, name, ...)                                                                                            \
    o[k] = bits(name##_rn(__VA_ARGS__)), o[k + 1] = bits(name##_rz(__VA_ARGS__)),                                      \
    o[k + 2] = bits(name##_rd(__VA_ARGS__)), o[k + 3] = bits(name##_ru(__VA_ARGS__))

__global__ void rounded_float(const float* in, u64* out, int n)
{
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    const float a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    u64* o = out + i * results;
    MODES(0, __fadd, a, b), MODES(4, __fsub, a, b), MODES(8, __fmul, a, b), MODES(12, __fdiv, a, b);
    MODES(16, __fmaf, a, b, c), MODES(20, __frcp, a), MODES(24, __fsqrt, a);
}
__global__ void rounded_double(const double* in, u64* out, int n)
{
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    const double a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    u64* o = out + i * results;
    MODES(0, __dadd, a, b), MODES(4, __dsub, a, b), MODES(8, __dmul, a, b), MODES(12, __ddiv, a, b);
    MODES(16, __fma, a, b, c), MODES(20, __drcp, a), MODES(24, __dsqrt, a);
}

// ---- the host's answers ---------------------------------------------------------------------------------
// W, the working type, holds products of two operands exactly split (double for float, long double
// for double: 64-bit significands and exponents far beyond double's, so nothing underflows).
template <class W> void two_sum(W a, W b, W& s, W& e) // s + e == a + b exactly
{
    s = a + b;
    const W bb = s - a;
    e = (a - (s - bb)) + (b - bb);
}
template <class W> std::vector<W> product(W a, W b) // a * b as two terms
{
    const W p = a * b;
    return {p, std::fma(a, b, -p)};
}
/// The sign of the exact sum of the terms `t`: two_sum passes until nothing moves leave each term
/// below half an ulp of the next one, so the topmost nonzero term has the sign of the sum.
template <class W> int exact_sign(std::vector<W> t)
{
    for (bool moved = true; moved;) {
        moved = false;
        for (size_t i = 0; i + 1 < t.size(); ++i) {
            W s, e;
            two_sum(t[i], t[i + 1], s, e);
            moved |= s != t[i + 1] || e != t[i];
            t[i] = e, t[i + 1] = s;
        }
    }
    for (size_t i = t.size(); i-- > 0;)
        if (t[i] != 0) return t[i] > 0 ? 1 : -1;
    return 0;
}
template <class W> std::vector<W> operator+(std::vector<W> a, const std::vector<W>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}
template <class W> std::vector<W> operator-(const std::vector<W>& a) // every term negated
{
    std::vector<W> r;
    for (W v : a) r.push_back(-v);
    return r;
}
/// r, rounded to nearest, moved to the mode's result (0 rn, 1 rz, 2 rd, 3 ru) given the sign of
/// exact - r. An exact zero from terms that do not all share a zero's sign is -0 rounding down.
template <class T> T directed(T r, int sign, int mode, bool mixed_zero)
{
    const T inf = std::numeric_limits<T>::infinity();
    if (r == 0 && sign == 0) return mixed_zero ? (mode == 2 ? -T(0) : T(0)) : r;
    if (std::isinf(r)) // an overflow: only rounding away from zero reaches infinity
        return mode == 0 || mode == (r > 0 ? 3 : 2) ? r : std::copysign(std::numeric_limits<T>::max(), r);
    const T down = sign < 0 ? std::nextafter(r, -inf) : r, up = sign > 0 ? std::nextafter(r, inf) : r;
    const bool positive = r > 0 || (r == 0 && sign > 0);
    return mode == 0 ? r : mode == 1 ? (positive ? down : up) : mode == 2 ? down : up;
}
template <class T, class W> void reference(T a, T b, T c, u64* o)
{
    const T r[7] = {a + b, a - b, a * b, a / b, std::fma(a, b, c), 1 / a, std::sqrt(a)};
    const bool fa = std::isfinite(a), fab = fa && std::isfinite(b), fabc = fab && std::isfinite(c);
    const bool finite[7] = {fab, fab, fab, fab && b != 0, fabc, fa && a != 0, fa}; // else exact (inf, NaN)
    const bool zero_product = a == 0 || b == 0, product_negative = std::signbit(a) != std::signbit(b);
    const bool mixed[7] = {std::signbit(a) != std::signbit(b) || a != 0,
                           std::signbit(a) == std::signbit(b) || a != 0,
                           false,
                           false,
                           !(zero_product && c == 0 && product_negative == std::signbit(c)),
                           false,
                           false};
    for (int op = 0; op < 7; ++op) {
        const W x = a, y = b, z = c, v = r[op];
        int sign = 0;
        if (finite[op] && std::isfinite(r[op])) { // exact - r as a sum of terms; for / and sqrt a remainder
            if (op == 0) sign = exact_sign<W>({x, y, -v});
            if (op == 1) sign = exact_sign<W>({x, -y, -v});
            if (op == 2) sign = exact_sign(product(x, y) + std::vector<W>{-v});
            if (op == 3) sign = exact_sign(std::vector<W>{x} + -product(v, y)) * (b < 0 ? -1 : 1);
            if (op == 4) sign = exact_sign(product(x, y) + std::vector<W>{z, -v});
            if (op == 5) sign = exact_sign(std::vector<W>{1} + -product(v, x)) * (a < 0 ? -1 : 1);
            if (op == 6) sign = exact_sign(std::vector<W>{x} + -product(v, v));
        }
        for (int m = 0; m < 4; ++m)
            o[4 * op + m] = bits(finite[op] && !std::isnan(r[op]) ? directed(r[op], sign, m, mixed[op]) : r[op]);
    }
}

template <class T, class W> int test(int n, unsigned long long seed)
{
    std::vector<T> in;
    const T top = std::numeric_limits<T>::max(), tiny = std::numeric_limits<T>::denorm_min();
    const T special[] = {1,   -1, 0,        -0.0f,    0,       0,         -0.0f,    -0.0f, 0,    top,
                         top, 1,  T(1e-30), T(1e-30), 0,       T(-1e-30), T(1e-30), 1,     tiny, T(0.5),
                         0,   3,  -tiny,    1,        T(1e30), T(-1e-10), 0,        2,     3,    T(1) / 3};
    in.assign(special, special + sizeof special / sizeof(T)); // (a, b, c) triples
    for (u64 s = seed; in.size() < size_t(3 * n);) {
        T v[3];
        for (T& x : v) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            x = std::ldexp(T(double(s >> 11) / 9007199254740992.0 - 0.5), int(s % 41) - 20);
        }
        const int kind = int(s >> 60) % 4; // exact cancellations and near-cancelling fmas too
        in.insert(in.end(), {v[0], kind == 1 ? -v[0] : v[1], kind == 2 ? -(v[0] * v[1]) : v[2]});
    }
    T* d_in;
    u64* d_out;
    SAMPLE_CHECK(hipMalloc(&d_in, 3 * n * sizeof(T)));
    SAMPLE_CHECK(hipMalloc(&d_out, n * results * sizeof(u64)));
    SAMPLE_CHECK(hipMemcpy(d_in, in.data(), 3 * n * sizeof(T), hipMemcpyHostToDevice));
    if (sizeof(T) == 4)
        rounded_float<<<(n + 63) / 64, 64>>>((const float*)d_in, d_out, n);
    else
        rounded_double<<<(n + 63) / 64, 64>>>((const double*)d_in, d_out, n);
    SAMPLE_CHECK(hipGetLastError());
    std::vector<u64> out(n * results);
    SAMPLE_CHECK(hipMemcpy(out.data(), d_out, out.size() * sizeof(u64), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipFree(d_in));
    SAMPLE_CHECK(hipFree(d_out));
    int errors = 0;
    for (int i = 0; i < n; ++i) {
        u64 want[results];
        reference<T, W>(in[3 * i], in[3 * i + 1], in[3 * i + 2], want);
        for (int k = 0; k < results; ++k) {
            T got, w;
            std::memcpy(&got, &out[i * results + k], sizeof(T));
            std::memcpy(&w, &want[k], sizeof(T));
            if (std::isnan(got) && std::isnan(w)) continue; // a NaN's bits may differ
            if (std::memcmp(&got, &w, sizeof(T)) != 0 && ++errors <= 10)
                std::printf("%s (%a, %a, %a), result %d: %a, want %a\n", sizeof(T) == 4 ? "float" : "double",
                            double(in[3 * i]), double(in[3 * i + 1]), double(in[3 * i + 2]), k, double(got), double(w));
        }
    }
    return errors;
}

int main()
{
    const int errors = test<float, double>(1000, 1) + test<double, long double>(1000, 2);
    return sample_result("math_rounding", errors);
}
