// Test plugin: a correct reduction whose wavefronts vote with half their lanes first (the even
// ones, in a divergent branch), then add with all of them: the cpu runtime's counters must see
// half the lanes at the one collective and all of them at the other (tests/counters_test.py).
// Its blocks are 256 lanes, whole wavefronts at both widths.
#include "wavebench/plugin.h"

#include "wavebench/families/reduce.h"

__global__ void half_vote(const int* in, int* sum, int64_t n)
{
    const int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const int v = i < n ? in[i] : 0;
    int evens = 0;
    if (threadIdx.x % 2 == 0) evens = __popcll(__ballot(1)); // the even lanes only
    __syncthreads();                                         // every lane meets here...
    const int all = __popcll(__ballot(1));                   // ...and votes
    if (evens > 0 && 2 * evens != all) atomicAdd(sum, 1);    // never: the sum would be wrong
    atomicAdd(sum, v);
}

static const wb::kernel half_vote_k{"half_vote", half_vote, 256};

static void run(wb_args* a)
{
    const int64_t n = wb::reduce::n(a);
    int* sum = wb::out<int>(a, 0);
    HIP_CHECK(hipMemsetAsync(sum, 0, sizeof(int), wb::stream(a)));
    half_vote_k.launch_over(a, n, wb::in<int>(a, 0), sum, n);
}

WB_PLUGIN({.family = "reduce",
           .variant = "test_half_vote",
           .summary = "votes with half the lanes of each wavefront, then with all (counters' test)",
           .seed = "none",
           .kernels = {half_vote_k},
           .run = run})
