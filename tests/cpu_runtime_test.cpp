// The CPU runtime (core/platforms/cpu): barriers, shared memory, warp collectives at both
// wavefront widths, atomics under contention, launch errors, and the fiber economy.
#define BOOST_TEST_MODULE cpu_runtime
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <hip/hip_cooperative_groups.h>
#include <hip/hip_runtime.h>
#include <hip/hip_runtime_api.h> // the whole platform, as ROCm lays it out

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <sys/resource.h>
#include <thread>
#include <vector>

namespace {

/// Device buffer of n T, freed at scope exit.
template <class T> struct dbuf {
    explicit dbuf(size_t n, int fill = 0) : n(n)
    {
        BOOST_REQUIRE_EQUAL(hipMalloc(&p, n * sizeof(T)), hipSuccess);
        BOOST_REQUIRE_EQUAL(reinterpret_cast<uintptr_t>(p) % 256,
                            0u); // the plugin ABI promises it (conv/tiled relies on it)
        BOOST_REQUIRE_EQUAL(hipMemset(p, fill, n * sizeof(T)), hipSuccess);
    }
    ~dbuf() { (void)hipFree(p); }
    std::vector<T> host() const
    {
        std::vector<T> h(n);
        BOOST_REQUIRE_EQUAL(hipMemcpy(h.data(), p, n * sizeof(T), hipMemcpyDeviceToHost), hipSuccess);
        return h;
    }
    T* p = nullptr;
    size_t n;
};

void launched() { BOOST_REQUIRE_EQUAL(hipGetLastError(), hipSuccess); }

struct warp_size_fixture {
    ~warp_size_fixture() { (void)hipCpuSetWarpSize(64); }
};

// ---- barriers and shared memory -------------------------------------------------------------------

__global__ void rotate_through_shared(int* out, int rounds)
{
    __shared__ int s[1024];
    const unsigned t = threadIdx.x, n = blockDim.x;
    int v = int(t + 1000 * blockIdx.x);
    for (int r = 0; r < rounds; ++r) {
        s[t] = v;
        __syncthreads();
        v = s[(t + 1) % n]; // the neighbour's value, written before the barrier
        __syncthreads();
    }
    out[blockIdx.x * n + t] = v;
}

BOOST_AUTO_TEST_CASE(barrier_orders_every_lane_and_shared_memory_is_private_to_each_block)
{
    const unsigned blocks = 64, lanes = 1024;
    const int rounds = 5;
    dbuf<int> out(blocks * lanes);
    hipLaunchKernelGGL(rotate_through_shared, dim3(blocks), dim3(lanes), 0, nullptr, out.p, rounds);
    launched();
    const auto h = out.host();
    for (unsigned b = 0; b < blocks; ++b)
        for (unsigned t = 0; t < lanes; ++t)
            BOOST_REQUIRE_EQUAL(h[b * lanes + t], int((t + rounds) % lanes + 1000 * b)); // own block's data only
}

__global__ void reverse_dynamic(const int* in, int* out)
{
    HIP_DYNAMIC_SHARED(int, s);
    const unsigned t = threadIdx.x, n = blockDim.x;
    s[t] = in[blockIdx.x * n + t];
    __syncthreads();
    out[blockIdx.x * n + t] = s[n - 1 - t];
}

BOOST_AUTO_TEST_CASE(dynamic_shared_memory_is_per_block)
{
    const unsigned blocks = 40, lanes = 96;
    std::vector<int> in(blocks * lanes);
    std::iota(in.begin(), in.end(), 7);
    dbuf<int> din(in.size()), dout(in.size());
    BOOST_REQUIRE_EQUAL(hipMemcpy(din.p, in.data(), in.size() * 4, hipMemcpyHostToDevice), hipSuccess);
    hipLaunchKernelGGL(reverse_dynamic, dim3(blocks), dim3(lanes), lanes * sizeof(int), nullptr, din.p, dout.p);
    launched();
    const auto h = dout.host();
    for (unsigned b = 0; b < blocks; ++b)
        for (unsigned t = 0; t < lanes; ++t) BOOST_REQUIRE_EQUAL(h[b * lanes + t], in[b * lanes + lanes - 1 - t]);
}

__global__ void early_exit_then_barrier(int* out)
{
    __shared__ int s[256];
    const unsigned t = threadIdx.x;
    if (t >= 200) return; // exited lanes do not hold the barrier
    s[t] = int(t);
    __syncthreads();
    out[t] = s[199 - t];
}

BOOST_AUTO_TEST_CASE(lanes_that_exited_do_not_hold_a_barrier)
{
    dbuf<int> out(256, 0xff);
    hipLaunchKernelGGL(early_exit_then_barrier, dim3(1), dim3(256), 0, nullptr, out.p);
    launched();
    const auto h = out.host();
    for (int t = 0; t < 200; ++t) BOOST_REQUIRE_EQUAL(h[t], 199 - t);
    BOOST_CHECK_EQUAL(h[200], -1); // never written
}

__global__ void write_indices(uint32_t* out)
{
    const unsigned lane = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    out[block * blockDim.x * blockDim.y * blockDim.z + lane] =
        threadIdx.x | threadIdx.y << 4 | threadIdx.z << 8 | blockIdx.x << 12 | blockIdx.y << 16 | blockIdx.z << 20;
}

BOOST_AUTO_TEST_CASE(three_dimensional_indices)
{
    const dim3 grid(3, 2, 2), block(4, 3, 5);
    const unsigned per_block = 60, n = 12 * per_block;
    dbuf<uint32_t> out(n);
    hipLaunchKernelGGL(write_indices, grid, block, 0, nullptr, out.p);
    launched();
    const auto h = out.host();
    for (unsigned bz = 0; bz < 2; ++bz)
        for (unsigned by = 0; by < 2; ++by)
            for (unsigned bx = 0; bx < 3; ++bx)
                for (unsigned z = 0; z < 5; ++z)
                    for (unsigned y = 0; y < 3; ++y)
                        for (unsigned x = 0; x < 4; ++x) {
                            const unsigned b = bx + 3 * (by + 2 * bz), l = x + 4 * (y + 3 * z);
                            BOOST_REQUIRE_EQUAL(h[b * per_block + l],
                                                x | y << 4 | z << 8 | bx << 12 | by << 16 | bz << 20);
                        }
}

// ---- warp collectives -------------------------------------------------------------------------

__global__ void collectives(unsigned long long* ballots, int* any_all, int* shfl, int* up, int* down, int* xr, int* seg)
{
    const unsigned t = threadIdx.x;
    const int v = int(t * 10);
    ballots[t] = __ballot(t % 3 == 0);
    any_all[t] = __any(t == 5) | __all(t < 100000) << 1 | __all(t != 7) << 2;
    shfl[t] = __shfl(v, 5);
    up[t] = __shfl_up(v, 2);
    down[t] = __shfl_down(v, 3);
    xr[t] = __shfl_xor(v, 1);
    seg[t] = __shfl(v, 1, 8); // lane 1 of each 8-lane segment
}

BOOST_DATA_TEST_CASE_F(warp_size_fixture, collectives_stay_within_one_wavefront, boost::unit_test::data::make({32, 64}),
                       width)
{
    BOOST_REQUIRE_EQUAL(hipCpuSetWarpSize(width), hipSuccess);
    hipDeviceProp_t prop;
    BOOST_REQUIRE_EQUAL(hipGetDeviceProperties(&prop, 0), hipSuccess);
    BOOST_REQUIRE_EQUAL(prop.warpSize, width);

    const unsigned n = 200; // not a multiple of either width: the last wavefront is partial
    dbuf<unsigned long long> ballots(n);
    dbuf<int> any_all(n), shfl(n), up(n), down(n), xr(n), seg(n);
    hipLaunchKernelGGL(collectives, dim3(1), dim3(n), 0, nullptr, ballots.p, any_all.p, shfl.p, up.p, down.p, xr.p,
                       seg.p);
    launched();
    const auto b = ballots.host();
    const auto aa = any_all.host(), s = shfl.host(), u = up.host(), d = down.host(), x = xr.host(), g = seg.host();
    const unsigned w = unsigned(width);
    for (unsigned t = 0; t < n; ++t) {
        const unsigned base = t - t % w, lanes = std::min(w, n - base), lane = t % w;
        unsigned long long want = 0;
        for (unsigned l = 0; l < lanes; ++l)
            if ((base + l) % 3 == 0) want |= 1ull << l;
        BOOST_TEST_CONTEXT("lane " << t << ", wavefront width " << w)
        {
            BOOST_REQUIRE_EQUAL(b[t], want);
            const bool has5 = base <= 5 && 5 < base + lanes, has7 = base <= 7 && 7 < base + lanes;
            BOOST_REQUIRE_EQUAL(aa[t], int(has5) | 2 | int(!has7) << 2);
            BOOST_REQUIRE_EQUAL(s[t], int((base + 5) * 10));
            BOOST_REQUIRE_EQUAL(u[t], int((lane >= 2 ? t - 2 : t) * 10));
            // Beyond the wavefront, or beyond a partial one, a shuffle returns the caller's value.
            BOOST_REQUIRE_EQUAL(d[t], int((lane + 3 < lanes ? t + 3 : t) * 10));
            BOOST_REQUIRE_EQUAL(x[t], int(((t ^ 1) < base + lanes ? t ^ 1 : t) * 10));
            BOOST_REQUIRE_EQUAL(g[t], int((t - t % 8 + 1) * 10));
        }
    }
}

__global__ void first_wave_only(int* out)
{
    // Only wavefront 0 shuffles; the others leave at once. A runtime whose collectives wait for
    // the whole block (HIP-CPU's) hangs or mixes values here.
    if (int(threadIdx.x) >= warpSize) return;
    int v = int(threadIdx.x) + 1;
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down(v, o);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}

BOOST_DATA_TEST_CASE_F(warp_size_fixture, collectives_in_one_wavefront_do_not_wait_for_the_others,
                       boost::unit_test::data::make({32, 64}), width)
{
    BOOST_REQUIRE_EQUAL(hipCpuSetWarpSize(width), hipSuccess);
    dbuf<int> out(8);
    hipLaunchKernelGGL(first_wave_only, dim3(8), dim3(256), 0, nullptr, out.p);
    launched();
    for (int v : out.host()) BOOST_REQUIRE_EQUAL(v, width * (width + 1) / 2);
}

__global__ void divergent_ballots(unsigned long long* out)
{
    const unsigned t = threadIdx.x;
    if (t % 2 == 0)
        out[t] = __ballot(t % 4 == 0); // the even lanes' collective
    else
        out[t] = __ballot(1); // the odd lanes', a different call site
}

BOOST_DATA_TEST_CASE_F(warp_size_fixture, divergent_collectives_count_only_their_own_lanes,
                       boost::unit_test::data::make({32, 64}), width)
{
    BOOST_REQUIRE_EQUAL(hipCpuSetWarpSize(width), hipSuccess);
    dbuf<unsigned long long> out(64);
    hipLaunchKernelGGL(divergent_ballots, dim3(1), dim3(64), 0, nullptr, out.p);
    launched();
    unsigned long long even = 0, odd = 0;
    for (int l = 0; l < int(width); ++l) {
        if (l % 4 == 0) even |= 1ull << l;
        if (l % 2 == 1) odd |= 1ull << l;
    }
    const auto h = out.host();
    for (int t = 0; t < 64; ++t) BOOST_REQUIRE_EQUAL(h[t], t % 2 == 0 ? even : odd);
}

// _sync forms: the lanes a mask names meet from any call site; matches and reductions over them.
__global__ void masked_collectives(int* from_lane_0, unsigned long long* same, int* sums, unsigned long long* votes)
{
    const int t = int(threadIdx.x);
    const unsigned long long all = ~0ull >> (64 - warpSize);
    if (t % 2) // two call sites, one mask: one collective
        from_lane_0[t] = __shfl_sync(all, t * 10, 0);
    else
        from_lane_0[t] = __shfl_sync(all, t * 10, 0);
    same[t] = __match_any_sync(all, t % 3);
    sums[t] = __reduce_add_sync(all, t) + __reduce_max_sync(all, -t) * 1000;
    votes[t] = t < 8 ? __ballot_sync(0xffull, t % 2) : 0; // the eight lanes named, in a branch
}

BOOST_DATA_TEST_CASE_F(warp_size_fixture, masked_collectives_take_the_lanes_their_mask_names,
                       boost::unit_test::data::make({32, 64}), width)
{
    BOOST_REQUIRE_EQUAL(hipCpuSetWarpSize(width), hipSuccess);
    dbuf<int> from(64), sums(64);
    dbuf<unsigned long long> same(64), votes(64);
    hipLaunchKernelGGL(masked_collectives, dim3(1), dim3(64), 0, nullptr, from.p, same.p, sums.p, votes.p);
    launched();
    const auto f = from.host(), s = sums.host();
    const auto m = same.host(), v = votes.host();
    for (int t = 0; t < 64; ++t) {
        const int base = t - t % int(width);
        BOOST_REQUIRE_EQUAL(f[t], base * 10);
        unsigned long long want = 0;
        for (int l = 0; l < int(width); ++l) want |= (base + l) % 3 == t % 3 ? 1ull << l : 0;
        BOOST_REQUIRE_EQUAL(m[t], want);
        const int total = int(width) * base + int(width) * (int(width) - 1) / 2;
        BOOST_REQUIRE_EQUAL(s[t], total - base * 1000);
        BOOST_REQUIRE_EQUAL(v[t], t < 8 ? 0xaaull : 0ull);
    }
}

// Lanes 0..31 wait at a barrier while the others' _sync names them: no GPU completes that.
__global__ void stuck_mask(int* out)
{
    const int t = int(threadIdx.x);
    if (t < 32)
        __syncthreads();
    else
        out[t] = __shfl_sync(~0ull, t, 0);
}

BOOST_FIXTURE_TEST_CASE(a_mask_naming_a_lane_that_cannot_arrive_fails_the_launch, warp_size_fixture)
{
    BOOST_REQUIRE_EQUAL(hipCpuSetWarpSize(64), hipSuccess);
    dbuf<int> out(64);
    hipLaunchKernelGGL(stuck_mask, dim3(1), dim3(64), 0, nullptr, out.p);
    BOOST_REQUIRE_EQUAL(hipGetLastError(), hipErrorLaunchFailure);
}

__global__ void clamp_kernel(const int* in, int* out, float* fout, int n)
{
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    out[i] = min(max(in[i], -5), 5); // device min/max, unqualified as GPU code calls them
    fout[i] = max(float(in[i]) * 0.5f, 0.0f);
}

// The host API ordinary HIP programs use beyond the plugins' subset, written as they write it:
// hipStreamDefault flags, default stream arguments, pinned and mapped host memory, memory and
// peer queries, and hip_runtime_api.h.
BOOST_AUTO_TEST_CASE(host_api_of_ordinary_hip_programs)
{
    hipStream_t stream;
    BOOST_REQUIRE_EQUAL(hipStreamCreateWithFlags(&stream, hipStreamDefault), hipSuccess);
    hipStream_t nonblocking;
    BOOST_REQUIRE_EQUAL(hipStreamCreateWithFlags(&nonblocking, hipStreamNonBlocking), hipSuccess);
    hipStream_t bad;
    BOOST_CHECK_EQUAL(hipStreamCreateWithFlags(&bad, 0x80), hipErrorInvalidValue);
    (void)hipGetLastError();

    const int n = 1000;
    int* host_in = nullptr;
    BOOST_REQUIRE_EQUAL(hipHostMalloc(&host_in, n * sizeof(int)), hipSuccess);
    int* mapped = nullptr;
    BOOST_REQUIRE_EQUAL(hipHostMalloc(&mapped, n * sizeof(int), hipHostMallocMapped), hipSuccess);
    int* mapped_device = nullptr;
    BOOST_REQUIRE_EQUAL(hipHostGetDevicePointer(reinterpret_cast<void**>(&mapped_device), mapped, 0), hipSuccess);
    for (int i = 0; i < n; ++i) host_in[i] = i - n / 2;

    int* in = nullptr;
    float* fout = nullptr;
    BOOST_REQUIRE_EQUAL(hipMalloc(&in, n * sizeof(int)), hipSuccess);
    BOOST_REQUIRE_EQUAL(hipMalloc(&fout, n * sizeof(float)), hipSuccess);
    hipEvent_t start, stop;
    BOOST_REQUIRE_EQUAL(hipEventCreate(&start), hipSuccess);
    BOOST_REQUIRE_EQUAL(hipEventCreate(&stop), hipSuccess);
    BOOST_REQUIRE_EQUAL(hipEventRecord(start), hipSuccess); // the default stream
    BOOST_REQUIRE_EQUAL(hipMemcpyAsync(in, host_in, n * sizeof(int), hipMemcpyHostToDevice), hipSuccess);
    BOOST_REQUIRE_EQUAL(hipMemsetAsync(mapped_device, 0xff, n * sizeof(int)), hipSuccess);
    hipLaunchKernelGGL(clamp_kernel, dim3((n + 255) / 256), dim3(256), 0, stream, in, mapped_device, fout, n);
    BOOST_REQUIRE_EQUAL(hipEventRecord(stop), hipSuccess);
    BOOST_REQUIRE_EQUAL(hipEventSynchronize(stop), hipSuccess);
    float ms = -1;
    BOOST_REQUIRE_EQUAL(hipEventElapsedTime(&ms, start, stop), hipSuccess);
    BOOST_CHECK_GE(ms, 0.0f);
    std::vector<float> f(n);
    BOOST_REQUIRE_EQUAL(hipMemcpy(f.data(), fout, n * sizeof(float), hipMemcpyDeviceToHost), hipSuccess);
    for (int i = 0; i < n; ++i) { // the kernel wrote the mapped host memory directly
        BOOST_REQUIRE_EQUAL(mapped[i], std::min(std::max(host_in[i], -5), 5));
        BOOST_REQUIRE_EQUAL(f[i], std::max(float(host_in[i]) * 0.5f, 0.0f));
    }
    BOOST_CHECK_EQUAL(max(3u, 7u), 7u);
    BOOST_CHECK_EQUAL(min(-3LL, 7LL), -3LL);
    BOOST_CHECK_EQUAL(max(2.5, -1.0), 2.5);

    size_t free_bytes = 0, total_bytes = 0;
    BOOST_REQUIRE_EQUAL(hipMemGetInfo(&free_bytes, &total_bytes), hipSuccess);
    BOOST_CHECK_GT(total_bytes, 0u);
    BOOST_CHECK_LE(free_bytes, total_bytes);
    int peer = -1;
    BOOST_CHECK_EQUAL(hipDeviceCanAccessPeer(&peer, 0, 0), hipSuccess);
    BOOST_CHECK_EQUAL(peer, 0);
    BOOST_CHECK_EQUAL(hipDeviceCanAccessPeer(&peer, 0, 1), hipErrorInvalidDevice);
    (void)hipGetLastError();

    BOOST_CHECK_EQUAL(hipHostFree(host_in), hipSuccess);
    BOOST_CHECK_EQUAL(hipHostFree(mapped), hipSuccess);
    BOOST_CHECK_EQUAL(hipFree(in), hipSuccess);
    BOOST_CHECK_EQUAL(hipFree(fout), hipSuccess);
    BOOST_CHECK_EQUAL(hipEventDestroy(start), hipSuccess);
    BOOST_CHECK_EQUAL(hipEventDestroy(stop), hipSuccess);
    BOOST_CHECK_EQUAL(hipStreamDestroy(stream), hipSuccess);
    BOOST_CHECK_EQUAL(hipStreamDestroy(nonblocking), hipSuccess);
}

BOOST_AUTO_TEST_CASE(warp_size_accepts_only_32_and_64)
{
    BOOST_CHECK_EQUAL(hipCpuSetWarpSize(48), hipErrorInvalidValue);
    BOOST_CHECK_EQUAL(hipGetLastError(), hipErrorInvalidValue);
    BOOST_CHECK_EQUAL(hipGetLastError(), hipSuccess); // reading the error clears it
}

// ---- atomics ------------------------------------------------------------------------------------

__global__ void contend(int* i, unsigned* u, unsigned long long* ull, float* f, int* mx, int* mn, unsigned* cas,
                        int* sub)
{
    const int g = int(blockIdx.x * blockDim.x + threadIdx.x);
    atomicAdd(i, 3);
    atomicAdd(u, 1u);
    atomicAdd(ull, 1ull << 33);
    atomicAdd(f, 1.0f);
    atomicMax(mx, g);
    atomicMin(mn, -g);
    atomicSub(sub, 2);
    unsigned old = *cas, seen; // an increment made of compare-and-swap
    while ((seen = atomicCAS(cas, old, old + 1)) != old) old = seen;
}

BOOST_AUTO_TEST_CASE(atomics_under_contention_lose_nothing)
{
    BOOST_REQUIRE_EQUAL(hipCpuSetThreads(0), hipSuccess);
    const unsigned blocks = 512, lanes = 128, n = blocks * lanes;
    dbuf<int> i(1), mx(1), mn(1), sub(1);
    dbuf<unsigned> u(1), cas(1);
    dbuf<unsigned long long> ull(1);
    dbuf<float> f(1);
    hipLaunchKernelGGL(contend, dim3(blocks), dim3(lanes), 0, nullptr, i.p, u.p, ull.p, f.p, mx.p, mn.p, cas.p, sub.p);
    launched();
    BOOST_CHECK_EQUAL(i.host()[0], int(3 * n));
    BOOST_CHECK_EQUAL(u.host()[0], n);
    BOOST_CHECK_EQUAL(ull.host()[0], (unsigned long long)n << 33);
    BOOST_CHECK_EQUAL(f.host()[0], float(n)); // exact: every partial sum is an integer below 2^24
    BOOST_CHECK_EQUAL(mx.host()[0], int(n - 1));
    BOOST_CHECK_EQUAL(mn.host()[0], -int(n - 1));
    BOOST_CHECK_EQUAL(sub.host()[0], -2 * int(n));
    BOOST_CHECK_EQUAL(cas.host()[0], n);
}

BOOST_AUTO_TEST_CASE(atomic_exchange_returns_the_old_value)
{
    int x = 5;
    BOOST_CHECK_EQUAL(atomicExch(&x, 9), 5);
    BOOST_CHECK_EQUAL(x, 9);
    float y = 1.5f;
    BOOST_CHECK_EQUAL(atomicExch(&y, 2.5f), 1.5f);
    BOOST_CHECK_EQUAL(atomicCAS(&x, 9, 11), 9);
    BOOST_CHECK_EQUAL(atomicCAS(&x, 9, 13), 11); // no swap: the value was not 9
    BOOST_CHECK_EQUAL(x, 11);
}

// ---- launch errors --------------------------------------------------------------------------------

__global__ void noop() {}

BOOST_AUTO_TEST_CASE(launch_errors_are_reported_like_a_gpu_runtime)
{
    (void)hipGetLastError();
    hipLaunchKernelGGL(noop, dim3(1), dim3(1025), 0, nullptr);
    BOOST_CHECK_EQUAL(hipGetLastError(), hipErrorInvalidConfiguration);
    hipLaunchKernelGGL(noop, dim3(0), dim3(64), 0, nullptr);
    BOOST_CHECK_EQUAL(hipGetLastError(), hipErrorInvalidConfiguration);
    hipLaunchKernelGGL(noop, dim3(1), dim3(32, 32, 2), 0, nullptr);
    BOOST_CHECK_EQUAL(hipGetLastError(), hipErrorInvalidConfiguration);
    hipLaunchKernelGGL(noop, dim3(1), dim3(64), 64 * 1024 + 1, nullptr);
    BOOST_CHECK_EQUAL(hipGetLastError(), hipErrorInvalidValue);
    hipLaunchKernelGGL(noop, dim3(1), dim3(1024), 64 * 1024, nullptr); // at the limits: fine
    BOOST_CHECK_EQUAL(hipGetLastError(), hipSuccess);

    int x;
    BOOST_CHECK_EQUAL(hipFree(&x), hipErrorInvalidValue); // not from hipMalloc
    hipEvent_t a, b;
    BOOST_REQUIRE_EQUAL(hipEventCreate(&a), hipSuccess);
    BOOST_REQUIRE_EQUAL(hipEventCreate(&b), hipSuccess);
    float ms;
    BOOST_CHECK_EQUAL(hipEventElapsedTime(&ms, a, b), hipErrorInvalidHandle); // never recorded
    BOOST_CHECK_EQUAL(hipEventRecord(a, nullptr), hipSuccess);
    BOOST_CHECK_EQUAL(hipEventRecord(b, nullptr), hipSuccess);
    BOOST_CHECK_EQUAL(hipEventElapsedTime(&ms, a, b), hipSuccess);
    BOOST_CHECK_GE(ms, 0.0f);
    (void)hipEventDestroy(a);
    (void)hipEventDestroy(b);
    (void)hipGetLastError();
    BOOST_CHECK_EQUAL(std::string(hipGetErrorName(hipErrorInvalidConfiguration)), "hipErrorInvalidConfiguration");
}

__global__ void throws_in_one_lane()
{
    if (blockIdx.x == 3 && threadIdx.x == 17) throw 42;
}

BOOST_AUTO_TEST_CASE(an_exception_in_a_lane_is_a_launch_failure)
{
    hipLaunchKernelGGL(throws_in_one_lane, dim3(8), dim3(64), 0, nullptr);
    BOOST_CHECK_EQUAL(hipGetLastError(), hipErrorLaunchFailure);
}

BOOST_AUTO_TEST_CASE(occupancy_and_attributes_describe_one_block_per_worker)
{
    int blocks = -1;
    BOOST_CHECK_EQUAL(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, noop, 256, 0), hipSuccess);
    BOOST_CHECK_EQUAL(blocks, 1);
    BOOST_CHECK_EQUAL(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, noop, 2048, 0), hipSuccess);
    BOOST_CHECK_EQUAL(blocks, 0);
    hipFuncAttributes attr;
    BOOST_CHECK_EQUAL(hipFuncGetAttributes(&attr, noop), hipSuccess);
    BOOST_CHECK_EQUAL(attr.maxThreadsPerBlock, 1024);
    BOOST_CHECK_EQUAL(hipFuncGetAttributes(&attr, static_cast<const void*>(nullptr)), hipErrorInvalidDeviceFunction);
    (void)hipGetLastError();
}

