// Seed 004's third rewrite, made correct. The slot is the number of bounds
// above the value: five independent compares added up, no branch. (The seed's own "multiple if"
// version chains its last three tests with else and disagrees below 0.866025;
// tests/plugins/branch/test_slot_seed_literal.hip keeps it, and verification fails it.)
#include "common.h"

using namespace common;

__global__ void slot_multiif(const uint32_t* in, uint32_t* out, long long n)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float x = as_float(in[i]);
    uint32_t id = 0;
    if (x < wb::branch::slot_b4) ++id;
    if (x < wb::branch::slot_b3) ++id;
    if (x < wb::branch::slot_b2) ++id;
    if (x < wb::branch::slot_b1) ++id;
    if (x < wb::branch::slot_b0) ++id;
    out[i] = id;
}

static const auto kernel = WB_KERNEL(slot_multiif, common::block_size);

static void prepare(wb_args* a) { require(a, "slot"); }
static void run(wb_args* a) { launch(kernel, a); }

WB_PLUGIN({.summary = "kernel = slot: five independent ifs counting the bounds above the value",
           .seed = "004 case 3, rewritten (correctly): multiple ifs instead of if / else-if",
           .kernels = {kernel},
           .tunables = {common::block_size},
           .prepare = prepare,
           .run = run})
