// HIP's vector types in kernels and on the host: make_* and brace initialisation, HIP's
// component-wise operators (with a scalar on either side), overloads on vector types, sizes and
// alignments, and a shuffle of a float2. Each lane's results are checked against the same
// arithmetic done component by component on the host.
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <vector>

// The sizes and alignments HIP and CUDA agree on (the 4-component 64-bit types differ: 32 in HIP,
// 16 in CUDA).
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "float3: three floats, aligned 4");
static_assert(sizeof(char3) == 3 && alignof(uchar3) == 1 && alignof(char4) == 4, "char vectors");
static_assert(alignof(short2) == 4 && alignof(short4) == 8 && alignof(float2) == 8, "8-byte vectors");
static_assert(alignof(int4) == 16 && alignof(float4) == 16 && sizeof(float4) == 16, "16-byte vectors");
static_assert(alignof(double2) == 16 && alignof(longlong2) == 16 && sizeof(double3) == 24, "64-bit components");
#if !defined(__HIP_PLATFORM_NVIDIA__)
static_assert(alignof(double4) == 32 && sizeof(ulong4) == 32, "HIP aligns a 32-byte vector to 32");
#endif

struct lane_result {
    float3 f3;
    double2 d2;
    int4 i4;
    char4 c4;
    uchar3 u3;
    short2 s2;
    longlong2 l2;
    float2 from_next, from_xor; // shuffled from the next lane of the wavefront, and from lane ^ 1
    int flags;                  // what ==, != and the overloads said
};

__host__ __device__ int kind(float4) { return 1; }
__host__ __device__ int kind(int4) { return 2; }

__global__ void vector_lanes(lane_result* out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = int(threadIdx.x) % warpSize;
    lane_result r;

    float3 a = make_float3(float(i), 2.0f * i, 0.5f);
    r.f3 = (a + 1.0f) * 2.0f - a / 2.0f;
    r.f3 = -r.f3;
    r.f3 += make_float3(1, 1, 1);
    r.f3++;

    double2 d = make_double2(i, -i);
    d = 0.5 * d + d;
    d *= 2.0;
    r.d2 = d;

    int4 k = {i, i + 1, i + 2, i + 3};
    k = ((k % 3) ^ (k << 2)) | (k & 5);
    k = ~k;
    k >>= 1;
    r.i4 = k;

    char4 c = make_char4(i % 100, -(i % 50), 3, i % 7);
    r.c4 = (c + c) * 2 - 1;

    uchar3 u = make_uchar3(i, 255 - i, 7);
    u = u + u;
    r.u3 = u >> 1;

    short2 s = make_short2(i, -i);
    r.s2 = s * s - 3 * s;

    longlong2 l = make_longlong2(i, 1LL << 40);
    r.l2 = (1 + (l << 2)) / 3;

    float2 v = make_float2(lane, -0.5f * lane);
    r.from_next = __shfl(v, (lane + 1) % warpSize);
    r.from_xor = __shfl_xor(v, 1);

    float4 f4{1, 2, 3, 4};
    float4 g4 = {1, 2, 3, 4};
    r.flags = (f4 == g4) | (f4 != g4 + 1.0f) << 1 | (make_int4(2, 2, 2, 2) == 2) << 2 | (2.0f != v) << 3 |
              (kind(f4) == 1) << 4 | (kind(k) == 2) << 5;
    out[i] = r;
}

