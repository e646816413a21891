// Seed 004's first case as written. Both branches call the same long function
// with two arguments swapped, so a wavefront whose elements disagree runs it twice.
#include "common.h"

using namespace common;

__global__ void call_ifelse(const uint32_t* in, uint32_t* out, long long n)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const uint32_t* e = in + 4 * i;
    const float a = as_float(e[0]), b = as_float(e[1]), x = as_float(e[2]), y = as_float(e[3] & ~1u);
    float r;
    if (e[3] & 1)
        r = wb::branch::long_function(a, b, y, x);
    else
        r = wb::branch::long_function(a, b, x, y);
    out[i] = __float_as_uint(r);
}

static const auto kernel = WB_KERNEL(call_ifelse, common::block_size);

static void prepare(wb_args* a) { require(a, "call"); }
static void run(wb_args* a) { launch(kernel, a); }

WB_PLUGIN({.summary = "kernel = call: if/else, each branch calling the long function (arguments swapped)",
           .seed = "004 case 1: if-else calling one function with different arguments",
           .kernels = {kernel},
           .tunables = {common::block_size},
           .prepare = prepare,
           .run = run})
