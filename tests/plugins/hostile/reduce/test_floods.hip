// Test plugin: writes without end where its worker answers the harness (fd 3), never a newline.
// The harness must stop reading at its limit and take that for a crash, not run out of memory.
#include "wavebench/plugin.h"

#include <unistd.h>

static void run(wb_args*)
{
    static char block[1 << 16];
    for (char& c : block) c = 'x';
    for (;;)
        if (write(3, block, sizeof block) < 0) return;
}

WB_PLUGIN({.family = "reduce",
           .variant = "test_floods",
           .summary = "writes without end where its worker answers the harness",
           .seed = "none",
           .run = run})