// ---- fibers: only for blocks that need them ---------------------------------------------------------

__global__ void fill(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 1; }

BOOST_AUTO_TEST_CASE(kernels_without_barriers_use_one_fiber_per_block)
{
    const unsigned blocks = 100, lanes = 256;
    dbuf<int> out(blocks * lanes);
    unsigned long long before, after;
    BOOST_REQUIRE_EQUAL(hipCpuFibersCreated(&before), hipSuccess);
    hipLaunchKernelGGL(fill, dim3(blocks), dim3(lanes), 0, nullptr, out.p);
    launched();
    BOOST_REQUIRE_EQUAL(hipCpuFibersCreated(&after), hipSuccess);
    BOOST_CHECK_EQUAL(after - before, blocks);

    BOOST_REQUIRE_EQUAL(hipCpuFibersCreated(&before), hipSuccess);
    hipLaunchKernelGGL(rotate_through_shared, dim3(blocks), dim3(lanes), 0, nullptr, out.p, 1);
    launched();
    BOOST_REQUIRE_EQUAL(hipCpuFibersCreated(&after), hipSuccess);
    BOOST_CHECK_EQUAL(after - before, blocks * lanes); // the first lane's fiber is the block's
}

BOOST_AUTO_TEST_CASE(running_out_of_fiber_stacks_is_a_launch_error_not_a_crash)
{
    BOOST_REQUIRE_EQUAL(hipCpuSetThreads(1), hipSuccess); // only the launching thread works
    const unsigned lanes = 1024;
    dbuf<int> out(lanes);
    hipError_t starved = hipSuccess, after = hipSuccess;
    // A new thread has no cached stacks; with the address space capped just above what is in use,
    // the block's 1023 lane stacks (64 KiB each) cannot be mapped.
    std::thread([&] {
        rlimit old{};
        getrlimit(RLIMIT_AS, &old);
        long pages = 0;
        if (FILE* f = std::fopen("/proc/self/statm", "r")) {
            if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
            std::fclose(f);
        }
        rlimit low = old;
        low.rlim_cur = rlim_t(pages) * 4096 + (16 << 20);
        setrlimit(RLIMIT_AS, &low);
        hipLaunchKernelGGL(rotate_through_shared, dim3(1), dim3(lanes), 0, nullptr, out.p, 1);
        starved = hipGetLastError();
        setrlimit(RLIMIT_AS, &old);
        hipLaunchKernelGGL(rotate_through_shared, dim3(1), dim3(lanes), 0, nullptr, out.p, 1);
        after = hipGetLastError();
    }).join();
    BOOST_CHECK_EQUAL(starved, hipErrorLaunchOutOfResources);
    BOOST_CHECK_EQUAL(after, hipSuccess);
    const auto h = out.host();
    for (unsigned t = 0; t < lanes; ++t) BOOST_REQUIRE_EQUAL(h[t], int((t + 1) % lanes));
    BOOST_REQUIRE_EQUAL(hipCpuSetThreads(0), hipSuccess);
}

