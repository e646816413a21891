// Test plugin: correct on its first run, silent afterwards. Only a check of every run, with a
// fresh poison each time, catches it.
#include "wavebench/plugin.h"

__global__ void serial_sum(const int* in, int* out, size_t n)
{
    int s = 0;
    for (size_t i = 0; i < n; ++i) s += in[i];
    *out = s;
}

static int runs = 0;

static void prepare(wb_args*) { runs = 0; }

static void run(wb_args* a)
{
    if (runs++ > 0) return;
    hipLaunchKernelGGL(serial_sum, dim3(1), dim3(1), 0, wb::stream(a), wb::in<int>(a, 0), wb::out<int>(a, 0),
                       size_t(wb::param(a, "n")));
    HIP_CHECK(hipGetLastError());
}

static const wb_kernel kernels[] = {wb::kernel("serial_sum", serial_sum, 1)};

WB_PLUGIN({.family = "reduce",
           .variant = "test_first_run_only",
           .summary = "correct once, then writes nothing (verification of every run must catch it)",
           .seed = "none",
           .kernels = kernels,
           .tunables = {},
           .prepare = prepare,
           .run = run})
