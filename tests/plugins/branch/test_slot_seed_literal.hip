// Test plugin: seed 004's "multiple if" rewrite of calSlotIdInQuadrant6, transcribed literally.
// Its last three tests are chained with else, so below 0.866025 it answers differently from the
// original (0.1: 3 instead of 5; 0.6: 1 instead of 3). Verification must fail it.
#include "../../../plugins/branch/common.h"

using namespace common;

__global__ void slot_seed_literal(const uint32_t* in, uint32_t* out, long long n)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float x = as_float(in[i]);
    uint32_t id = 0;
    if (x < wb::branch::slot_b4) id++;
    if (x < wb::branch::slot_b3) id++;
    if (x < wb::branch::slot_b2)
        id++;
    else if (x < wb::branch::slot_b1)
        id++;
    else if (x < wb::branch::slot_b0)
        id++;
    out[i] = id;
}

static const wb::kernel slot_seed_literal_k{"slot_seed_literal", slot_seed_literal, common::block_size};

static void prepare(wb_args* a) { require(a, "slot"); }
static void run(wb_args* a) { launch(slot_seed_literal_k, a); }

WB_PLUGIN({.family = "branch",
           .variant = "test_slot_seed_literal",
           .summary = "kernel = slot: the seed's own multiple-if rewrite, which is wrong below 0.866025",
           .seed = "004 case 3, rewritten as the seed prints it",
           .kernels = {slot_seed_literal_k},
           .tunables = {common::block_size},
           .prepare = prepare,
           .run = run})