/// lane_result of lane i, computed one component at a time.
static lane_result expected(int i, int warp)
{
    lane_result e;
    const float ax = float(i), ay = 2.0f * i, az = 0.5f;
    auto f = [](float x) { return -((x + 1.0f) * 2.0f - x / 2.0f) + 1.0f + 1.0f; };
    e.f3 = make_float3(f(ax), f(ay), f(az));
    e.d2 = make_double2((0.5 * i + i) * 2.0, (0.5 * -i - i) * 2.0);
    int k[4];
    for (int j = 0; j < 4; ++j) k[j] = ~((((i + j) % 3) ^ ((i + j) << 2)) | ((i + j) & 5)) >> 1;
    e.i4 = make_int4(k[0], k[1], k[2], k[3]);
    auto ch = [](int x) { return (signed char)((signed char)((signed char)(x + x) * 2) - 1); };
    e.c4 = make_char4(ch((signed char)(i % 100)), ch(-(i % 50)), ch(3), ch(i % 7));
    auto uc = [](int x) { return (unsigned char)((unsigned char)((unsigned char)x + (unsigned char)x) >> 1); };
    e.u3 = make_uchar3(uc(i), uc(255 - i), uc(7));
    auto sh = [](int x) { return (short)(x * x - 3 * x); };
    e.s2 = make_short2(sh(i), sh(-i));
    e.l2 = make_longlong2((1 + (long long)i * 4) / 3, (1 + (1LL << 42)) / 3);
    const int lane = i % warp, next = (lane + 1) % warp, other = lane ^ 1;
    e.from_next = make_float2(next, -0.5f * next);
    e.from_xor = make_float2(other, -0.5f * other);
    e.flags = 0x3f; // every comparison true, both overloads picked
    return e;
}

static bool same(const lane_result& a, const lane_result& b)
{
    return a.f3 == b.f3 && a.d2 == b.d2 && a.i4 == b.i4 && a.c4 == b.c4 && a.u3 == b.u3 && a.s2 == b.s2 &&
           a.l2 == b.l2 && a.from_next == b.from_next && a.from_xor == b.from_xor && a.flags == b.flags;
}

/// The operators in host code: every form once, on values whose results are known.
static int host_checks()
{
    int errors = 0;
    int4 a = make_int4(1, 2, 3, 4);
    errors += !(a * 2 == make_int4(2, 4, 6, 8) && 2 * a == a + a && a - 1 == make_int4(0, 1, 2, 3));
    errors += !((a % 2) == make_int4(1, 0, 1, 0) && (a & 1) == (a | 1) - (a ^ 1) && (~a) == -a - 1);
    errors += !((a << 1) >> 1 == a && 12 / a == make_int4(12, 6, 4, 3) && 13 % a == make_int4(0, 1, 1, 1));
    int4 b = a;
    b += a;
    b -= 1;
    b *= 2;
    b /= make_int4(1, 1, 3, 7);
    b %= 5;
    errors += b != make_int4(2, 1, 3, 2);
    errors += !(++b == make_int4(3, 2, 4, 3) && b-- == make_int4(3, 2, 4, 3) && --b == make_int4(1, 0, 2, 1));
    errors += !(+b == b && b != 0 && 1 != b && !(b == 1));
    float2 f{0.5, 4}; // components converted from double and int
    errors += !(f / 2 == make_float2(0.25f, 2) && 1.0f - f == make_float2(0.5f, -3) && f * 0 == 0.0f);
    errors += kind(make_float4(0, 0, 0, 0)) != 1 || kind(make_int4(0, 0, 0, 0)) != 2;
    return errors;
}

int main()
{
    const int blocks = 3, threads = 128, n = blocks * threads;
    int warp = 0;
    SAMPLE_CHECK(hipDeviceGetAttribute(&warp, hipDeviceAttributeWarpSize, 0));
    lane_result* d_out;
    SAMPLE_CHECK(hipMalloc(&d_out, n * sizeof(lane_result)));
    hipLaunchKernelGGL(vector_lanes, dim3(blocks), dim3(threads), 0, 0, d_out);
    SAMPLE_CHECK(hipGetLastError());
    std::vector<lane_result> out(n);
    SAMPLE_CHECK(hipMemcpy(out.data(), d_out, n * sizeof(lane_result), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipFree(d_out));

    int errors = host_checks();
    for (int i = 0; i < n; ++i) {
        if (same(out[i], expected(i, warp))) continue;
        if (++errors <= 5) std::printf("lane %d: a result differs from the host's\n", i);
    }
    return sample_result("vector_types", errors);
}
