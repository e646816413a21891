// Test plugin: its library aborts while being loaded (a static constructor). `list` and every
// run must name it as rejected, and go on with the other plugins.
#include "wavebench/plugin.h"

#include <cstdio>
#include <cstdlib>

namespace {
struct abort_when_loaded {
    abort_when_loaded()
    {
        std::fprintf(stderr, "test_aborts_at_load: aborting in a static constructor\n");
        std::abort();
    }
} aborts;
} // namespace

static void run(wb_args*) {}

WB_PLUGIN({.family = "reduce",
           .variant = "test_aborts_at_load",
           .summary = "aborts while being loaded",
           .seed = "none",
           .run = run})
