// Test plugin: a HIP error inside run (a launch with an impossible block), a configuration it
// declines in prepare, and a message that is not UTF-8: all must reach the results.
#include "wavebench/plugin.h"

__global__ void nothing() {}

static void prepare(wb_args* a)
{
    if (wb::param(a, "mode") == 1) throw wb::skip("mode 1 is not supported by this test plugin");
}

static void run(wb_args* a)
{
    if (wb::param(a, "mode") == 2) throw std::runtime_error("caf\xe9: a message that is not UTF-8");
    hipLaunchKernelGGL(nothing, dim3(1), dim3(4096), 0, wb::stream(a));
    HIP_CHECK(hipGetLastError());
}

static const wb_kernel kernels[] = {wb::kernel("nothing", nothing, 1)};
static const int64_t modes[] = {0, 1, 2};
static const wb_tunable tunables[] = {{"mode", 0, modes, 3, 0, 0, 0,
                                       "0: fail in run, 1: skip in prepare, 2: fail with a message that is not UTF-8"},
                                      wb::tunable_pow2("block_size", 128, 128, 128, "only 128")};

WB_PLUGIN({.family = "reduce",
           .variant = "test_errors",
           .summary = "fails in run or declines in prepare",
           .seed = "none",
           .kernels = kernels,
           .tunables = tunables,
           .prepare = prepare,
           .run = run})