BOOST_AUTO_TEST_CASE(blocks_run_on_every_worker)
{
    BOOST_REQUIRE_EQUAL(hipCpuSetThreads(3), hipSuccess);
    hipDeviceProp_t p;
    BOOST_REQUIRE_EQUAL(hipGetDeviceProperties(&p, 0), hipSuccess);
    BOOST_CHECK_EQUAL(p.multiProcessorCount, 3);
    dbuf<int> out(50 * 64);
    hipLaunchKernelGGL(rotate_through_shared, dim3(50), dim3(64), 0, nullptr, out.p, 3);
    launched();
    const auto h = out.host();
    for (unsigned b = 0; b < 50; ++b)
        for (unsigned t = 0; t < 64; ++t) BOOST_REQUIRE_EQUAL(h[b * 64 + t], int((t + 3) % 64 + 1000 * b));
    BOOST_REQUIRE_EQUAL(hipCpuSetThreads(0), hipSuccess);
}

// ---- lane order -----------------------------------------------------------------------------------------

/// Each lane records when it ran, before and after a barrier: out[phase * n + k] = the k-th lane to run.
__global__ void running_order(unsigned* out, unsigned* counters)
{
    const unsigned n = blockDim.x;
    out[atomicAdd(&counters[0], 1u)] = threadIdx.x;
    __syncthreads();
    out[n + atomicAdd(&counters[1], 1u)] = threadIdx.x;
}

