// Warp collectives after divergence: a wavefront's lanes reconverge where an if, a switch or a loop
// ends, and a collective inside a branch sees the lanes that took it, as on a GPU. Each kernel
// records what every lane saw; the host computes what a GPU gives for the wavefront width in use.
// Patterns: a branch with collectives then a vote and a reduction after it; a loop whose trip count
// differs per lane; a warp-aggregated atomic; a switch whose cases hold different collectives;
// continue and break before a collective; lanes that return early, from the kernel and from a
// device function; cooperative groups' tiles and coalesced_threads() in a branch; _sync forms with
// a mask in divergent code.
#include "sample_utils.h"

#if defined(__HIP_PLATFORM_NVIDIA__)
#include <cooperative_groups.h>
#else
#include <hip/hip_cooperative_groups.h>
#endif

#include <vector>

namespace cg = cooperative_groups;

constexpr int block = 128;
typedef unsigned long long mask_t;

__device__ int lane_id() { return int(threadIdx.x) % warpSize; }

__device__ int warp_sum(int v)
{
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
    return v;
}

// A helper that some lanes leave early: the ones that stay vote, then all reconverge in the caller.
__device__ mask_t vote_unless(bool leave)
{
    if (leave) return 0;
    return __ballot(1);
}

__global__ void after_branch(mask_t* inside, mask_t* after, int* sum)
{
    const int t = threadIdx.x, lane = lane_id();
    inside[t] = 0;
    if (lane % 3 == 0) {
        (void)__ballot(1);
        inside[t] = __ballot(lane & 1);
    }
    after[t] = __ballot(1);
    sum[t] = warp_sum(lane);
}

__global__ void uneven_loop(mask_t* votes, int* sum)
{
    const int t = threadIdx.x, lane = lane_id();
    for (int i = 0; i < lane % 4 + 1; ++i) votes[t * 4 + i] = __ballot(1);
    int v = lane;
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down(v, o);
    sum[t] = v;
}

__global__ void aggregated(const int* in, int* out, int* counter, int* total)
{
    const int t = threadIdx.x, lane = lane_id();
    int mine = 0;
    if (in[t] > 0) {
        const mask_t b = __ballot(1);
        const int leader = __ffsll((long long)b) - 1;
        int base = 0;
        if (lane == leader) base = atomicAdd(counter, __popcll(b));
        base = __shfl(base, leader);
        out[base + __popcll(b & ((mask_t(1) << lane) - 1))] = in[t];
        mine = 1;
    }
    total[t] = warp_sum(mine);
}

__global__ void cases(mask_t* first, mask_t* second, mask_t* after)
{
    const int t = threadIdx.x, lane = lane_id();
    first[t] = second[t] = 0;
    switch (lane % 3) {
    case 0:
        first[t] = __ballot(1);
        second[t] = __ballot(lane & 1);
        break;
    case 1:
        first[t] = __ballot(lane & 2);
        break;
    default:
        break;
    }
    after[t] = __ballot(1);
}

__global__ void skips(mask_t* votes, mask_t* after)
{
    const int t = threadIdx.x, lane = lane_id();
    for (int i = 0; i < 4; ++i) {
        votes[t * 4 + i] = 0;
        if (i == lane % 4) continue;
        if (i == 3 && lane >= warpSize / 2) break;
        votes[t * 4 + i] = __ballot(1);
    }
    after[t] = __ballot(1);
}

__global__ void early_return(mask_t* in_helper, mask_t* after_helper, mask_t* survivors)
{
    const int t = threadIdx.x, lane = lane_id();
    in_helper[t] = vote_unless(lane % 5 == 1);
    after_helper[t] = __ballot(1);
    if (lane > warpSize - 8) return;
    survivors[t] = __ballot(1);
}

__global__ void groups(int* tile_sum, int* coalesced_size, int* coalesced_rank)
{
    const int t = threadIdx.x, lane = lane_id();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    int v = t;
    for (int o = 8; o > 0; o >>= 1) v += tile.shfl_xor(v, o);
    tile_sum[t] = v;
    coalesced_size[t] = coalesced_rank[t] = -1;
    if (lane % 4 == 1) {
        cg::coalesced_group active = cg::coalesced_threads();
        coalesced_size[t] = int(active.size());
        coalesced_rank[t] = int(active.thread_rank());
    }
}

