// Test plugin: correct on its first `correct_runs` runs, silent afterwards. Only checks after the
// first run, each from a fresh poison, catch it.
#include "wavebench/families/reduce.h"
#include "wavebench/plugin.h"

__global__ void serial_sum(const int* in, int* out, size_t n)
{
    int s = 0;
    for (size_t i = 0; i < n; ++i) s += in[i];
    *out = s;
}

static constexpr auto correct_runs =
    wb::tunable::range("correct_runs", 1, 1, 1000, "runs done right before going silent");
static const wb::kernel serial_sum_k{"serial_sum", serial_sum, 1};

static int64_t runs = 0;

static void prepare(wb_args*) { runs = 0; }

static void run(wb_args* a)
{
    if (runs++ >= correct_runs(a)) return;
    serial_sum_k.launch(a, dim3(1), wb::in<int>(a, 0), wb::out<int>(a, 0), size_t(wb::reduce::n(a)));
}

WB_PLUGIN({.family = "reduce",
           .variant = "test_goes_silent",
           .summary = "correct for a few runs, then writes nothing (later runs must be checked too)",
           .seed = "none",
           .kernels = {serial_sum_k},
           .tunables = {correct_runs},
           .prepare = prepare,
           .run = run})
