// Test plugin: dereferences a null pointer in run, on the host, after a line on stderr. Its
// configuration must be 'crashed' (SIGSEGV, stage run, that line), and the run go on.
#include "wavebench/plugin.h"

#include <cstdio>

static void run(wb_args*)
{
    std::fprintf(stderr, "test_segfault: about to write through a null pointer\n");
    std::fflush(stderr);
    *static_cast<volatile int*>(nullptr) = 1;
}

WB_PLUGIN({.family = "reduce",
           .variant = "test_segfault",
           .summary = "segfaults in run (the harness must survive it)",
           .seed = "none",
           .run = run})
