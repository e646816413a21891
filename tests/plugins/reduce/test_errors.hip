// Test plugin: a HIP error inside run (a launch with an impossible block), a configuration it
// declines in prepare, and a message that is not UTF-8: all must reach the results.
#include "wavebench/plugin.h"

__global__ void nothing() {}

static constexpr auto mode = wb::tunable::one_of(
    "mode", 0, {0, 1, 2}, "0: fail in run, 1: skip in prepare, 2: fail with a message that is not UTF-8");
static constexpr auto block_size = wb::tunable::power_of_two("block_size", 128, 128, 128, "only 128");
static const wb::kernel nothing_k{"nothing", nothing, 4096}; // more work-items than any work-group holds

static void prepare(wb_args* a)
{
    if (mode(a) == 1) throw wb::skip("mode 1 is not supported by this test plugin");
}

static void run(wb_args* a)
{
    if (mode(a) == 2) throw std::runtime_error("caf\xe9: a message that is not UTF-8");
    nothing_k.launch(a, dim3(1));
}

WB_PLUGIN({.family = "reduce",
           .variant = "test_errors",
           .summary = "fails in run or declines in prepare",
           .seed = "none",
           .kernels = {nothing_k},
           .tunables = {mode, block_size},
           .prepare = prepare,
           .run = run})
