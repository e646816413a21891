// Test plugin: launches nothing, so the output keeps its poison. Verification must fail.
#include "wavebench/plugin.h"

static void run(wb_args*) {}

WB_PLUGIN({.family = "reduce",
           .variant = "test_unwritten",
           .summary = "writes nothing (verification must catch it)",
           .seed = "none",
           .kernels = {},
           .tunables = {},
           .run = run})
