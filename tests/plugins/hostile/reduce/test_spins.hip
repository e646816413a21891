// Test plugin: a kernel that never ends (it waits for a value the poisoned output never holds).
// Its configuration must be 'timeout' (stage run), its worker killed, and the run go on.
#include "wavebench/plugin.h"

__global__ void spin(volatile int* flag)
{
    while (*flag != 0x12345678) {
    }
}

static const wb::kernel spin_k{"spin", spin, 1};

static void run(wb_args* a) { spin_k.launch(a, dim3(1), static_cast<volatile int*>(wb::out<int>(a, 0))); }

WB_PLUGIN({.family = "reduce",
           .variant = "test_spins",
           .summary = "never finishes (the harness must time it out)",
           .seed = "none",
           .kernels = {spin_k},
           .run = run})
