// Test plugin: a correct sum plus one. Verification must fail, naming the element.
#include "wavebench/plugin.h"

__global__ void sum_plus_one(const int* in, int* out, size_t n)
{
    int s = 1;
    for (size_t i = 0; i < n; ++i) s += in[i];
    *out = s;
}

static void run(wb_args* a)
{
    hipLaunchKernelGGL(sum_plus_one, dim3(1), dim3(1), 0, wb::stream(a), wb::in<int>(a, 0), wb::out<int>(a, 0),
                       size_t(wb::param(a, "n")));
    HIP_CHECK(hipGetLastError());
}

static const wb_kernel kernels[] = {wb::kernel("sum_plus_one", sum_plus_one, 1)};

WB_PLUGIN({.family = "reduce",
           .variant = "test_off_by_one",
           .summary = "the sum plus one (verification must catch it)",
           .seed = "none",
           .kernels = kernels,
           .tunables = {},
           .run = run})
