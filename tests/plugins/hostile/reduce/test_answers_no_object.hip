// Test plugin: writes a line of JSON that is no object (every answer of a worker is one) onto the
// file descriptor its worker answers the harness on (fd 3). The harness must take that for a crash
// ('crashed'), not stop the run with the library's error.
#include "wavebench/plugin.h"

#include <unistd.h>

static void run(wb_args*)
{
    static const char line[] = "[\"fatal\", 7]\n";
    (void)!write(3, line, sizeof line - 1);
}

WB_PLUGIN({.family = "reduce",
           .variant = "test_answers_no_object",
           .summary = "answers the harness with JSON that is no object",
           .seed = "none",
           .run = run})
