// The scalar device API, differentially: each operation below over a fixed list of inputs (edge
// values: NaN, signalling NaN bit patterns, +-0, +-infinity, subnormals, values at the limits of
// each conversion, divisors between 2^126 and 2^128; then pseudo-random ones of a fixed seed), its
// results as raw bits, against a table a GPU made (tests/hip_samples/scalar_api_gpu.txt).
//   scalar_api dump FILE   writes the table of this build: one line per operation and input
//   scalar_api TABLE       compares with TABLE: exact operations bit for bit (a NaN matches any
//                          NaN: NVIDIA gives its canonical NaN, x86 and AMD a quieted operand),
//                          approximate ones within the error CUDA documents for them
// The same source builds for the nvidia platform (nvcc) and the cpu platform (wavebench-hipcc); the
// table is the nvidia build's `scalar_api dump tests/hip_samples/scalar_api_gpu.txt`, run on a GPU.
#include <hip/hip_bf16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

typedef unsigned long long u64;
typedef __hip_bfloat16 bf16;

// ---- the operations ----------------------------------------------------------------------------------
// Error bounds, from the CUDA C++ Programming Guide, appendix "Mathematical Functions": the tables
// of the standard functions (single and double precision, maximum ulp error, with the default
// -prec-div=true -prec-sqrt=true) and of the single-precision intrinsic functions. IEEE-compliant
// operations are exact. A bound is on the distance to the exact value; the cpu's own result is
// within an ulp of it, so one ulp more is allowed.
enum rule { R_EXACT, R_ZERO, R_ULP, R_EXP, R_LOG, R_TRIG, R_TAN, R_POW, R_FDIVIDE };
struct bound {
    rule r;
    double p, q; // R_ULP: p ulps; R_EXP: 2 + floor(|p x|) ulps; R_LOG: 2^p absolute for x in [0.5, 2],
                 // else q ulps; R_TRIG: 2^p absolute in [-pi, pi], nothing documented outside
};
constexpr bound exact{R_EXACT, 0, 0};
// fmaxf and the like: CUDA documents no order of -0 and +0 (it does for __hmax: +0 > -0); AMD's
// v_max_f32 has -0 < +0, as the cpu. Exact, but a zero matches a zero.
constexpr bound exact_but_zero{R_ZERO, 0, 0};
// The standard functions' tables: "maximum ulp error" (the double ones: sqrt 0, exp log 1, sin pow 2).
constexpr bound ulp(double n) { return {R_ULP, n, 0}; }
// The intrinsic functions' table (single precision), word for word but for the notation:
constexpr bound expf_b{R_EXP, 1.173, 0};    // __expf: "maximum ulp error is 2 + floor(abs(1.173 * x))"
constexpr bound exp10f_b{R_EXP, 2.97, 0};   // __exp10f: "2 + floor(abs(2.97 * x))"
constexpr bound logf_b{R_LOG, -21.41, 3};   // __logf: "for x in [0.5, 2], maximum absolute error 2^-21.41,
                                            // otherwise, the maximum ulp error is 3"
constexpr bound log2f_b{R_LOG, -22, 2};     // __log2f: 2^-22 in [0.5, 2], otherwise 2 ulps
constexpr bound log10f_b{R_LOG, -24, 3};    // __log10f: 2^-24 in [0.5, 2], otherwise 3 ulps
constexpr bound sinf_b{R_TRIG, -21.41, 0};  // __sinf: "for x in [-pi, pi], maximum absolute error
                                            // 2^-21.41, and larger otherwise"
constexpr bound cosf_b{R_TRIG, -21.19, 0};  // __cosf: 2^-21.19 in [-pi, pi], larger otherwise
constexpr bound tanf_b{R_TAN, 0, 0};        // __tanf: "derived from its implementation as __sinf(x) *
                                            // (1 / __cosf(x))"
constexpr bound powf_b{R_POW, 0, 0};        // __powf: "derived from its implementation as
                                            // exp2f(y * __log2f(x))"
constexpr bound fdividef_b{R_FDIVIDE, 2, 0}; // __fdividef: "for y in [2^-126, 2^126], the maximum ulp
                                             // error is 2"; beyond, up to 2^128, 0 (NaN if x is infinite)

