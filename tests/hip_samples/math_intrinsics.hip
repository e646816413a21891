// HIP's integer intrinsics and type punning, bit for bit against independent host computations,
// over edge cases and pseudo-random words: bit counts, bit reversal, byte permutation, funnel
// shifts, bit fields, the n-th set bit, 24-bit and high-half products, averages, absolute
// differences; float and double bits.
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <cstring>
#include <vector>

constexpr int results = 40;
typedef unsigned long long u64;

__global__ void integer_intrinsics(const unsigned* in, const float* fin, const double* din, u64* out, int n)
{
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    const unsigned x = in[i], y = in[(i * 7 + 3) % n], s = in[(i * 13 + 5) % n];
    const u64 xx = u64(x) << 32 | y, yy = u64(s) << 32 | x;
    const int offset = int(y % 9) - 4, xi = int(x), yi = int(y);
    u64* o = out + i * results;
    o[0] = __popc(x), o[1] = __popcll(xx), o[2] = u64(__clz(xi)), o[3] = u64(__clzll((long long)xx));
    o[4] = u64(__ffs(xi)), o[5] = u64(__ffsll((long long)xx)), o[6] = __brev(x), o[7] = __brevll(xx);
    o[8] = __byte_perm(x, y, s & 0x7777), o[9] = __funnelshift_l(x, y, s), o[10] = __funnelshift_lc(x, y, s % 40);
    o[11] = __funnelshift_r(x, y, s), o[12] = __funnelshift_rc(x, y, s % 40);
    o[13] = u64(__mul24(xi, yi)), o[14] = unsigned(__umul24(x, y)), o[15] = u64(__mulhi(xi, yi));
    o[16] = __umulhi(x, y), o[17] = u64(__mul64hi((long long)xx, (long long)yy)), o[18] = __umul64hi(xx, yy);
    o[19] = u64(__hadd(xi, yi)), o[20] = u64(__rhadd(xi, yi)), o[21] = __uhadd(x, y), o[22] = __urhadd(x, y);
    o[23] = __sad(xi, yi, s), o[24] = __usad(x, y, s), o[25] = __lastbit_u32_u64(xx >> (s % 64));
    o[26] = __bitextract_u32(x, s % 32, y % 32), o[27] = __bitextract_u64(xx, s % 64, y % 64);
    o[28] = __bitinsert_u32(x, y, s % 32, (s >> 8) % 32), o[29] = __bitinsert_u64(xx, yy, s % 64, (s >> 8) % 64);
    o[30] = u64(__fns32(x, s % 32, offset)), o[31] = u64(__fns64(xx, s % 64, offset));
    o[32] = unsigned(__fns(x, s % 32, offset)); // HIP's int, CUDA's unsigned: the same 32 bits
    o[33] = __float_as_uint(fin[i]), o[34] = unsigned(__float_as_int(fin[i])),
    o[35] = u64(__double_as_longlong(din[i]));
    o[36] = unsigned(__double2hiint(din[i])), o[37] = unsigned(__double2loint(din[i]));
    o[38] = __float_as_uint(__int_as_float(xi)) ^ __float_as_uint(__uint_as_float(y)); // inverses: x ^ y
    o[39] = u64(__double_as_longlong(__hiloint2double(xi, yi))) ^ u64(__double_as_longlong(__longlong_as_double(xx)));
}