/// Puts back the lane order in effect before the test (WAVEBENCH_CPU_LANE_ORDER may have set it).
struct lane_order_fixture {
    lane_order_fixture() { (void)hipCpuGetLaneOrder(&order, &seed); }
    ~lane_order_fixture() { (void)hipCpuSetLaneOrder(order, seed); }
    hipCpuLaneOrder order = hipCpuLaneOrderForward;
    unsigned long long seed = 0;
};

std::vector<unsigned> lanes_in_running_order(hipCpuLaneOrder order, unsigned long long seed, unsigned lanes)
{
    BOOST_REQUIRE_EQUAL(hipCpuSetLaneOrder(order, seed), hipSuccess);
    dbuf<unsigned> out(2 * lanes), counters(2);
    hipLaunchKernelGGL(running_order, dim3(1), dim3(lanes), 0, nullptr, out.p, counters.p);
    launched();
    return out.host();
}

BOOST_FIXTURE_TEST_CASE(lanes_run_in_the_order_asked_for_between_synchronization_points, lane_order_fixture)
{
    const unsigned lanes = 128;                                                                     // two wavefronts
    if (!std::getenv("WAVEBENCH_CPU_LANE_ORDER")) BOOST_CHECK_EQUAL(order, hipCpuLaneOrderForward); // the default

    // Forward: lane order. Reverse: each wavefront from its last lane, wavefronts in order.
    const auto forward = lanes_in_running_order(hipCpuLaneOrderForward, 0, lanes);
    const auto reverse = lanes_in_running_order(hipCpuLaneOrderReverse, 0, lanes);
    for (unsigned phase = 0; phase < 2; ++phase)
        for (unsigned k = 0; k < lanes; ++k) {
            BOOST_REQUIRE_EQUAL(forward[phase * lanes + k], k);
            BOOST_REQUIRE_EQUAL(reverse[phase * lanes + k], k / 64 * 64 + 63 - k % 64);
        }
    // Random: a permutation of each wavefront, another one after the barrier, the same for the same
    // seed and different for another.
    const auto a = lanes_in_running_order(hipCpuLaneOrderRandom, 11, lanes);
    const auto b = lanes_in_running_order(hipCpuLaneOrderRandom, 11, lanes);
    const auto c = lanes_in_running_order(hipCpuLaneOrderRandom, 12, lanes);
    BOOST_CHECK(a == b);
    BOOST_CHECK(a != c);
    BOOST_CHECK(!std::equal(a.begin(), a.begin() + lanes, a.begin() + lanes));
    for (unsigned phase = 0; phase < 2; ++phase)
        for (unsigned w = 0; w < lanes; w += 64) {
            std::vector<unsigned> wave(a.begin() + phase * lanes + w, a.begin() + phase * lanes + w + 64);
            BOOST_CHECK(!std::is_sorted(wave.begin(), wave.end()));
            std::sort(wave.begin(), wave.end());
            for (unsigned k = 0; k < 64; ++k) BOOST_REQUIRE_EQUAL(wave[k], w + k);
        }
    BOOST_CHECK_EQUAL(hipCpuSetLaneOrder(hipCpuLaneOrder(7), 0), hipErrorInvalidValue);
    (void)hipGetLastError();
}

