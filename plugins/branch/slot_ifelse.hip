// Seed 004's third case as written, calSlotIdInQuadrant6 as an if / else-if
// chain over five bounds.
#include "common.h"

using namespace common;

__global__ void slot_ifelse(const uint32_t* in, uint32_t* out, long long n)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = wb::branch::slot_chain(as_float(in[i]));
}

static const auto kernel = WB_KERNEL(slot_ifelse, common::block_size);

static void prepare(wb_args* a) { require(a, "slot"); }
static void run(wb_args* a) { launch(kernel, a); }

WB_PLUGIN({.summary = "kernel = slot: calSlotIdInQuadrant6 as an if / else-if chain",
           .seed = "004 case 3: if / else-if chain",
           .kernels = {kernel},
           .tunables = {common::block_size},
           .prepare = prepare,
           .run = run})