// ---- the host's answers, computed bit by bit ---------------------------------------------------------
u64 bit(u64 v, int k) { return v >> k & 1; }
int count(u64 v, int bits)
{
    int c = 0;
    for (int k = 0; k < bits; ++k) c += int(bit(v, k));
    return c;
}
int leading_zeros(u64 v, int bits)
{
    int k = bits - 1;
    while (k >= 0 && !bit(v, k)) --k;
    return bits - 1 - k;
}
int first_set(u64 v, int bits) // 1-based; 0 for none
{
    for (int k = 0; k < bits; ++k)
        if (bit(v, k)) return k + 1;
    return 0;
}
u64 reversed(u64 v, int bits)
{
    u64 r = 0;
    for (int k = 0; k < bits; ++k) r |= bit(v, k) << (bits - 1 - k);
    return r;
}
u64 field(u64 v, int offset, int width, int bits) // bits [offset, offset + width), within the word
{
    u64 r = 0;
    for (int k = 0; k < width && offset + k < bits; ++k) r |= bit(v, offset + k) << k;
    return r;
}
u64 insert(u64 v, u64 ins, int offset, int width, int bits)
{
    for (int k = 0; k < width && offset + k < bits; ++k)
        v = (v & ~(1ull << (offset + k))) | bit(ins, k) << (offset + k);
    return v;
}
int nth_set(u64 mask, int bits, int base, int n) // the n-th set bit upward from base (n < 0: downward)
{
    if (n == 0) return bit(mask, base) ? base : -1;
    for (int k = base, seen = 0; k >= 0 && k<bits; k += n> 0 ? 1 : -1)
        if (bit(mask, k) && ++seen == (n > 0 ? n : -n)) return k;
    return -1;
}
u64 umulhi64(u64 a, u64 b) // schoolbook on 32-bit halves
{
    const u64 al = a & 0xffffffff, ah = a >> 32, bl = b & 0xffffffff, bh = b >> 32;
    const u64 mid = (al * bl >> 32) + (ah * bl & 0xffffffff) + (al * bh & 0xffffffff);
    return ah * bh + (ah * bl >> 32) + (al * bh >> 32) + (mid >> 32);
}
long long sext24(unsigned v) { return (v & 0x800000) ? (long long)(v & 0xffffff) - 0x1000000 : v & 0xffffff; }
long long floor_half(long long v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }
u64 funnel(unsigned lo, unsigned hi, unsigned n, bool left) // (hi:lo) shifted by n <= 32, one word of it
{
    u64 r = 0;
    const u64 both = u64(hi) << 32 | lo;
    for (int k = 0; k < 32; ++k) r |= (left ? bit(both, k + 32 - int(n)) : (k + n < 64 ? bit(both, k + n) : 0)) << k;
    return r;
}

void reference(unsigned x, unsigned y, unsigned s, u64* o)
{
    const u64 xx = u64(x) << 32 | y, yy = u64(s) << 32 | x;
    const int offset = int(y % 9) - 4;
    const u64 bytes = u64(y) << 32 | x;
    o[0] = count(x, 32), o[1] = count(xx, 64), o[2] = leading_zeros(x, 32), o[3] = leading_zeros(xx, 64);
    o[4] = first_set(x, 32), o[5] = first_set(xx, 64), o[6] = reversed(x, 32), o[7] = reversed(xx, 64);
    o[8] = 0;
    for (int b = 0; b < 4; ++b) o[8] |= field(bytes, 8 * int(s >> (4 * b) & 7), 8, 64) << (8 * b);
    o[9] = funnel(x, y, s % 32, true), o[10] = funnel(x, y, s % 40 < 32 ? s % 40 : 32, true);
    o[11] = funnel(x, y, s % 32, false), o[12] = funnel(x, y, s % 40 < 32 ? s % 40 : 32, false);
    o[13] = u64((long long)int(unsigned(sext24(x) * sext24(y))));
    o[14] = u64(x & 0xffffff) * (y & 0xffffff) & 0xffffffff;
    o[15] = u64((long long)int(unsigned(u64((long long)int(x) * int(y)) >> 32)));
    o[16] = u64(x) * y >> 32;
    o[17] = umulhi64(xx, yy) - (int(x) < 0 ? yy : 0) - (int(s) < 0 ? xx : 0); // the signed high half
    o[18] = umulhi64(xx, yy);
    o[19] = u64(floor_half((long long)int(x) + int(y))), o[20] = u64(floor_half((long long)int(x) + int(y) + 1));
    o[21] = (u64(x) + y) / 2, o[22] = (u64(x) + y + 1) / 2;
    const long long diff = (long long)int(x) - int(y), udiff = (long long)x - y;
    o[23] = unsigned(u64(diff < 0 ? -diff : diff) + s), o[24] = unsigned(u64(udiff < 0 ? -udiff : udiff) + s);
    const int low = first_set(xx >> (s % 64), 64);
    o[25] = low == 0 ? 0xffffffffu : unsigned(low - 1);
    o[26] = field(x, s % 32, y % 32, 32), o[27] = field(xx, s % 64, y % 64, 64);
    o[28] = insert(x, y, s % 32, (s >> 8) % 32, 32), o[29] = insert(xx, yy, s % 64, (s >> 8) % 64, 64);
    o[30] = u64((long long)nth_set(x, 32, s % 32, offset)), o[31] = u64((long long)nth_set(xx, 64, s % 64, offset));
    o[32] = unsigned(nth_set(x, 32, s % 32, offset));
    o[33] = o[34] = x, o[35] = xx, o[36] = x, o[37] = y, o[38] = x ^ y, o[39] = 0;
}

