// Pieces the conv plugins share.
#pragma once

#include "wavebench/families/conv.h"
#include "wavebench/plugin.h"

namespace common {

using wb::conv::m;
using wb::conv::n;

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
    return {wb::in<int>(a, 0), wb::in<int>(a, 1), wb::out<int>(a, 0), n(a), int(m(a))};
}

/// The seed's three kernels: one work-item per output, reading the input `in`.
using per_output = wb::kernel<const int*, const int*, int*, long long, int>;

inline void launch_per_output(wb::launch_site at, const per_output& k, const int* in)
{
    const problem p = of(at.args);
    k.launch_over(at, p.n, in, p.taps, p.out, p.n, p.m);
}

} // namespace common
