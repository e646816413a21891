// Seed 003's kernel as first written, A4 + A1 - A2 - A3 in one
// expression of four vload8s (41 VGPRs and 5 waves per SIMD in the seed's compiler).
#include "common.h"

using namespace common;

__global__ void density_expression(problem p)
{
    const long long x_v = (long long)blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x_v >= p.out_width / 8) return;
    const long long a1 = y * p.width, a2 = a1 + p.dist, a3 = (y + p.dist) * p.width, a4 = a3 + p.dist;
    const ushort8 sum = vload8(x_v, p.integral + a4) + vload8(x_v, p.integral + a1) - vload8(x_v, p.integral + a2) -
                        vload8(x_v, p.integral + a3);
    store(p, y, x_v, sum);
}

static const auto kernel = WB_KERNEL(density_expression, common::block_size);

static void run(wb_args* a) { launch(kernel, a); }

WB_PLUGIN({.summary = "A4 + A1 - A2 - A3 of four 8-wide loads in one expression",
           .seed = "003: the kernel as first written (41 VGPRs, 5 waves per SIMD)",
           .kernels = {kernel},
           .tunables = {common::block_size},
           .run = run})
