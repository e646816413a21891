// Cooperative groups as GPU code uses them: the block and its sync, static tiles with their
// shuffles and votes, a dynamic tile, the coalesced lanes of a branch, and a grid-wide sync in a
// cooperative launch sized from the occupancy API.
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <vector>

namespace cg = cooperative_groups;

// Each 16-lane tile sums its values with shuffles; tile rank 0 writes the sum. Also the tile's
// votes: how many lanes hold an odd value, whether any or all do.
__global__ void tile_sums(const int* in, int* sums, int* odd_counts, int* any_all)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    const int v = in[blockIdx.x * blockDim.x + block.thread_rank()];
    int sum = v;
    for (int offset = tile.size() / 2; offset > 0; offset /= 2) sum += tile.shfl_down(sum, offset);
    const unsigned long long odd = tile.ballot(v & 1);
    const int any = tile.any(v > 1000), all = tile.all(v >= 0);
    const int slot = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
    if (tile.thread_rank() == 0) {
        sums[slot] = sum;
        odd_counts[slot] = __popcll(odd);
        any_all[slot] = any * 2 + all;
    }
    block.sync();
}

// Lanes that take the branch form a coalesced group; each counts its rank among them.
__global__ void coalesced_ranks(const int* in, int* rank_out, int* size_out)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    rank_out[i] = -1;
    size_out[i] = -1;
    if (in[i] % 3 == 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        rank_out[i] = int(active.thread_rank());
        size_out[i] = int(active.size());
    }
}

// A dynamic tile of 8 (HIP's runtime-sized tiled_partition): its rank and a sync.
__global__ void dynamic_tiles(int* ranks)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group tile = cg::tiled_partition(block, 8);
    ranks[blockIdx.x * blockDim.x + threadIdx.x] = int(tile.thread_rank());
    tile.sync();
}

// Two phases over the whole grid with a grid-wide barrier between them: every block first writes
// its slice, then reads a slice another block wrote.
__global__ void grid_phases(int* data, int* out, int n)
{
    cg::grid_group grid = cg::this_grid();
    for (int i = int(grid.thread_rank()); i < n; i += int(grid.size())) data[i] = i * 2;
    grid.sync();
    for (int i = int(grid.thread_rank()); i < n; i += int(grid.size())) out[i] = data[n - 1 - i];
}

int main()
{
    int errors = 0;
    const int blocks = 6, threads = 128, n = blocks * threads;
    std::vector<int> x(n);
    for (int i = 0; i < n; ++i) x[i] = (i * 37) % 101;
    int *dx, *sums, *odd, *any_all, *ranks, *sizes;
    const int tiles = n / 16;
    SAMPLE_CHECK(hipMalloc(&dx, n * sizeof(int)));
    SAMPLE_CHECK(hipMalloc(&sums, tiles * sizeof(int)));
    SAMPLE_CHECK(hipMalloc(&odd, tiles * sizeof(int)));
    SAMPLE_CHECK(hipMalloc(&any_all, tiles * sizeof(int)));
    SAMPLE_CHECK(hipMalloc(&ranks, n * sizeof(int)));
    SAMPLE_CHECK(hipMalloc(&sizes, n * sizeof(int)));
    SAMPLE_CHECK(hipMemcpy(dx, x.data(), n * sizeof(int), hipMemcpyHostToDevice));

    tile_sums<<<blocks, threads>>>(dx, sums, odd, any_all);
    SAMPLE_CHECK(hipGetLastError());
    std::vector<int> hs(tiles), ho(tiles), ha(tiles);
    SAMPLE_CHECK(hipMemcpy(hs.data(), sums, tiles * sizeof(int), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipMemcpy(ho.data(), odd, tiles * sizeof(int), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipMemcpy(ha.data(), any_all, tiles * sizeof(int), hipMemcpyDeviceToHost));
    for (int t = 0; t < tiles; ++t) {
        int sum = 0, odds = 0;
        for (int j = 0; j < 16; ++j) {
            sum += x[t * 16 + j];
            odds += x[t * 16 + j] & 1;
        }
        if (hs[t] != sum || ho[t] != odds || ha[t] != 1) ++errors;
    }

    // The lanes of a wavefront that take the branch: ranks 0, 1, ... in lane order.
    int warp = 0;
    SAMPLE_CHECK(hipDeviceGetAttribute(&warp, hipDeviceAttributeWarpSize, 0));
    coalesced_ranks<<<blocks, threads>>>(dx, ranks, sizes);
    std::vector<int> hr(n), hz(n);
    SAMPLE_CHECK(hipMemcpy(hr.data(), ranks, n * sizeof(int), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipMemcpy(hz.data(), sizes, n * sizeof(int), hipMemcpyDeviceToHost));
    for (int w = 0; w < n; w += warp) {
        int taken = 0;
        for (int i = w; i < w + warp; ++i) taken += x[i] % 3 == 0;
        for (int i = w, r = 0; i < w + warp; ++i) {
            const bool in_branch = x[i] % 3 == 0;
            if (hr[i] != (in_branch ? r : -1) || hz[i] != (in_branch ? taken : -1)) ++errors;
            r += in_branch;
        }
    }

    dynamic_tiles<<<blocks, threads>>>(ranks);
    SAMPLE_CHECK(hipMemcpy(hr.data(), ranks, n * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (hr[i] != (i % threads) % 8) ++errors;

    // A cooperative launch: as many blocks as can be resident at once, at most 4.
    hipDeviceProp_t prop;
    SAMPLE_CHECK(hipGetDeviceProperties(&prop, 0));
    int per_multiprocessor = 0;
    SAMPLE_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, grid_phases, threads, 0));
    int grid_blocks = per_multiprocessor * prop.multiProcessorCount;
    grid_blocks = grid_blocks < 4 ? grid_blocks : 4;
    if (!prop.cooperativeLaunch || grid_blocks < 1) {
        std::printf("cooperative launch not supported\n");
        ++errors;
    } else {
        const int m = 10007;
        int *data, *out;
        SAMPLE_CHECK(hipMalloc(&data, m * sizeof(int)));
        SAMPLE_CHECK(hipMalloc(&out, m * sizeof(int)));
        int count = m;
        void* args[] = {&data, &out, &count};
        SAMPLE_CHECK(hipLaunchCooperativeKernel(grid_phases, dim3(grid_blocks), dim3(threads), args, 0, 0));
        std::vector<int> ho2(m);
        SAMPLE_CHECK(hipMemcpy(ho2.data(), out, m * sizeof(int), hipMemcpyDeviceToHost));
        for (int i = 0; i < m; ++i)
            if (ho2[i] != (m - 1 - i) * 2) ++errors;
        SAMPLE_CHECK(hipFree(data));
        SAMPLE_CHECK(hipFree(out));
    }

    SAMPLE_CHECK(hipFree(dx));
    SAMPLE_CHECK(hipFree(sums));
    SAMPLE_CHECK(hipFree(odd));
    SAMPLE_CHECK(hipFree(any_all));
    SAMPLE_CHECK(hipFree(ranks));
    SAMPLE_CHECK(hipFree(sizes));
    return sample_result("cooperative_groups", errors);
}