__global__ void masked(int* got)
{
    const int t = threadIdx.x, lane = lane_id();
    got[t] = -1;
    if (lane < 16) got[t] = __shfl_sync(0xffffu, t * 10, 3, 16);
}

// The host's answers: what a GPU gives with `w` lanes per wavefront.
static mask_t lanes_where(int w, bool (*pred)(int lane, int arg), int arg)
{
    mask_t m = 0;
    for (int l = 0; l < w; ++l)
        if (pred(l, arg)) m |= mask_t(1) << l;
    return m;
}

static int errors = 0;
template <class T> static void expect(const char* what, int t, T got, T want)
{
    if (got == want) return;
    if (++errors <= 12)
        std::printf("  %s, thread %d: %llx, expected %llx\n", what, t, (unsigned long long)got,
                    (unsigned long long)want);
}

int main(int argc, char** argv)
{
#if defined(__HIP_CPU_RT__) // `reconverge 32`: the cpu platform's wavefronts of 32 lanes
    if (argc > 1 && std::atoi(argv[1]) == 32) SAMPLE_CHECK(hipCpuSetWarpSize(32));
#else
    (void)argc, (void)argv;
#endif
    hipDeviceProp_t prop;
    SAMPLE_CHECK(hipGetDeviceProperties(&prop, 0));
    const int w = prop.warpSize;
    const mask_t all = w == 64 ? ~mask_t(0) : (mask_t(1) << w) - 1;
    mask_t *m1, *m2, *m3;
    int *i1, *i2, *i3, *i4;
    SAMPLE_CHECK(hipMallocManaged(&m1, block * 4 * sizeof(mask_t)));
    SAMPLE_CHECK(hipMallocManaged(&m2, block * 4 * sizeof(mask_t)));
    SAMPLE_CHECK(hipMallocManaged(&m3, block * 4 * sizeof(mask_t)));
    SAMPLE_CHECK(hipMallocManaged(&i1, block * sizeof(int)));
    SAMPLE_CHECK(hipMallocManaged(&i2, block * sizeof(int)));
    SAMPLE_CHECK(hipMallocManaged(&i3, block * sizeof(int)));
    SAMPLE_CHECK(hipMallocManaged(&i4, block * sizeof(int)));
    const int lane_sum = w * (w - 1) / 2;

    hipLaunchKernelGGL(after_branch, dim3(1), dim3(block), 0, 0, m1, m2, i1);
    SAMPLE_CHECK(hipDeviceSynchronize());
    for (int t = 0; t < block; ++t) {
        const int lane = t % w;
        const mask_t odd_thirds = lanes_where(w, [](int l, int) { return l % 3 == 0 && (l & 1); }, 0);
        expect("after_branch: ballot inside", t, m1[t], lane % 3 == 0 ? odd_thirds : 0);
        expect("after_branch: ballot after", t, m2[t], all);
        expect("after_branch: sum after", t, i1[t], lane_sum);
    }

    hipLaunchKernelGGL(uneven_loop, dim3(1), dim3(block), 0, 0, m1, i1);
    SAMPLE_CHECK(hipDeviceSynchronize());
    for (int t = 0; t < block; ++t) {
        const int lane = t % w;
        for (int i = 0; i < lane % 4 + 1; ++i)
            expect("uneven_loop: ballot in iteration", t, m1[t * 4 + i],
                   lanes_where(w, [](int l, int it) { return l % 4 + 1 > it; }, i));
        if (lane == 0) expect("uneven_loop: sum after", t, i1[t], lane_sum);
    }

    std::vector<int> in(block);
    int positives = 0;
    for (int t = 0; t < block; ++t) positives += (in[t] = (t * 7919) % 5 - 1) > 0;
    int* d_in;
    SAMPLE_CHECK(hipMallocManaged(&d_in, block * sizeof(int)));
    for (int t = 0; t < block; ++t) d_in[t] = in[t], i2[t] = 0;
    i3[0] = 0;
    hipLaunchKernelGGL(aggregated, dim3(1), dim3(block), 0, 0, d_in, i2, i3, i1);
    SAMPLE_CHECK(hipDeviceSynchronize());
    expect("aggregated: counter", 0, i3[0], positives);
    long long kept = 0, want_kept = 0;
    for (int t = 0; t < block; ++t) want_kept += in[t] > 0 ? in[t] : 0;
    for (int t = 0; t < positives; ++t) kept += i2[t];
    expect("aggregated: the values kept", 0, kept, want_kept);
    for (int t = 0; t < block; ++t) {
        int n = 0;
        for (int l = t - t % w; l < t - t % w + w; ++l) n += in[l] > 0;
        expect("aggregated: count after", t, i1[t], n);
    }

    hipLaunchKernelGGL(cases, dim3(1), dim3(block), 0, 0, m1, m2, m3);
    SAMPLE_CHECK(hipDeviceSynchronize());
    for (int t = 0; t < block; ++t) {
        const int lane = t % w;
        const mask_t c0 = lanes_where(w, [](int l, int) { return l % 3 == 0; }, 0);
        const mask_t c0_odd = lanes_where(w, [](int l, int) { return l % 3 == 0 && (l & 1); }, 0);
        const mask_t c1_two = lanes_where(w, [](int l, int) { return l % 3 == 1 && (l & 2); }, 0);
        expect("cases: first", t, m1[t], lane % 3 == 0 ? c0 : lane % 3 == 1 ? c1_two : 0);
        expect("cases: second", t, m2[t], lane % 3 == 0 ? c0_odd : 0);
        expect("cases: after", t, m3[t], all);
    }

    hipLaunchKernelGGL(skips, dim3(1), dim3(block), 0, 0, m1, m2);
    SAMPLE_CHECK(hipDeviceSynchronize());
    for (int t = 0; t < block; ++t) {
        const int lane = t % w;
        for (int i = 0; i < 4; ++i) {
            const bool votes = i != lane % 4 && !(i == 3 && lane >= w / 2);
            mask_t m = 0;
            for (int l = 0; l < w; ++l)
                if (i != l % 4 && !(i == 3 && l >= w / 2)) m |= mask_t(1) << l;
            expect("skips: ballot in iteration", t, m1[t * 4 + i], votes ? m : 0);
        }
        expect("skips: after", t, m2[t], all);
    }

    hipLaunchKernelGGL(early_return, dim3(1), dim3(block), 0, 0, m1, m2, m3);
    SAMPLE_CHECK(hipDeviceSynchronize());
    for (int t = 0; t < block; ++t) {
        const int lane = t % w;
        expect("early_return: in the helper", t, m1[t],
               lane % 5 == 1 ? 0 : lanes_where(w, [](int l, int) { return l % 5 != 1; }, 0));
        expect("early_return: after the helper", t, m2[t], all);
        if (lane <= w - 8) {
            mask_t m = 0;
            for (int l = 0; l <= w - 8; ++l) m |= mask_t(1) << l;
            expect("early_return: the lanes left", t, m3[t], m);
        }
    }

    hipLaunchKernelGGL(groups, dim3(1), dim3(block), 0, 0, i1, i2, i3);
    SAMPLE_CHECK(hipDeviceSynchronize());
    for (int t = 0; t < block; ++t) {
        const int lane = t % w, base = t - t % 16;
        expect("groups: tile sum", t, i1[t], 16 * base + 120);
        expect("groups: coalesced size", t, i2[t], lane % 4 == 1 ? w / 4 : -1);
        expect("groups: coalesced rank", t, i3[t], lane % 4 == 1 ? lane / 4 : -1);
    }

    hipLaunchKernelGGL(masked, dim3(1), dim3(block), 0, 0, i1);
    SAMPLE_CHECK(hipDeviceSynchronize());
    for (int t = 0; t < block; ++t)
        expect("masked: shfl_sync in a branch", t, i1[t], t % w < 16 ? (t - t % w + 3) * 10 : -1);

    for (void* p : {(void*)m1, (void*)m2, (void*)m3, (void*)i1, (void*)i2, (void*)i3, (void*)i4, (void*)d_in})
        SAMPLE_CHECK(hipFree(p));
    return sample_result("reconverge", errors);
}
