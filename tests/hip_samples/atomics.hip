// Every atomic of HIP's list on every type HIP has it for, with all lanes of the grid contending
// (the _block forms: the lanes of a block, on the block's own counters), checked exactly: final
// values, and old values that must form a permutation. Also atomicInc/atomicDec wrapping around,
// calls with mixed argument types, and HIP's safe and unsafe floating-point atomics.
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <algorithm>
#include <type_traits>
#include <vector>

constexpr int blocks = 8, threads = 256, slots = 10, lanes_all = blocks * threads;

// The operations of one scope: the device's (no suffix), _system or _block.
#define SCOPE(name, S)                                                                                                 \
    struct name {                                                                                                      \
        template <class T> static __device__ T add(T* a, T v) { return atomicAdd##S(a, v); }                           \
        template <class T> static __device__ T sub(T* a, T v) { return atomicSub##S(a, v); }                           \
        template <class T> static __device__ T exch(T* a, T v) { return atomicExch##S(a, v); }                         \
        template <class T> static __device__ T min(T* a, T v) { return atomicMin##S(a, v); }                           \
        template <class T> static __device__ T max(T* a, T v) { return atomicMax##S(a, v); }                           \
        template <class T> static __device__ T cas(T* a, T c, T v) { return atomicCAS##S(a, c, v); }                   \
        template <class T> static __device__ T bit_and(T* a, T v) { return atomicAnd##S(a, v); }                       \
        template <class T> static __device__ T bit_or(T* a, T v) { return atomicOr##S(a, v); }                         \
        template <class T> static __device__ T bit_xor(T* a, T v) { return atomicXor##S(a, v); }                       \
        static __device__ unsigned inc(unsigned* a, unsigned v) { return atomicInc##S(a, v); }                         \
        static __device__ unsigned dec(unsigned* a, unsigned v) { return atomicDec##S(a, v); }                         \
    };
SCOPE(device_scope, )
SCOPE(system_scope, _system)
SCOPE(block_scope, _block)

// A lane's rank in its group (the grid, or its block for the _block forms), and the group.
struct place {
    int id, lanes, group;
};
__device__ place where(bool per_block)
{
    if (per_block) return {int(threadIdx.x), int(blockDim.x), int(blockIdx.x)};
    return {int(blockIdx.x * blockDim.x + threadIdx.x), int(gridDim.x * blockDim.x), 0};
}
// What lane `id` of `lanes` gives to min and max: a permutation of -lanes/2 .. lanes/2 - 1.
__host__ __device__ long long spread(int id, int lanes) { return (id * 37LL) % lanes - lanes / 2; }
template <class T> __host__ __device__ T xor_term(int id) { return T(id * 2654435761u); }

// c: `slots` counters per group; olds: 3 old values per lane.
template <class S, class T> __global__ void integer_atomics(T* c, T* olds, T step, bool per_block)
{
    const place p = where(per_block);
    T* v = c + p.group * slots;
    T* o = olds + 3 * (blockIdx.x * blockDim.x + threadIdx.x);
    const long long shift = std::is_signed<T>::value ? 0 : p.lanes; // unsigned: keep it positive
    const T bit = T(1ull << (p.id % (8 * sizeof(T))));
    o[0] = S::add(&v[0], step);
    S::sub(&v[1], step);
    S::min(&v[2], T(spread(p.id, p.lanes) + shift));
    S::max(&v[3], T(spread(p.id, p.lanes) + shift));
    S::bit_or(&v[4], bit);
    S::bit_and(&v[5], T(~bit));
    S::bit_xor(&v[6], xor_term<T>(p.id));
    o[1] = S::exch(&v[7], T(p.id + 1));
    T e = 0; // an increment by compare-and-swap
    for (T seen; (seen = S::cas(&v[8], e, T(e + 1))) != e;) e = seen;
    o[2] = e;
}
template <class S, class T> __global__ void float_atomics(T* c, T* olds, bool per_block)
{
    const place p = where(per_block);
    T* v = c + p.group * slots;
    T* o = olds + 3 * (blockIdx.x * blockDim.x + threadIdx.x);
    S::add(&v[0], T(p.id % 16) * T(0.25)); // sums of quarters are exact in any order
    S::sub(&v[1], T(p.id % 16) * T(0.25));
    S::min(&v[2], T(spread(p.id, p.lanes)) * T(0.5));
    S::max(&v[3], T(spread(p.id, p.lanes)) * T(0.5));
    o[1] = S::exch(&v[4], T(p.id + 1));
    T e = 0;
    for (T seen; (seen = S::cas(&v[5], e, e + 1)) != e;) e = seen;
    o[2] = e;
}
// atomicInc and atomicDec with limit 12 (values 0 .. 12): histograms of the old values.
template <class S> __global__ void wrap_atomics(unsigned* c, unsigned* hist, bool per_block)
{
    const place p = where(per_block);
    atomicAdd(&hist[p.group * 32 + S::inc(&c[p.group * slots], 12)], 1u);
    atomicAdd(&hist[p.group * 32 + 16 + S::dec(&c[p.group * slots + 1], 12)], 1u);
}
// Arguments of other types than the pointer's, converted as HIP converts them; 64-bit signed min
// and max; the safe and unsafe forms; single-lane edge cases.
__global__ void mixed(double* d, float* f, int* i, unsigned* u, unsigned long* ul, unsigned long long* ull,
                      long long* ll)
{
    const int id = int(blockIdx.x * blockDim.x + threadIdx.x);
    atomicAdd(&d[0], 1);
    atomicAdd(&f[0], 2);
    atomicAdd(&f[1], 0.5);
    atomicAdd(&u[0], 1);
    atomicMax(&i[0], unsigned(id));
    atomicSub(&ul[0], 1);
    atomicMin(&ull[0], id + 5);
    atomicMin(&ll[0], (id - 1000) * (1LL << 33));
    atomicMax(&ll[1], (id - 1000) * (1LL << 33));
    unsafeAtomicAdd(&f[2], 1.0f);
    safeAtomicAdd(&f[3], 1.0f);
    unsafeAtomicAdd(&d[1], 1.0);
    safeAtomicAdd(&d[2], 1.0);
    unsafeAtomicMax(&f[4], float(id));
    safeAtomicMin(&f[5], -float(id));
    unsafeAtomicMin(&d[3], -double(id));
    safeAtomicMax(&d[4], double(id));
    if (id == 0) {
        u[4] = atomicInc(&u[1], 12);        // 20, above the limit: becomes 0
        u[5] = atomicDec(&u[2], 12);        // 20, above the limit: becomes 12
        u[6] = atomicDec(&u[3], 12);        // 0: becomes 12
        i[2] = atomicCAS(&i[1], 5, 9);      // 7: no swap
        d[6] = atomicCAS(&d[5], -0.0, 1.0); // +0.0 is not -0.0 bit for bit: no swap
    }
}

template <class T> T* to_device(const std::vector<T>& h)
{
    T* d;
    SAMPLE_CHECK(hipMalloc(&d, h.size() * sizeof(T)));
    SAMPLE_CHECK(hipMemcpy(d, h.data(), h.size() * sizeof(T), hipMemcpyHostToDevice));
    return d;
}
template <class T> std::vector<T> from_device(T* d, size_t n)
{
    std::vector<T> h(n);
    SAMPLE_CHECK(hipMemcpy(h.data(), d, n * sizeof(T), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipFree(d));
    return h;
}
// Are the values `olds[3 * lane + k]` of group g, with `extra`, sorted: 0, step, 2 step, ...?
template <class T>
int permutation_errors(const std::vector<T>& olds, int k, bool per_block, int g, T step, std::vector<T> extra = {})
{
    for (int l = per_block ? g * threads : 0; l < (per_block ? g + 1 : blocks) * threads; ++l)
        extra.push_back(olds[3 * l + k]);
    std::sort(extra.begin(), extra.end());
    int errors = 0;
    for (size_t n = 0; n < extra.size(); ++n) errors += extra[n] != T(T(n) * step);
    return errors;
}

template <class S, class T> int test_integer(bool per_block, T step)
{
    const int groups = per_block ? blocks : 1, lanes = per_block ? threads : lanes_all;
    const long long shift = std::is_signed<T>::value ? 0 : lanes;
    std::vector<T> init(groups * slots, T(0));
    for (int g = 0; g < groups; ++g) {
        init[g * slots + 1] = T(step * T(lanes));
        init[g * slots + 2] = T(shift + lanes); // above every value, and below
        init[g * slots + 3] = T(shift - lanes);
        init[g * slots + 5] = T(~T(0));
    }
    T *dc = to_device(init), *dolds = to_device(std::vector<T>(3 * lanes_all));
    integer_atomics<S, T><<<blocks, threads>>>(dc, dolds, step, per_block);
    SAMPLE_CHECK(hipGetLastError());
    const std::vector<T> c = from_device(dc, init.size()), olds = from_device(dolds, 3 * lanes_all);
    T xor_all = 0;
    for (int l = 0; l < lanes; ++l) xor_all ^= xor_term<T>(l);
    const T want[] = {T(step * T(lanes)), 0, T(shift - lanes / 2), T(shift + lanes / 2 - 1), T(~T(0)), 0, xor_all};
    int errors = 0;
    for (int g = 0; g < groups; ++g) {
        for (int k = 0; k < 7; ++k) errors += c[g * slots + k] != want[k];
        errors += c[g * slots + 8] != T(lanes);
        errors += permutation_errors(olds, 0, per_block, g, step);
        errors += permutation_errors(olds, 1, per_block, g, T(1), {c[g * slots + 7]}); // and the last one
        errors += permutation_errors(olds, 2, per_block, g, T(1));
    }
    return errors;
}
template <class S, class T> int test_float(bool per_block)
{
    const int groups = per_block ? blocks : 1, lanes = per_block ? threads : lanes_all;
    T sum = 0;
    for (int l = 0; l < lanes; ++l) sum += T(l % 16) * T(0.25);
    std::vector<T> init(groups * slots, T(0));
    for (int g = 0; g < groups; ++g) {
        init[g * slots + 1] = sum;
        init[g * slots + 2] = T(lanes);
        init[g * slots + 3] = T(-lanes);
    }
    T *dc = to_device(init), *dolds = to_device(std::vector<T>(3 * lanes_all));
    float_atomics<S, T><<<blocks, threads>>>(dc, dolds, per_block);
    SAMPLE_CHECK(hipGetLastError());
    const std::vector<T> c = from_device(dc, init.size()), olds = from_device(dolds, 3 * lanes_all);
    const T want[] = {sum, 0, T(-lanes / 4), T(lanes / 2 - 1) * T(0.5)};
    int errors = 0;
    for (int g = 0; g < groups; ++g) {
        for (int k = 0; k < 4; ++k) errors += c[g * slots + k] != want[k];
        errors += c[g * slots + 5] != T(lanes);
        errors += permutation_errors(olds, 1, per_block, g, T(1), {c[g * slots + 4]});
        errors += permutation_errors(olds, 2, per_block, g, T(1));
    }
    return errors;
}
template <class S> int test_wrap(bool per_block)
{
    const int groups = per_block ? blocks : 1, lanes = per_block ? threads : lanes_all;
    unsigned *dc = to_device(std::vector<unsigned>(groups * slots)),
             *dh = to_device(std::vector<unsigned>(groups * 32));
    wrap_atomics<S><<<blocks, threads>>>(dc, dh, per_block);
    SAMPLE_CHECK(hipGetLastError());
    const std::vector<unsigned> c = from_device(dc, groups * slots), h = from_device(dh, groups * 32);
    int errors = 0;
    for (int g = 0; g < groups; ++g) {
        // Incrementing from 0 the old values run 0, 1, ..., 12, 0, ...; decrementing 0, 12, 11, ...
        errors += c[g * slots] != unsigned(lanes % 13) || c[g * slots + 1] != unsigned((13 - lanes % 13) % 13);
        std::vector<unsigned> up(13), down(13);
        for (int j = 0; j < lanes; ++j) ++up[j % 13], ++down[(13 - j % 13) % 13];
        for (int k = 0; k < 13; ++k) errors += h[g * 32 + k] != up[k] || h[g * 32 + 16 + k] != down[k];
    }
    return errors;
}
template <class T> int test_integer_scopes(T step)
{
    return test_integer<device_scope, T>(false, step) + test_integer<system_scope, T>(false, step) +
           test_integer<block_scope, T>(true, step);
}
template <class T> int test_float_scopes()
{
    return test_float<device_scope, T>(false) + test_float<system_scope, T>(false) + test_float<block_scope, T>(true);
}

int main()
{
    int errors = test_integer_scopes<int>(3) + test_integer_scopes<unsigned>(3) +
                 test_integer_scopes<unsigned long>((1ul << 32) + 1) +
                 test_integer_scopes<unsigned long long>((1ull << 32) + 1); // carries into the high word
    errors += test_float_scopes<float>() + test_float_scopes<double>();
    errors += test_wrap<device_scope>(false) + test_wrap<system_scope>(false) + test_wrap<block_scope>(true);

    const int n = lanes_all;
    double* d = to_device(std::vector<double>{0, 0, 0, 1, -1, 0.0, 5});
    float* f = to_device(std::vector<float>{0, 0, 0, 0, -1, 1});
    int* i = to_device(std::vector<int>{0, 7, 0});
    unsigned* u = to_device(std::vector<unsigned>{0, 20, 20, 0, 0, 0, 0});
    unsigned long* ul = to_device(std::vector<unsigned long>{n + 7ul});
    unsigned long long* ull = to_device(std::vector<unsigned long long>{~0ull});
    long long* ll = to_device(std::vector<long long>{0, -(1LL << 62)});
    mixed<<<blocks, threads>>>(d, f, i, u, ul, ull, ll);
    SAMPLE_CHECK(hipGetLastError());
    const std::vector<double> hd = from_device(d, 7);
    const std::vector<float> hf = from_device(f, 6);
    const std::vector<int> hi = from_device(i, 3);
    const std::vector<unsigned> hu = from_device(u, 7);
    errors += hd != std::vector<double>{double(n), double(n), double(n), -(n - 1.0), n - 1.0, 0.0, 0.0};
    errors += std::signbit(hd[5]) || std::signbit(hd[6]);
    errors += hf != std::vector<float>{2.0f * n, 0.5f * n, float(n), float(n), n - 1.0f, 1.0f - n};
    errors += hi != std::vector<int>{n - 1, 7, 7};
    errors += hu != std::vector<unsigned>{unsigned(n), 0, 12, 12, 20, 20, 0};
    errors += from_device(ul, 1)[0] != 7 || from_device(ull, 1)[0] != 5;
    errors += from_device(ll, 2) != std::vector<long long>{-1000 * (1LL << 33), (n - 1001) * (1LL << 33)};
    return sample_result("atomics", errors);
}
