// branch/call_ifelse: seed 004's first case as written. Both branches call the same long function
// with two arguments swapped, so a wavefront whose elements disagree runs it twice.
#include "common.h"

using namespace branch;

__global__ void call_ifelse(const uint32_t* in, uint32_t* out, long long n)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const uint32_t* e = in + 4 * i;
    const float a = as_float(e[0]), b = as_float(e[1]), x = as_float(e[2]), y = as_float(e[3] & ~1u);
    float r;
    if (e[3] & 1) r = br::long_function(a, b, y, x);
    else r = br::long_function(a, b, x, y);
    out[i] = __float_as_uint(r);
}

static const wb::kernel call_ifelse_k{"call_ifelse", call_ifelse, branch::block_size};

static void prepare(wb_args* a) { require(a, "call"); }
static void run(wb_args* a) { launch(call_ifelse_k, a); }

WB_PLUGIN({.family = "branch",
           .variant = "call_ifelse",
           .summary = "kernel = call: if/else, each branch calling the long function (arguments swapped)",
           .seed = "004 case 1: if-else calling one function with different arguments",
           .kernels = {call_ifelse_k},
           .tunables = {branch::block_size},
           .prepare = prepare,
           .run = run})
