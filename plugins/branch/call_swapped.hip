// Seed 004's first rewrite. The branch only swaps the two arguments; the
// long function is called once, by every element together.
#include "common.h"

using namespace common;

__global__ void call_swapped(const uint32_t* in, uint32_t* out, long long n)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const uint32_t* e = in + 4 * i;
    float x = as_float(e[2]), y = as_float(e[3] & ~1u);
    if (e[3] & 1) {
        const float t = x;
        x = y;
        y = t;
    }
    out[i] = __float_as_uint(wb::branch::long_function(as_float(e[0]), as_float(e[1]), x, y));
}

static const auto kernel = WB_KERNEL(call_swapped, common::block_size);

static void prepare(wb_args* a) { require(a, "call"); }
static void run(wb_args* a) { launch(kernel, a); }

WB_PLUGIN({.summary = "kernel = call: swap the arguments first, call the long function once",
           .seed = "004 case 1, rewritten: rename the parameters, one call outside the if",
           .kernels = {kernel},
           .tunables = {common::block_size},
           .prepare = prepare,
           .run = run})
