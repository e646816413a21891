// Loop postpone, majority first (seed 002). Each lane keeps its own
// next iteration. Every step the wavefront votes (ballot + popcount) and runs only the path most
// of its pending lanes want; the others keep their iteration for a later step. Every `relief`-th
// step the minority path runs instead, so that no lane starves.
#include "common.h"

using namespace common;

__global__ void converge_postpone_majority(problem p, int relief)
{
    const uint32_t lane = blockIdx.x * blockDim.x + threadIdx.x;
    directions dir(p, lane < p.lanes ? lane : 0);
    uint32_t i = lane < p.lanes ? 0 : p.iterations, fold = 0;
    for (int step = 1;; ++step) {
        const bool pending = i < p.iterations;
        const unsigned long long waiting = __ballot(pending);
        if (!waiting) break;
        const bool t = pending && dir.taken(i);
        const int nt = __popcll(__ballot(t)), nf = __popcll(waiting) - nt;
        bool run_t = nt >= nf;
        if (relief > 0 && step % relief == 0 && (run_t ? nf : nt) > 0) run_t = !run_t;
        if (pending && t == run_t) {
            float v = wb::converge::start(lane, i);
            if (run_t)
                v = path_t(v, p.branch_len); // the same for the whole wavefront
            else
                v = path_f(v, p.branch_len);
            fold += finish(v, p.nonbranch_len);
            ++i;
        }
    }
    if (lane < p.lanes) p.folds[lane] = fold;
}

static constexpr auto relief =
    wb::tunable::range("relief", 8, 0, 1 << 20, "every relief-th step runs the minority path (0: never)");
static const auto kernel = WB_KERNEL(converge_postpone_majority, common::block_size);

static void run(wb_args* a) { launch(kernel, a, int(relief(a))); }

WB_PLUGIN({.summary = "loop postpone: each step runs the path most pending lanes want; the minority every K steps",
           .seed = "002: loop postpone, majority first (__ballot, __popc)",
           .kernels = {kernel},
           .tunables = {common::block_size, relief},
           .run = run})
