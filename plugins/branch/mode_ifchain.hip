// Seed 004's second case as written, extract_mode_index's 14-way if /
// else-if chain.
#include "common.h"

using namespace common;

__global__ void mode_ifchain(const uint32_t* in, uint32_t* out, long long n)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = uint32_t(wb::branch::mode_chain(in[i]));
}

static const auto kernel = WB_KERNEL(mode_ifchain, common::block_size);

static void prepare(wb_args* a) { require(a, "mode"); }
static void run(wb_args* a) { launch(kernel, a); }

WB_PLUGIN({.summary = "kernel = mode: extract_mode_index as a 14-way if / else-if chain",
           .seed = "004 case 2: if / else-if chain (BC6H extract_mode_index)",
           .kernels = {kernel},
           .tunables = {common::block_size},
           .prepare = prepare,
           .run = run})