int main()
{
    std::vector<unsigned> in = {0,          1,          2,          3,          0x7fffffff, 0x80000000,
                                0x80000001, 0xffffffff, 0xfffffffe, 0x00ffffff, 0x00800000, 0xff800000,
                                0x12345678, 0x55555555, 0xaaaaaaaa, 0x0000ffff, 0xffff0000, 0x7f800001};
    for (unsigned r = 2026; in.size() < 1024;) {
        r = r * 1664525u + 1013904223u;
        in.push_back(in.size() % 3 == 0 ? r >> (r % 32) : r); // small values too
    }
    const int n = int(in.size());
    std::vector<float> fin(n);
    std::vector<double> din(n);
    for (int i = 0; i < n; ++i) {
        const u64 xx = u64(in[i]) << 32 | in[(i * 7 + 3) % n];
        std::memcpy(&fin[i], &in[i], 4); // NaN and subnormal bit patterns included
        std::memcpy(&din[i], &xx, 8);
    }
    unsigned* d_in;
    float* d_fin;
    double* d_din;
    u64* d_out;
    SAMPLE_CHECK(hipMalloc(&d_in, n * sizeof(unsigned)));
    SAMPLE_CHECK(hipMalloc(&d_fin, n * sizeof(float)));
    SAMPLE_CHECK(hipMalloc(&d_din, n * sizeof(double)));
    SAMPLE_CHECK(hipMalloc(&d_out, n * results * sizeof(u64)));
    SAMPLE_CHECK(hipMemcpy(d_in, in.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
    SAMPLE_CHECK(hipMemcpy(d_fin, fin.data(), n * sizeof(float), hipMemcpyHostToDevice));
    SAMPLE_CHECK(hipMemcpy(d_din, din.data(), n * sizeof(double), hipMemcpyHostToDevice));
    integer_intrinsics<<<(n + 127) / 128, 128>>>(d_in, d_fin, d_din, d_out, n);
    SAMPLE_CHECK(hipGetLastError());
    std::vector<u64> out(n * results);
    SAMPLE_CHECK(hipMemcpy(out.data(), d_out, out.size() * sizeof(u64), hipMemcpyDeviceToHost));

    int errors = 0;
    for (int i = 0; i < n; ++i) {
        u64 want[results];
        reference(in[i], in[(i * 7 + 3) % n], in[(i * 13 + 5) % n], want);
        for (int k = 0; k < results; ++k)
            if (out[i * results + k] != want[k] && ++errors <= 10)
                std::printf("input %d, result %d: %#llx, want %#llx\n", i, k, out[i * results + k], want[k]);
    }
    SAMPLE_CHECK(hipFree(d_in));
    SAMPLE_CHECK(hipFree(d_fin));
    SAMPLE_CHECK(hipFree(d_din));
    SAMPLE_CHECK(hipFree(d_out));
    return sample_result("math_intrinsics", errors);
}
