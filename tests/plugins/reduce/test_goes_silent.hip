// Test plugin: correct on its first `correct_runs` runs, silent afterwards. Only checks after the
// first run, each from a fresh poison, catch it.
#include "wavebench/plugin.h"

__global__ void serial_sum(const int* in, int* out, size_t n)
{
    int s = 0;
    for (size_t i = 0; i < n; ++i) s += in[i];
    *out = s;
}

static int64_t runs = 0;

static void prepare(wb_args*) { runs = 0; }

static void run(wb_args* a)
{
    if (runs++ >= wb::param(a, "correct_runs")) return;
    hipLaunchKernelGGL(serial_sum, dim3(1), dim3(1), 0, wb::stream(a), wb::in<int>(a, 0), wb::out<int>(a, 0),
                       size_t(wb::param(a, "n")));
    HIP_CHECK(hipGetLastError());
}

static const wb_kernel kernels[] = {wb::kernel("serial_sum", serial_sum, 1)};
static const wb_tunable tunables[] = {{"correct_runs", 1, nullptr, 0, 1, 1000, 0, "runs done right before going silent"}};

WB_PLUGIN({.family = "reduce",
           .variant = "test_goes_silent",
           .summary = "correct for a few runs, then writes nothing (later runs must be checked too)",
           .seed = "none",
           .kernels = kernels,
           .tunables = tunables,
           .prepare = prepare,
           .run = run})
