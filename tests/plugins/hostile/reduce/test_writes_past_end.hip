// Test plugin: the right sum, then eight ints past the end of its one-int output. The harness's
// guard after each output must catch it ('failed', stage verify), whatever lies beyond.
#include "wavebench/families/reduce.h"
#include "wavebench/plugin.h"

__global__ void sum_and_overrun(const int* in, int* out, size_t n)
{
    int s = 0;
    for (size_t i = 0; i < n; ++i) s += in[i];
    out[0] = s;
    for (int i = 1; i <= 8; ++i) out[i] = s;
}

static const wb::kernel sum_and_overrun_k{"sum_and_overrun", sum_and_overrun, 1};

static void run(wb_args* a)
{
    sum_and_overrun_k.launch(a, dim3(1), wb::in<int>(a, 0), wb::out<int>(a, 0), size_t(wb::reduce::n(a)));
}

WB_PLUGIN({.family = "reduce",
           .variant = "test_writes_past_end",
           .summary = "writes past the end of its output (the harness must catch it)",
           .seed = "none",
           .kernels = {sum_and_overrun_k},
           .run = run})
