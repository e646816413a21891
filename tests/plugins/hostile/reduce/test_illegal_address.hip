// Test plugin: a kernel writes through a null pointer. On the cpu platform that is a SIGSEGV
// ('crashed'); on a GPU an illegal address that leaves the context unusable ('error'), after
// which the next configuration must run in a fresh worker and verify.
#include "wavebench/plugin.h"

__global__ void write_null(int* p) { p[threadIdx.x] = 1; }

static const wb::kernel write_null_k{"write_null", write_null, 64};

static void run(wb_args* a) { write_null_k.launch(a, dim3(1), static_cast<int*>(nullptr)); }

WB_PLUGIN({.family = "reduce",
           .variant = "test_illegal_address",
           .summary = "a kernel writes through a null pointer",
           .seed = "none",
           .kernels = {write_null_k},
           .run = run})
