// Test plugin: a correct sum plus one. Verification must fail, naming the element.
#include "wavebench/families/reduce.h"
#include "wavebench/plugin.h"

__global__ void sum_plus_one(const int* in, int* out, size_t n)
{
    int s = 1;
    for (size_t i = 0; i < n; ++i) s += in[i];
    *out = s;
}

static const wb::kernel sum_plus_one_k{"sum_plus_one", sum_plus_one, 1};

static void run(wb_args* a)
{
    sum_plus_one_k.launch(a, dim3(1), wb::in<int>(a, 0), wb::out<int>(a, 0), size_t(wb::reduce::n(a)));
}

WB_PLUGIN({.family = "reduce",
           .variant = "test_off_by_one",
           .summary = "the sum plus one (verification must catch it)",
           .seed = "none",
           .kernels = {sum_plus_one_k},
           .tunables = {},
           .run = run})
