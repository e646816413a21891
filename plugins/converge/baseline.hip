// converge/baseline: the plain loop (seed 002's starting point). When the lanes of a wavefront
// disagree, it runs path T for some and path F for the others, one after the other, every
// iteration.
#include "common.h"

using namespace converge;

__global__ void converge_baseline(problem p)
{
    const uint32_t lane = blockIdx.x * blockDim.x + threadIdx.x;
    if (lane >= p.lanes) return;
    directions dir(p, lane);
    uint32_t fold = 0;
    for (uint32_t i = 0; i < p.iterations; ++i) {
        float v = cv::start(lane, i);
        if (dir.taken(i)) v = path_t(v, p.branch_len);
        else v = path_f(v, p.branch_len);
        fold += finish(v, p.nonbranch_len);
    }
    p.folds[lane] = fold;
}

static const wb::kernel baseline_k{"converge_baseline", converge_baseline, converge::block_size};

static void run(wb_args* a) { launch(baseline_k, a); }

WB_PLUGIN({.family = "converge",
           .variant = "baseline",
           .summary = "if/else inside the loop: a divergent wavefront runs both paths every iteration",
           .seed = "002: the unoptimized loop",
           .kernels = {baseline_k},
           .tunables = {converge::block_size},
           .run = run})