/// Shuffles and ballots give the same answers in every lane order (they are exchanges, not races).
BOOST_FIXTURE_TEST_CASE(collectives_do_not_depend_on_the_lane_order, lane_order_fixture)
{
    for (const hipCpuLaneOrder order : {hipCpuLaneOrderForward, hipCpuLaneOrderReverse, hipCpuLaneOrderRandom}) {
        BOOST_REQUIRE_EQUAL(hipCpuSetLaneOrder(order, 3), hipSuccess);
        const unsigned n = 256;
        dbuf<unsigned long long> ballots(n);
        dbuf<int> any_all(n), shfl(n), up(n), down(n), xr(n), seg(n);
        hipLaunchKernelGGL(collectives, dim3(1), dim3(n), 0, nullptr, ballots.p, any_all.p, shfl.p, up.p, down.p, xr.p,
                           seg.p);
        launched();
        const auto s = shfl.host(), d = down.host();
        const auto b = ballots.host();
        for (unsigned t = 0; t < n; ++t) {
            BOOST_REQUIRE_EQUAL(s[t], int(t / 64 * 64 + 5) * 10);
            BOOST_REQUIRE_EQUAL(d[t], int(t % 64 + 3 < 64 ? t + 3 : t) * 10);
            unsigned long long want = 0;
            for (unsigned j = 0; j < 64; ++j) want |= (unsigned long long)((t / 64 * 64 + j) % 3 == 0) << j;
            BOOST_REQUIRE_EQUAL(b[t], want);
        }
    }
}

