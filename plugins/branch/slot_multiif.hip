// branch/slot_multiif: seed 004's third rewrite, made correct. The slot is the number of bounds
// above the value: five independent compares added up, no branch. (The seed's own "multiple if"
// version chains its last three tests with else and disagrees below 0.866025;
// tests/plugins/branch/test_slot_seed_literal.hip keeps it, and verification fails it.)
#include "common.h"

using namespace branch;

__global__ void slot_multiif(const uint32_t* in, uint32_t* out, long long n)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float x = as_float(in[i]);
    uint32_t id = 0;
    if (x < br::slot_b4) ++id;
    if (x < br::slot_b3) ++id;
    if (x < br::slot_b2) ++id;
    if (x < br::slot_b1) ++id;
    if (x < br::slot_b0) ++id;
    out[i] = id;
}

static const wb::kernel slot_multiif_k{"slot_multiif", slot_multiif, branch::block_size};

static void prepare(wb_args* a) { require(a, "slot"); }
static void run(wb_args* a) { launch(slot_multiif_k, a); }

WB_PLUGIN({.family = "branch",
           .variant = "slot_multiif",
           .summary = "kernel = slot: five independent ifs counting the bounds above the value",
           .seed = "004 case 3, rewritten (correctly): multiple ifs instead of if / else-if",
           .kernels = {slot_multiif_k},
           .tunables = {branch::block_size},
           .prepare = prepare,
           .run = run})