// Operands, by name: float a b c, double x y z, unsigned i j k (int si sj, 64-bit ii jj), __half
// ha hb hc and bfloat16 ba bb bc (a b c rounded), and hr br (raw 16-bit patterns: i's low half).
// X(name, bound, expression): the expression's type says how it is compared. E(X, name, expression)
// is an exact one; MODES(X, name, (args)) is __name_rn(args) ... __name_ru(args), all exact.
#define E(X, name, expr) X(name, exact, expr)
#define MODES(X, name, args)                                                                                           \
    E(X, name##_rn, __##name##_rn args) E(X, name##_rz, __##name##_rz args) E(X, name##_rd, __##name##_rd args)        \
        E(X, name##_ru, __##name##_ru args)
#define OPS(X)                                                                                                         \
    /* arithmetic in each rounding mode */                                                                             \
    MODES(X, fadd, (a, b)) MODES(X, fsub, (a, b)) MODES(X, fmul, (a, b)) MODES(X, fdiv, (a, b))                        \
    MODES(X, fmaf, (a, b, c)) MODES(X, frcp, (a)) MODES(X, fsqrt, (a)) MODES(X, dadd, (x, y)) MODES(X, dsub, (x, y))  \
    MODES(X, dmul, (x, y)) MODES(X, ddiv, (x, y)) MODES(X, fma, (x, y, z)) MODES(X, drcp, (x)) MODES(X, dsqrt, (x))   \
    /* conversions: to integers saturated, NaN to 0 */                                                                 \
    MODES(X, float2int, (a)) MODES(X, float2uint, (a)) MODES(X, float2ll, (a)) MODES(X, float2ull, (a))                \
    MODES(X, double2int, (x)) MODES(X, double2uint, (x)) MODES(X, double2ll, (x)) MODES(X, double2ull, (x))            \
    MODES(X, double2float, (x)) E(X, int2float_rn, __int2float_rn(si)) E(X, int2float_rz, __int2float_rz(si))          \
    E(X, uint2float_rn, __uint2float_rn(i)) E(X, uint2float_ru, __uint2float_ru(i))                                   \
    E(X, ll2float_rn, __ll2float_rn((long long)ii)) E(X, ll2float_rd, __ll2float_rd((long long)ii))                    \
    E(X, ull2float_rn, __ull2float_rn(ii)) E(X, ull2float_rz, __ull2float_rz(ii))                                      \
    E(X, ll2double_rn, __ll2double_rn((long long)ii)) E(X, ll2double_ru, __ll2double_ru((long long)ii))                \
    E(X, ull2double_rn, __ull2double_rn(ii)) E(X, ull2double_rd, __ull2double_rd(ii))                                  \
    E(X, int2double_rn, __int2double_rn(si)) E(X, uint2double_rn, __uint2double_rn(i))                                 \
    /* bits */                                                                                                         \
    E(X, float_as_int, __float_as_int(a)) E(X, float_as_uint, __float_as_uint(a))                                      \
    E(X, int_as_float, __float_as_uint(__int_as_float(si))) E(X, uint_as_float, __float_as_uint(__uint_as_float(i)))  \
    E(X, double_as_longlong, __double_as_longlong(x))                                                                  \
    E(X, longlong_as_double, __double_as_longlong(__longlong_as_double((long long)ii)))                                \
    E(X, double2hiint, __double2hiint(x)) E(X, double2loint, __double2loint(x))                                        \
    E(X, hiloint2double, __double_as_longlong(__hiloint2double(si, sj))) E(X, popc, __popc(i))                        \
    E(X, popcll, __popcll(ii)) E(X, clz, __clz(si)) E(X, clzll, __clzll((long long)ii)) E(X, ffs, __ffs(si))          \
    E(X, ffsll, __ffsll((long long)ii)) E(X, brev, __brev(i)) E(X, brevll, __brevll(ii))                               \
    E(X, byte_perm, __byte_perm(i, j, k)) E(X, funnelshift_l, __funnelshift_l(i, j, k))                                \
    E(X, funnelshift_lc, __funnelshift_lc(i, j, k)) E(X, funnelshift_r, __funnelshift_r(i, j, k))                      \
    E(X, funnelshift_rc, __funnelshift_rc(i, j, k)) E(X, mul24, __mul24(si, sj))                                       \
    E(X, umul24, unsigned(__umul24(i, j))) E(X, mulhi, __mulhi(si, sj)) E(X, umulhi, __umulhi(i, j))                   \
    E(X, mul64hi, __mul64hi((long long)ii, (long long)jj)) E(X, umul64hi, __umul64hi(ii, jj))                          \
    E(X, sad, __sad(si, sj, k)) E(X, usad, __usad(i, j, k)) E(X, hadd, __hadd(si, sj)) E(X, rhadd, __rhadd(si, sj))    \
    E(X, uhadd, __uhadd(i, j)) E(X, urhadd, __urhadd(i, j))                                                            \
    /* max and min (a NaN operand, quiet or signalling, gives the other one), saturation, division */                  \
    X(fmaxf, exact_but_zero, fmaxf(a, b)) X(fminf, exact_but_zero, fminf(a, b)) X(fmax, exact_but_zero, fmax(x, y))    \
    X(fmin, exact_but_zero, fmin(x, y)) X(max_float, exact_but_zero, max(a, b))                                        \
    X(min_float, exact_but_zero, min(a, b)) X(max_double, exact_but_zero, max(x, y))                                   \
    X(min_double, exact_but_zero, min(x, y)) E(X, max_int, max(si, sj)) E(X, min_unsigned, min(i, j))                  \
    E(X, saturatef, __saturatef(a)) X(fdividef_intrinsic, fdividef_b, __fdividef(a, b))                                \
    E(X, fdividef, fdividef(a, b))                                                                                     \
    /* the fast intrinsics */                                                                                          \
    X(expf_intrinsic, expf_b, __expf(a)) X(exp10f_intrinsic, exp10f_b, __exp10f(a))                                    \
    X(logf_intrinsic, logf_b, __logf(a)) X(log2f_intrinsic, log2f_b, __log2f(a))                                       \
    X(log10f_intrinsic, log10f_b, __log10f(a)) X(sinf_intrinsic, sinf_b, __sinf(a))                                    \
    X(cosf_intrinsic, cosf_b, __cosf(a)) X(sincosf_sin, sinf_b, sincos_part(a, 0))                                     \
    X(sincosf_cos, cosf_b, sincos_part(a, 1)) X(tanf_intrinsic, tanf_b, __tanf(a))                                     \
    X(powf_intrinsic, powf_b, __powf(a, b))                                                                            \
    E(X, frsqrt_rn, __frsqrt_rn(a))                                                                                    \
    /* the math library */                                                                                             \
    E(X, sqrtf, sqrtf(a)) X(rsqrtf, ulp(2), rsqrtf(a)) X(cbrtf, ulp(1), cbrtf(a)) X(expf, ulp(2), expf(a))             \
    X(exp2f, ulp(2), exp2f(a)) X(logf, ulp(1), logf(a)) X(log2f, ulp(1), log2f(a)) X(sinf, ulp(2), sinf(a))            \
    X(cosf, ulp(2), cosf(a)) X(tanf, ulp(4), tanf(a)) X(powf, ulp(4), powf(a, b)) X(erff, ulp(2), erff(a))             \
    X(atan2f, ulp(3), atan2f(a, b)) E(X, floorf, floorf(a)) E(X, rintf, rintf(a)) E(X, fmaf, fmaf(a, b, c))            \
    E(X, sqrt, sqrt(x)) X(exp, ulp(1), exp(x)) X(log, ulp(1), log(x)) X(sin, ulp(2), sin(x))                           \
    X(pow, ulp(2), pow(x, y))                                                                                          \
    /* half precision */                                                                                               \
    MODES(X, float2half, (a)) E(X, double2half, __double2half(x)) E(X, half2float, __half2float(hr))                   \
    E(X, hadd_half, __hadd(ha, hb)) E(X, hsub_half, __hsub(ha, hb)) E(X, hmul_half, __hmul(ha, hb))                    \
    E(X, hdiv_half, __hdiv(ha, hb)) E(X, hfma_half, __hfma(ha, hb, hc)) E(X, hadd_sat_half, __hadd_sat(ha, hb))        \
    E(X, hmax_half, __hmax(ha, hb)) E(X, hmin_half, __hmin(ha, hb)) E(X, hmax_nan_half, __hmax_nan(ha, hb))            \
    E(X, hmin_nan_half, __hmin_nan(ha, hb)) E(X, habs_half, __habs(hr)) E(X, hneg_half, __hneg(hr))                    \
    E(X, half2int_rn, __half2int_rn(hr)) E(X, half2uint_rz, __half2uint_rz(hr)) E(X, int2half_rn, __int2half_rn(si))   \
    E(X, hlt_half, __hlt(ha, hb)) E(X, hequ_half, __hequ(ha, hb))                                                      \
    /* bfloat16 */                                                                                                     \
    MODES(X, float2bfloat16, (a)) E(X, double2bfloat16, __double2bfloat16(x))                                          \
    E(X, bfloat162float, __bfloat162float(br))                                                                         \
    E(X, hadd_bf16, __hadd(ba, bb)) E(X, hsub_bf16, __hsub(ba, bb)) E(X, hmul_bf16, __hmul(ba, bb))                    \
    E(X, hfma_bf16, __hfma(ba, bb, bc)) E(X, hmax_bf16, __hmax(ba, bb)) E(X, hmin_bf16, __hmin(ba, bb))                \
    E(X, bfloat162int_rn, __bfloat162int_rn(br))

enum {
#define X(name, bound, expr) op_##name,
    OPS(X)
#undef X
        op_count
};
enum kind { K_INT, K_F16, K_BF16, K_F32, K_F64 };
struct result {
    u64 bits;
    kind k;
};
// The raw bits of a result, and how it is compared.
template <class T> __device__ result of(T v)
{
    static_assert(std::is_integral<T>::value, "an integer");
    return {sizeof(T) == 8 ? u64(v) : u64(unsigned(v)), K_INT};
}
__device__ inline result of(float v) { return {__float_as_uint(v), K_F32}; }
__device__ inline result of(double v) { return {u64(__double_as_longlong(v)), K_F64}; }
__device__ inline result of(__half v) { return {__half_as_ushort(v), K_F16}; }
__device__ inline result of(bf16 v) { return {__bfloat16_as_ushort(v), K_BF16}; }
__device__ inline float sincos_part(float a, int which)
{
    float s, c;
    __sincosf(a, &s, &c);
    return which == 0 ? s : c;
}

struct operands {
    float f[3];
    double d[3];
    unsigned u[3];
};

// Thread t computes operation t / n on input t % n.
__global__ void evaluate(const operands* in, u64* out, int* kinds, int n)
{
    const int t = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (t >= n * op_count) return;
    const operands& v = in[t % n];
    const float a = v.f[0], b = v.f[1], c = v.f[2];
    const double x = v.d[0], y = v.d[1], z = v.d[2];
    const unsigned i = v.u[0], j = v.u[1], k = v.u[2];
    const int si = int(i), sj = int(j);
    const u64 ii = u64(i) << 32 | j, jj = u64(k) << 32 | i;
    const __half ha = __float2half(a), hb = __float2half(b), hc = __float2half(c);
    const __half hr = __ushort_as_half((unsigned short)(i & 0xffff));
    const bf16 ba = __float2bfloat16(a), bb = __float2bfloat16(b), bc = __float2bfloat16(c);
    const bf16 br = __ushort_as_bfloat16((unsigned short)(i & 0xffff));
    result r{0, K_INT};
    switch (t / n) {
#define X(name, bound, expr)                                                                                           \
    case op_##name:                                                                                                    \
        r = of(expr);                                                                                                  \
        break;
        OPS(X)
#undef X
    }
    out[t] = r.bits;
    if (t % n == 0) kinds[t / n] = r.k;
}

// ---- the inputs ------------------------------------------------------------------------------------------
template <class To, class From> To pun(From v) // the same bits as another type
{
    static_assert(sizeof(To) == sizeof(From), "the same size");
    To t;
    std::memcpy(&t, &v, sizeof t);
    return t;
}
float float_of(unsigned b) { return pun<float>(b); }
double double_of(u64 b) { return pun<double>(b); }
// Edges, in pairs worth taking together (each is paired with the next): +-0, signalling NaNs
// (0x7f800001 0x7fa00000 0xff800001) and quiet ones, subnormals, the normal limits, 2^126 to
// 1.5 * 2^127 (the fast division's divisors), the limits of int, unsigned, long long and unsigned
// long long, 2^24 + 2 and 2^24 - 2 (for the conversions), +-pi, +-100, the limits of expf, and the
// half's limits (65504, 65520 which rounds to infinity, its smallest subnormal 2^-24, another one).
const unsigned float_edges[] = {
    0x00000000, 0x80000000, 0x7f800001, 0x3f800000, 0x7fc00000, 0xffc00000, 0x7fa00000, 0xff800001, 0x7fc12345,
    0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x80800000, 0x3f000000, 0x3fc00000, 0xbfc00000, 0x40200000,
    0xc0200000, 0x3effffff, 0x7e800000, 0x7ec00000, 0x7f000000, 0x7f400000, 0x7f7fffff, 0xff7fffff, 0xff000000,
    0xfec00000, 0x7f800000, 0xff800000, 0x4f000000, 0xcf000000, 0x4effffff, 0x4f800000, 0x4f7fffff, 0x5f000000,
    0xdf000000, 0x5f800000, 0x4b800001, 0x4afffffe, 0x40490fdb, 0xc0490fdb, 0x42c80000, 0xc2c80000, 0x42b17218,
    0xc2ae6666, 0x0da24260, 0x477fe000, 0x477ff000, 0x33800000, 0x37fbe000, 0xc77fe000, 0x3f3504f3, 0xbf800000};
// The same for double, and the limits of the conversions to float (FLT_MAX, a double just above it,
// one just below the rounding boundary to infinity, 1 + 2^-24) and to int, long long (+-2^31 +- 0.5 ...).
const u64 double_edges[] = {
    0x0000000000000000, 0x8000000000000000, 0x7ff0000000000001, 0x3ff0000000000000, 0x7ff8000000000000,
    0xfff8000000000000, 0x7ff4000000000000, 0xfff0000000000001, 0x0000000000000001, 0x000fffffffffffff,
    0x0010000000000000, 0x3fe0000000000000, 0x4004000000000000, 0xc004000000000000, 0x41dfffffffe00000,
    0x41e0000000100000, 0xc1e0000000100000, 0xc1e0000000200000, 0x41efffffffff0000, 0x41f0000000000000,
    0x4340000000000001, 0x43dfffffffffffff, 0x43e0000000000000, 0xc3e0000000000000, 0x43f0000000000000,
    0x43efffffffffffff, 0x7e37e43c8800759c, 0xfe37e43c8800759c, 0x7fefffffffffffff, 0x7ff0000000000000,
    0xfff0000000000000, 0x47efffffefffffff, 0x47efffffe0000000, 0x47efffffe0000001, 0x01a56e1fc2f8f359,
    0x36a0000000000000, 0x3ff0000010000000, 0x400921fb54442d18, 0xbff0000000000000, 0x40862e42fefa39ef};
// Words: small shift counts, the limits, patterns, byte selectors; their low halves are 16-bit edges.
const unsigned int_edges[] = {0,          1,          2,          3,          31,         32,
                              33,         0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0xfffffffe,
                              0x00ffffff, 0x00800000, 0xff800000, 0x12345678, 0x55555555, 0xaaaaaaaa,
                              0x0000ffff, 0xffff0000, 0x7f800001, 0x00003210, 0x00007654, 0xfc007c00};
u64 state = 2026; // splitmix64, fixed seed
u64 next()
{
    u64 r = (state += 0x9e3779b97f4a7c15ull);
    r = (r ^ (r >> 30)) * 0xbf58476d1ce4e5b9ull;
    r = (r ^ (r >> 27)) * 0x94d049bb133111ebull;
    return r ^ (r >> 31);
}
// Random values: half of them any bit pattern, half of moderate magnitude (exponents -15 to 16).
float random_float()
{
    const u64 r = next();
    if (r & 1) return float_of(unsigned(r >> 32));
    return std::ldexp(float((r >> 40) | 1u << 23), int(r >> 8 & 31) - 38) * (r & 2 ? -1 : 1);
}
double random_double()
{
    const u64 r = next();
    if (r & 1) return double_of(next());
    return std::ldexp(double(next() >> 11 | 1ull << 52), int(r >> 8 & 31) - 67) * (r & 2 ? -1 : 1);
}
unsigned random_int()
{
    const u64 r = next();
    return r & 1 ? unsigned(r >> 32) : unsigned(r >> 32) >> (r >> 8 & 31); // small values too
}
constexpr int inputs = 192;
// Input s, for a list of E edges: s < 3E: (edge, the next edge), (edge, random), (random, edge); the
// third operand an edge or random; then random operands.
template <class T, class R> void fill(T* o, int s, const T* edges, int e, R random)
{
    const int block = s / e, at = s % e;
    if (block > 2) {
        for (int m = 0; m < 3; ++m) o[m] = random();
        return;
    }
    o[0] = block == 2 ? random() : edges[at];
    o[1] = block == 0 ? edges[(at + 1) % e] : block == 1 ? random() : edges[at];
    o[2] = block == 0 ? edges[(at * 7 + 3) % e] : random();
}
std::vector<operands> make_inputs()
{
    std::vector<operands> in(inputs);
    const int ef = sizeof float_edges / 4, ed = sizeof double_edges / 8, ei = sizeof int_edges / 4;
    std::vector<float> fe(ef);
    std::vector<double> de(ed);
    for (int e = 0; e < ef; ++e) fe[e] = float_of(float_edges[e]);
    for (int e = 0; e < ed; ++e) de[e] = double_of(double_edges[e]);
    for (int s = 0; s < inputs; ++s) {
        fill(in[s].f, s, fe.data(), ef, random_float);
        fill(in[s].d, s, de.data(), ed, random_double);
        fill(in[s].u, s, int_edges, ei, random_int);
    }
    return in;
}

// ---- comparison ------------------------------------------------------------------------------------------
bool is_nan(u64 v, kind k)
{
    switch (k) {
    case K_F16: return (v & 0x7fff) > 0x7c00;
    case K_BF16: return (v & 0x7fff) > 0x7f80;
    case K_F32: return (v & 0x7fffffff) > 0x7f800000;
    case K_F64: return (v & ~(1ull << 63)) > 0x7ff0000000000000ull;
    default: return false;
    }
}
// A float or double as an integer that counts ulps: consecutive values are consecutive integers.
long long ordered(u64 v, kind k)
{
    const u64 sign = k == K_F32 ? 1ull << 31 : 1ull << 63, mag = v & (sign - 1);
    return v & sign ? -(long long)mag : (long long)mag;
}
double value(u64 v, kind k) { return k == K_F32 ? float_of(unsigned(v)) : double_of(v); }
double ulp_at(double r, kind k)
{
    const double a = std::fabs(r), tiny = std::ldexp(1.0, k == K_F32 ? -149 : -1074);
    if (a == 0 || std::isinf(a)) return tiny;
    return std::fmax(tiny, std::ldexp(1.0, std::ilogb(a) - (k == K_F32 ? 23 : 52)));
}
const float flt_min = std::numeric_limits<float>::min(); // 2^-126 (C++14 has no hexadecimal floats)
bool subnormal(float v) { return v != 0 && std::fabs(v) < flt_min; }
// Whether `got` is within the bound of `gpu` for inputs a and b (those of the float operations).
bool within(const bound& bd, u64 got, u64 gpu, kind k, float a, float b)
{
    if (is_nan(got, k) || is_nan(gpu, k)) return is_nan(got, k) && is_nan(gpu, k);
    if (bd.r == R_ZERO && value(got, k) == 0 && value(gpu, k) == 0) return true;
    if (bd.r <= R_ZERO || k == K_INT || k == K_F16 || k == K_BF16) return got == gpu;
    const double g = value(gpu, k), v = value(got, k), u = ulp_at(g, k), pi = 3.14159265358979;
    const long long ulps = std::llabs(ordered(got, k) - ordered(gpu, k));
    if (bd.r > R_ULP) { // the intrinsics: CUDA notes that __sinf, __sincosf and __tanf flush subnormal
        // results (and __sincosf subnormal inputs) to zero; for the others it says nothing of them
        if (subnormal(a) || (bd.r >= R_POW && subnormal(b))) return true;
        if (std::fabs(g) < flt_min && std::fabs(v) < flt_min) return true;
    }
    double allowed_ulps = -1, allowed_abs = -1; // -1: not that kind of bound
    switch (bd.r) {
    case R_ULP: allowed_ulps = bd.p; break;
    case R_EXP: allowed_ulps = 2 + std::floor(std::fabs(bd.p * a)); break;
    case R_LOG:
        if (a >= 0.5f && a <= 2) allowed_abs = std::exp2(bd.p);
        else allowed_ulps = bd.q;
        break;
    case R_TRIG:
        if (!(std::fabs(a) <= pi)) return true; // CUDA: "larger otherwise"
        allowed_abs = std::exp2(bd.p);
        break;
    case R_TAN: { // __sinf(x) * (1 / __cosf(x)): both errors, over |cos x|, then the two roundings
        if (!(std::fabs(a) <= pi)) return true;
        const double c = std::fabs(std::cos(double(a)));
        allowed_abs = (std::exp2(-21.41) + std::fabs(g) * std::exp2(-21.19)) / c + 2 * u;
        break;
    }
    case R_POW: { // exp2f(y * __log2f(x)): __log2f's error times |y| ln 2 relative, and exp2f's 2 ulps.
        // That is NaN for x < 0 and differs from C's pow at its special cases (pow(x, 0) = 1 ...),
        // which AMD's __powf (OCML's pow) and the cpu's compute: compared for x > 0, x != 1, y != 0 only.
        if (!(a > 0 && a != 1 && std::isfinite(a) && b != 0 && std::isfinite(b))) return true;
        const double l2 = std::fabs(std::log2(double(a)));
        const double e = a >= 0.5f && a <= 2 ? std::exp2(-22) : 2 * ulp_at(l2, K_F32);
        allowed_abs = std::fabs(g) * std::log(2.0) * std::fabs(b) * e + 2 * u;
        break;
    }
    case R_FDIVIDE: { // 2 ulps for |y| in [2^-126, 2^126]; 0 (NaN for an infinite x) beyond, up to 2^128
        const float ay = std::fabs(b);
        if (ay >= flt_min && ay <= 1 / flt_min) allowed_ulps = bd.p;
        else return got == gpu;
        break;
    }
    default: break;
    }
    if (allowed_ulps >= 0) return ulps <= allowed_ulps + 1;
    return std::fabs(v - g) <= allowed_abs + u || ulps <= 1; // a NaN or infinite g matched above
}

const struct {
    const char* name;
    bound b;
} ops[] = {
#define X(name, bound, expr) {#name, bound},
    OPS(X)
#undef X
};

int main(int argc, char** argv)
{
    const bool dump = argc == 3 && std::strcmp(argv[1], "dump") == 0;
    if (argc != 2 && !dump) {
        std::fprintf(stderr, "usage: %s TABLE (compare with a GPU's table) | %s dump FILE\n", argv[0], argv[0]);
        return 2;
    }
    const std::vector<operands> in = make_inputs();
    u64 digest = 1469598103934665603ull; // FNV-1a of the inputs' bits: a table of other inputs is refused
    for (const operands& v : in)
        for (int m = 0; m < 3; ++m) {
            const u64 words[] = {pun<unsigned>(v.f[m]), pun<u64>(v.d[m]), v.u[m]};
            for (u64 w : words) digest = (digest ^ w) * 1099511628211ull;
        }

    operands* d_in;
    u64* d_out;
    int* d_kinds;
    const int total = inputs * op_count;
    SAMPLE_CHECK(hipMalloc(&d_in, inputs * sizeof(operands)));
    SAMPLE_CHECK(hipMalloc(&d_out, total * sizeof(u64)));
    SAMPLE_CHECK(hipMalloc(&d_kinds, op_count * sizeof(int)));
    SAMPLE_CHECK(hipMemcpy(d_in, in.data(), inputs * sizeof(operands), hipMemcpyHostToDevice));
    evaluate<<<(total + 255) / 256, 256>>>(d_in, d_out, d_kinds, inputs);
    SAMPLE_CHECK(hipGetLastError());
    std::vector<u64> out(total);
    std::vector<int> kinds(op_count);
    SAMPLE_CHECK(hipMemcpy(out.data(), d_out, total * sizeof(u64), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipMemcpy(kinds.data(), d_kinds, op_count * sizeof(int), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipFree(d_in));
    SAMPLE_CHECK(hipFree(d_out));
    SAMPLE_CHECK(hipFree(d_kinds));
    hipDeviceProp_t prop;
    SAMPLE_CHECK(hipGetDeviceProperties(&prop, 0));
#if defined(__HIP_PLATFORM_WAVEBENCH_CPU__)
    const char* platform = "cpu";
#elif defined(__HIP_PLATFORM_NVIDIA__)
    const char* platform = "nvidia";
#else
    const char* platform = "amd";
#endif

    if (dump) {
        FILE* f = std::fopen(argv[2], "w");
        if (!f) return std::fprintf(stderr, "scalar_api: cannot write %s\n", argv[2]), 1;
        std::fprintf(f, "# scalar_api dump: platform %s, inputs %016llx, %d operations x %d inputs, device %s\n",
                     platform, digest, int(op_count), inputs, prop.name);
        for (int o = 0; o < op_count; ++o)
            for (int s = 0; s < inputs; ++s) std::fprintf(f, "%s %d %llx\n", ops[o].name, s, out[o * inputs + s]);
        if (std::fclose(f) != 0) return std::fprintf(stderr, "scalar_api: cannot write %s\n", argv[2]), 1;
        std::printf("scalar_api: %d operations x %d inputs written to %s\n", int(op_count), inputs, argv[2]);
        return 0;
    }

    FILE* f = std::fopen(argv[1], "r");
    if (!f) {
        // Not a pass: ctest counts it as skipped, with this reason (nothing was compared).
        std::printf("scalar_api: SKIPPED: no GPU table at %s yet: make it on a GPU with the nvidia build's "
                    "`scalar_api dump %s`\n", argv[1], argv[1]);
        return 0;
    }
    std::map<std::string, std::vector<u64>> gpu;
    std::map<std::string, int> seen;
    char line[256], name[64], table_platform[32] = "";
    u64 table_digest = 0;
    while (std::fgets(line, sizeof line, f)) {
        int s;
        u64 bits;
        if (std::sscanf(line, "# scalar_api dump: platform %31[^,], inputs %llx", table_platform, &table_digest) == 2)
            continue;
        if (line[0] == '#' || std::sscanf(line, "%63s %d %llx", name, &s, &bits) != 3 || s < 0 || s >= inputs)
            continue;
        std::vector<u64>& v = gpu[name];
        v.resize(inputs);
        v[s] = bits;
        ++seen[name];
    }
    std::fclose(f);
    int errors = 0;
    if (std::strcmp(table_platform, "nvidia") != 0 && std::strcmp(table_platform, "amd") != 0) {
        std::printf("scalar_api: %s was not made on a GPU (its header names platform '%s')\n", argv[1], table_platform);
        ++errors;
    } else if (table_digest != digest) {
        std::printf("scalar_api: %s was made from other inputs (%016llx, these are %016llx): make it again\n", argv[1],
                    table_digest, digest);
        ++errors;
    }
    for (int o = 0; o < op_count; ++o) {
        if (seen[ops[o].name] != inputs) {
            std::printf("scalar_api: %s has %d of %d results of %s\n", argv[1], seen[ops[o].name], inputs, ops[o].name);
            ++errors;
            continue;
        }
        for (int s = 0; s < inputs; ++s) {
            const u64 got = out[o * inputs + s], want = gpu[ops[o].name][s];
            if (within(ops[o].b, got, want, kind(kinds[o]), in[s].f[0], in[s].f[1])) continue;
            if (++errors <= 20)
                std::printf("%s, input %d (a %a b %a c %a | x %a y %a | i %#x j %#x k %#x): %#llx, the GPU %#llx\n",
                            ops[o].name, s, in[s].f[0], in[s].f[1], in[s].f[2], in[s].d[0], in[s].d[1], in[s].u[0],
                            in[s].u[1], in[s].u[2], got, want);
        }
    }
    std::printf("scalar_api: %d operations x %d inputs against %s (%s)\n", int(op_count), inputs, argv[1],
                table_platform);
    return sample_result("scalar_api", errors);
}
