// A block reduction whose last wavefront finishes without barriers, three ways:
//   legacy    the classic warp-synchronous tail: volatile shared memory and no barrier between
//             steps, relying on a wavefront's lanes running in lock-step. That is a race: it is
//             wrong on the cpu platform in every lane order, and on GPUs that schedule lanes
//             independently.
//   syncwarp  the same tail with __syncwarp() between the steps (what CUDA 9 asks for);
//   shuffle   the tail with __shfl_down.
// Usage: warp_sync [legacy|syncwarp|shuffle] (default: all three; the exit status says whether
// each one named verified).
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <cstring>
#include <string>
#include <vector>

constexpr int block_size = 256;

// The tail over the first 64 partial sums (32 on a 32-wide warp: the loop starts at warpSize).
__device__ void legacy_tail(volatile int* s, unsigned t)
{
    for (int offset = warpSize; offset > 0; offset /= 2) s[t] = s[t] + s[t + offset];
}

__device__ void syncwarp_tail(int* s, unsigned t)
{
    for (int offset = warpSize; offset > 0; offset /= 2) {
        const int v = s[t] + s[t + offset];
        __syncwarp();
        s[t] = v;
        __syncwarp();
    }
}

__device__ int shuffle_tail(int* s, unsigned t)
{
    int v = s[t] + s[t + warpSize];
    for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
    return v;
}

template <int MODE> __global__ void block_sums(const int* in, int* out)
{
    __shared__ int s[block_size];
    const unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * block_size + t];
    __syncthreads();
    for (unsigned half = block_size / 2; half > unsigned(warpSize); half /= 2) {
        if (t < half) s[t] += s[t + half];
        __syncthreads();
    }
    if (t < unsigned(warpSize)) {
        if (MODE == 0) legacy_tail(s, t);
        if (MODE == 1) syncwarp_tail(s, t);
        if (MODE == 2) s[t] = shuffle_tail(s, t);
        if (t == 0) out[blockIdx.x] = s[0];
    }
}

int main(int argc, char** argv)
{
    const char* names[] = {"legacy", "syncwarp", "shuffle"};
    const int blocks = 40, n = blocks * block_size;
    std::vector<int> x(n);
    for (int i = 0; i < n; ++i) x[i] = (i * 7) % 23 - 5;
    int *dx, *dout;
    SAMPLE_CHECK(hipMalloc(&dx, n * sizeof(int)));
    SAMPLE_CHECK(hipMalloc(&dout, blocks * sizeof(int)));
    SAMPLE_CHECK(hipMemcpy(dx, x.data(), n * sizeof(int), hipMemcpyHostToDevice));
    int status = 0;
    for (int mode = 0; mode < 3; ++mode) {
        if (argc > 1 && std::strcmp(argv[1], names[mode]) != 0) continue;
        if (mode == 0) block_sums<0><<<blocks, block_size>>>(dx, dout);
        if (mode == 1) block_sums<1><<<blocks, block_size>>>(dx, dout);
        if (mode == 2) block_sums<2><<<blocks, block_size>>>(dx, dout);
        SAMPLE_CHECK(hipGetLastError());
        std::vector<int> sums(blocks);
        SAMPLE_CHECK(hipMemcpy(sums.data(), dout, blocks * sizeof(int), hipMemcpyDeviceToHost));
        int errors = 0;
        for (int b = 0; b < blocks; ++b) {
            int want = 0;
            for (int i = 0; i < block_size; ++i) want += x[b * block_size + i];
            if (sums[b] != want) {
                if (errors == 0) std::printf("%s: block %d sums to %d, expected %d\n", names[mode], b, sums[b], want);
                ++errors;
            }
        }
        const std::string name = std::string("warp_sync ") + names[mode];
        status |= sample_result(name.c_str(), errors);
    }
    SAMPLE_CHECK(hipFree(dx));
    SAMPLE_CHECK(hipFree(dout));
    return status;
}
