// Seed 004's fourth case as written (SubD11's SubDToBezierHS4444): a 16-case
// switch, each case calling one of three functions with its own constant argument. A wavefront
// whose elements hit different cases runs every case they hit.
#include "common.h"

using namespace common;

__global__ void subd_switch(const uint32_t* in, uint32_t* out, long long n)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const uint32_t* e = in + 4 * i;
    const float p0 = as_float(e[1]), p1 = as_float(e[2]), p2 = as_float(e[3]);
    float v = 0;
    switch (e[0] & 15) {
    case 5:
        v = wb::branch::interior(0, p0, p1, p2);
        break; // interior vertices
    case 6:
        v = wb::branch::interior(1, p0, p1, p2);
        break;
    case 10:
        v = wb::branch::interior(2, p0, p1, p2);
        break;
    case 9:
        v = wb::branch::interior(3, p0, p1, p2);
        break;
    case 0:
        v = wb::branch::corner(0, p0, p1, p2);
        break; // corner vertices
    case 3:
        v = wb::branch::corner(1, p0, p1, p2);
        break;
    case 15:
        v = wb::branch::corner(2, p0, p1, p2);
        break;
    case 12:
        v = wb::branch::corner(3, p0, p1, p2);
        break;
    case 1:
        v = wb::branch::edge(0, p0, p1, p2);
        break; // edge vertices
    case 2:
        v = wb::branch::edge(1, p0, p1, p2);
        break;
    case 13:
        v = wb::branch::edge(2, p0, p1, p2);
        break;
    case 14:
        v = wb::branch::edge(3, p0, p1, p2);
        break;
    case 4:
        v = wb::branch::edge(4, p0, p1, p2);
        break;
    case 8:
        v = wb::branch::edge(5, p0, p1, p2);
        break;
    case 7:
        v = wb::branch::edge(6, p0, p1, p2);
        break;
    case 11:
        v = wb::branch::edge(7, p0, p1, p2);
        break;
    }
    out[i] = __float_as_uint(v);
}

static const auto kernel = WB_KERNEL(subd_switch, common::block_size);

static void prepare(wb_args* a) { require(a, "subd"); }
static void run(wb_args* a) { launch(kernel, a); }

WB_PLUGIN({.summary = "kernel = subd: a 16-case switch, each case calling one of three functions",
           .seed = "004 case 4: switch-case (SubD11 SubDToBezierHS4444)",
           .kernels = {kernel},
           .tunables = {common::block_size},
           .prepare = prepare,
           .run = run})
