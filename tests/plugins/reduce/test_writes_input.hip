// Test plugin: a correct sum, but it then overwrites an input element (an in-place reduction
// would). The harness must fail it, and keep the next plugin's inputs intact.
#include "wavebench/plugin.h"

__global__ void sum_then_scribble(int* in, int* out, size_t n)
{
    int s = 0;
    for (size_t i = 0; i < n; ++i) s += in[i];
    *out = s;
    if (n > 0) in[0] = s;
}

static void run(wb_args* a)
{
    hipLaunchKernelGGL(sum_then_scribble, dim3(1), dim3(1), 0, wb::stream(a), const_cast<int*>(wb::in<int>(a, 0)),
                       wb::out<int>(a, 0), size_t(wb::param(a, "n")));
    HIP_CHECK(hipGetLastError());
}

static const wb_kernel kernels[] = {wb::kernel("sum_then_scribble", sum_then_scribble, 1)};

WB_PLUGIN({.family = "reduce",
           .variant = "test_writes_input",
           .summary = "writes into its input (the harness must catch it)",
           .seed = "none",
           .kernels = kernels,
           .tunables = {},
           .run = run})
