// Loop postpone, round robin (seed 002). The wavefront runs path F,
// then T, then F... one per step; the lanes that want the other path keep their iteration for a
// later step. When no pending lane wants the path whose turn it is, it switches at once (the
// seed's "empty load").
#include "common.h"

using namespace common;

__global__ void converge_postpone_roundrobin(problem p)
{
    const uint32_t lane = blockIdx.x * blockDim.x + threadIdx.x;
    directions dir(p, lane < p.lanes ? lane : 0);
    uint32_t i = lane < p.lanes ? 0 : p.iterations, fold = 0;
    bool want_t = false; // F first, as the seed's Fig. 1c
    while (__any(i < p.iterations)) {
        const bool pending = i < p.iterations, t = pending && dir.taken(i);
        if (!__any(pending && t == want_t)) want_t = !want_t;
        if (pending && t == want_t) {
            float v = wb::converge::start(lane, i);
            if (want_t)
                v = path_t(v, p.branch_len); // the same for the whole wavefront
            else
                v = path_f(v, p.branch_len);
            fold += finish(v, p.nonbranch_len);
            ++i;
        }
        want_t = !want_t;
    }
    if (lane < p.lanes) p.folds[lane] = fold;
}

static const auto kernel = WB_KERNEL(converge_postpone_roundrobin, common::block_size);

static void run(wb_args* a) { launch(kernel, a); }

WB_PLUGIN({.summary = "loop postpone: paths take turns a step each; a path nobody wants is skipped",
           .seed = "002: loop postpone, round robin (__any, __all)",
           .kernels = {kernel},
           .tunables = {common::block_size},
           .run = run})
