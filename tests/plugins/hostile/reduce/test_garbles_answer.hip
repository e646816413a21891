// Test plugin: writes a line that is no answer onto the file descriptor its worker answers the
// harness on (fd 3). The harness must take that for a crash ('crashed'), not stop.
#include "wavebench/plugin.h"

#include <unistd.h>

static void run(wb_args*)
{
    static const char line[] = "{\"result\": not json\n";
    (void)!write(3, line, sizeof line - 1);
}

WB_PLUGIN({.family = "reduce",
           .variant = "test_garbles_answer",
           .summary = "writes nonsense where its worker answers the harness",
           .seed = "none",
           .run = run})
