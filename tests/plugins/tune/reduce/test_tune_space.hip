// Test plugin for `wavebench tune`: a space of two tunables whose kernel time has one clear
// optimum (a = 3, b = 2: the least extra work), a candidate that crashes (a = 6, b = 1), one that
// computes a wrong sum (a = 1, b = 8), and a constraint (a x b at most 24) the search must keep.
#include "wavebench/families/reduce.h"
#include "wavebench/plugin.h"

#include <cstdio>

static constexpr auto a_t = wb::tunable::range("a", 0, 0, 7, "0..7: extra work (a - 3)^2");
static constexpr auto b_t = wb::tunable::one_of("b", 1, {1, 2, 4, 8}, "extra work unless 2");

// One work-item sums everything, then spins `work` rounds: slow, and slower away from the optimum.
__global__ void sum_then_spin(const int* in, int* sum, size_t n, int work, int wrong)
{
    int s = 0;
    for (size_t i = 0; i < n; ++i) s += in[i];
    volatile int sink = 0;
    for (int r = 0; r < work * 20000; ++r) sink = sink + r;
    *sum = s + wrong;
}

static const auto kernel = WB_KERNEL(sum_then_spin, 1);

static void run(wb_args* args)
{
    const int64_t a = a_t(args), b = b_t(args);
    if (a == 6 && b == 1) {
        std::fprintf(stderr, "test_tune_space: a = 6, b = 1 crashes\n");
        std::fflush(stderr);
        *static_cast<volatile int*>(nullptr) = 1;
    }
    const int work = int((a - 3) * (a - 3) + (b == 2 ? 0 : 1 + b / 4));
    kernel.launch(args, dim3(1), wb::in<int>(args, 0), wb::out<int>(args, 0), size_t(wb::reduce::n(args)), work,
                  a == 1 && b == 8 ? 1 : 0);
}

WB_PLUGIN({.family = "reduce",
           .variant = "test_tune_space",
           .summary = "a space with one optimum, a crash, a wrong answer and a constraint",
           .seed = "none",
           .kernels = {kernel},
           .tunables = {a_t, b_t},
           .constraints = {wb::require::product_at_most(a_t, b_t, 24)},
           .run = run})
