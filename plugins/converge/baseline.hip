// The plain loop (seed 002's starting point). When the lanes of a wavefront
// disagree, it runs path T for some and path F for the others, one after the other, every
// iteration.
#include "common.h"

using namespace common;

__global__ void converge_baseline(problem p)
{
    const uint32_t lane = blockIdx.x * blockDim.x + threadIdx.x;
    if (lane >= p.lanes) return;
    directions dir(p, lane);
    uint32_t fold = 0;
    for (uint32_t i = 0; i < p.iterations; ++i) {
        float v = wb::converge::start(lane, i);
        if (dir.taken(i))
            v = path_t(v, p.branch_len);
        else
            v = path_f(v, p.branch_len);
        fold += finish(v, p.nonbranch_len);
    }
    p.folds[lane] = fold;
}

static const auto kernel = WB_KERNEL(converge_baseline, common::block_size);

static void run(wb_args* a) { launch(kernel, a); }

WB_PLUGIN({.summary = "if/else inside the loop: a divergent wavefront runs both paths every iteration",
           .seed = "002: the unoptimized loop",
           .kernels = {kernel},
           .tunables = {common::block_size},
           .run = run})
