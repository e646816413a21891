// Pieces the conv plugins share.
#pragma once

#include "wavebench/plugin.h"

namespace conv {

inline const wb_tunable block_size = wb::tunable_pow2("block_size", 256, 32, 1024, "work-items per work-group");

/// The problem as the plugins see it.
struct problem {
    const int* in;
    const int* taps;
    int* out;
    long long n;
    int m;
};

inline problem of(const wb_args* a)
{
    return {wb::in<int>(a, 0), wb::in<int>(a, 1), wb::out<int>(a, 0), wb::param(a, "n"), int(wb::param(a, "m"))};
}

/// One work-item per output: the launch of the seed's three kernels.
template <class K> void launch_per_output(wb_args* a, K kernel, const int* in)
{
    const problem p = of(a);
    const long long block = wb::param(a, "block_size");
    if (p.n == 0) return;
    hipLaunchKernelGGL(kernel, dim3(unsigned(wb::ceil_div(p.n, block))), dim3(unsigned(block)), 0, wb::stream(a), in,
                       p.taps, p.out, p.n, p.m);
    HIP_CHECK(hipGetLastError());
}

} // namespace conv
