// Seed 003's rewrite, the four loads accumulated one by one with the comma
// operator, as the seed writes it (6 VGPRs and 10 waves per SIMD in the seed's compiler).
#include "common.h"

using namespace common;

__global__ void density_serial(problem p)
{
    const long long x_v = (long long)blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x_v >= p.out_width / 8) return;
    const long long a1 = y * p.width, a2 = a1 + p.dist, a3 = (y + p.dist) * p.width, a4 = a3 + p.dist;
    ushort8 sum = {};
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wself-assign-overloaded" // sum -= sum is the seed's own zeroing
#endif
    sum -= sum, sum += vload8(x_v, p.integral + a4), sum += vload8(x_v, p.integral + a1),
        sum -= vload8(x_v, p.integral + a2), sum -= vload8(x_v, p.integral + a3);
    store(p, y, x_v, sum);
}

static const auto kernel = WB_KERNEL(density_serial, common::block_size);

static void run(wb_args* a) { launch(kernel, a); }

WB_PLUGIN({.summary = "the four 8-wide loads accumulated one by one (comma operator)",
           .seed = "003: the rewrite (6 VGPRs, 10 waves per SIMD)",
           .kernels = {kernel},
           .tunables = {common::block_size},
           .run = run})