// ---- cooperative launches -------------------------------------------------------------------------------

namespace cg = cooperative_groups;

/// Block b writes its slot, meets the others, then reads its neighbour's slot.
__global__ void neighbours(int* slots, int* out)
{
    cg::grid_group grid = cg::this_grid();
    if (threadIdx.x == 0) slots[blockIdx.x] = int(blockIdx.x) * 7 + 1;
    grid.sync();
    if (threadIdx.x == 0) out[blockIdx.x] = slots[(blockIdx.x + 1) % gridDim.x];
}

__global__ void throws_in_block_one(int* slots, int* out)
{
    if (blockIdx.x == 1 && threadIdx.x == 5) throw 1;
    cg::this_grid().sync(); // the other blocks must not wait forever for block 1
    out[blockIdx.x] = slots[0];
}

BOOST_AUTO_TEST_CASE(grid_sync_in_cooperative_launches_only)
{
    BOOST_REQUIRE_EQUAL(hipCpuSetThreads(3), hipSuccess);
    dbuf<int> slots(3), out(3);
    void* args[] = {&slots.p, &out.p};
    BOOST_CHECK_EQUAL(hipLaunchCooperativeKernel(neighbours, dim3(3), dim3(96), args, 0, nullptr), hipSuccess);
    const auto h = out.host();
    for (int b = 0; b < 3; ++b) BOOST_CHECK_EQUAL(h[b], (b + 1) % 3 * 7 + 1);
    // More blocks than can run at once; the kernel as a void* (its type is needed to call it).
    BOOST_CHECK_EQUAL(hipLaunchCooperativeKernel(neighbours, dim3(4), dim3(96), args, 0, nullptr),
                      hipErrorCooperativeLaunchTooLarge);
    BOOST_CHECK_EQUAL(hipLaunchCooperativeKernel(reinterpret_cast<const void*>(neighbours), dim3(2), dim3(96), args),
                      hipErrorInvalidDeviceFunction);
    (void)hipGetLastError();
    // A grid sync in an ordinary launch fails the launch instead of hanging it.
    hipLaunchKernelGGL(neighbours, dim3(3), dim3(96), 0, nullptr, slots.p, out.p);
    BOOST_CHECK_EQUAL(hipGetLastError(), hipErrorLaunchFailure);
    // A block that fails releases the others from the grid's barrier.
    BOOST_CHECK_EQUAL(hipLaunchCooperativeKernel(throws_in_block_one, dim3(3), dim3(64), args, 0, nullptr),
                      hipErrorLaunchFailure);
    (void)hipGetLastError();
    BOOST_REQUIRE_EQUAL(hipCpuSetThreads(0), hipSuccess);
}

} // namespace
