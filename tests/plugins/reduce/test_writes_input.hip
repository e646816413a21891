// Test plugin: a correct sum, but it then overwrites an input element (an in-place reduction
// would). The harness must fail it, and keep the next plugin's inputs intact.
#include "wavebench/families/reduce.h"
#include "wavebench/plugin.h"

__global__ void sum_then_scribble(int* in, int* out, size_t n)
{
    int s = 0;
    for (size_t i = 0; i < n; ++i) s += in[i];
    *out = s;
    if (n > 0) in[0] = s;
}

static const wb::kernel sum_then_scribble_k{"sum_then_scribble", sum_then_scribble, 1};

static void run(wb_args* a)
{
    sum_then_scribble_k.launch(a, dim3(1), const_cast<int*>(wb::in<int>(a, 0)), wb::out<int>(a, 0),
                               size_t(wb::reduce::n(a)));
}

WB_PLUGIN({.family = "reduce",
           .variant = "test_writes_input",
           .summary = "writes into its input (the harness must catch it)",
           .seed = "none",
           .kernels = {sum_then_scribble_k},
           .tunables = {},
           .run = run})
