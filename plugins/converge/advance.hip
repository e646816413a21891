// Loop advance (seed 002). Each lane looks at its iterations i and i + 1; when
// they take different paths it runs both in one step, lined up with the other lanes: the T path
// (of i, mode 2, or of i + 1 advanced, mode 1) in the wavefront's T slot, then the F path in its
// F slot, and moves on by two. Otherwise (mode 0) it runs iteration i in its slot and moves on by
// one. The non-branch work moves into both paths (the seed's condition 3).
#include "common.h"

using namespace common;

__global__ void converge_advance(problem p)
{
    const uint32_t lane = blockIdx.x * blockDim.x + threadIdx.x;
    directions dir(p, lane < p.lanes ? lane : 0);
    uint32_t i = lane < p.lanes ? 0 : p.iterations, fold = 0;
    while (__any(i < p.iterations)) {
        bool do_t = false, do_f = false;
        uint32_t it_t = i, it_f = i, next = i;
        if (i < p.iterations) {
            const bool t0 = dir.taken(i);
            if (i + 1 < p.iterations && dir.taken(i + 1) != t0) { // modes 1 and 2
                do_t = do_f = true;
                it_t = t0 ? i : i + 1;
                it_f = t0 ? i + 1 : i;
                next = i + 2;
            } else { // mode 0
                do_t = t0;
                do_f = !t0;
                next = i + 1;
            }
        }
        if (do_t) fold += finish(path_t(wb::converge::start(lane, it_t), p.branch_len), p.nonbranch_len);
        if (do_f) fold += finish(path_f(wb::converge::start(lane, it_f), p.branch_len), p.nonbranch_len);
        i = next;
    }
    if (lane < p.lanes) p.folds[lane] = fold;
}

static const auto kernel = WB_KERNEL(converge_advance, common::block_size);

static void run(wb_args* a) { launch(kernel, a); }

WB_PLUGIN({.summary = "loop advance: iterations i and i+1 on different paths run in one step, T slot then F slot",
           .seed = "002: loop advance, modes 0/1/2",
           .kernels = {kernel},
           .tunables = {common::block_size},
           .run = run})
