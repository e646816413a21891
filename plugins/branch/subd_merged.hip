// Seed 004's fourth rewrite. The switch only maps the case to (function t1,
// argument t2); then each of the three functions is called at most once, by the elements that
// need it.
#include "common.h"

using namespace common;

__global__ void subd_merged(const uint32_t* in, uint32_t* out, long long n)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const uint32_t* e = in + 4 * i;
    const float p0 = as_float(e[1]), p1 = as_float(e[2]), p2 = as_float(e[3]);
    uint32_t t1 = 0, t2 = 0;
    switch (e[0] & 15) {
    case 5:
        t1 = 0, t2 = 0;
        break;
    case 6:
        t1 = 0, t2 = 1;
        break;
    case 10:
        t1 = 0, t2 = 2;
        break;
    case 9:
        t1 = 0, t2 = 3;
        break;
    case 0:
        t1 = 1, t2 = 0;
        break;
    case 3:
        t1 = 1, t2 = 1;
        break;
    case 15:
        t1 = 1, t2 = 2;
        break;
    case 12:
        t1 = 1, t2 = 3;
        break;
    case 1:
        t1 = 2, t2 = 0;
        break;
    case 2:
        t1 = 2, t2 = 1;
        break;
    case 13:
        t1 = 2, t2 = 2;
        break;
    case 14:
        t1 = 2, t2 = 3;
        break;
    case 4:
        t1 = 2, t2 = 4;
        break;
    case 8:
        t1 = 2, t2 = 5;
        break;
    case 7:
        t1 = 2, t2 = 6;
        break;
    case 11:
        t1 = 2, t2 = 7;
        break;
    }
    float v = 0;
    if (t1 == 0) v = wb::branch::interior(t2, p0, p1, p2);
    if (t1 == 1) v = wb::branch::corner(t2, p0, p1, p2);
    if (t1 == 2) v = wb::branch::edge(t2, p0, p1, p2);
    out[i] = __float_as_uint(v);
}

static const auto kernel = WB_KERNEL(subd_merged, common::block_size);

static void prepare(wb_args* a) { require(a, "subd"); }
static void run(wb_args* a) { launch(kernel, a); }

WB_PLUGIN({.summary = "kernel = subd: the switch picks (function, argument); each function called at most once",
           .seed = "004 case 4, rewritten: the 16 cases merged into three calls",
           .kernels = {kernel},
           .tunables = {common::block_size},
           .prepare = prepare,
           .run = run})
