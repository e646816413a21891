// branch/slot_ifelse: seed 004's third case as written, calSlotIdInQuadrant6 as an if / else-if
// chain over five bounds.
#include "common.h"

using namespace branch;

__global__ void slot_ifelse(const uint32_t* in, uint32_t* out, long long n)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = br::slot_chain(as_float(in[i]));
}

static const wb::kernel slot_ifelse_k{"slot_ifelse", slot_ifelse, branch::block_size};

static void prepare(wb_args* a) { require(a, "slot"); }
static void run(wb_args* a) { launch(slot_ifelse_k, a); }

WB_PLUGIN({.family = "branch",
           .variant = "slot_ifelse",
           .summary = "kernel = slot: calSlotIdInQuadrant6 as an if / else-if chain",
           .seed = "004 case 3: if / else-if chain",
           .kernels = {slot_ifelse_k},
           .tunables = {branch::block_size},
           .prepare = prepare,
           .run = run})
