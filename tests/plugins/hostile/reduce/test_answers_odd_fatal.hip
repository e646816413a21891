// Test plugin: writes an answer object whose "fatal" (what the worker says when it cannot go on) is
// no text onto the file descriptor its worker answers the harness on (fd 3). The harness must
// take that for an error of this configuration, not stop the run with the library's error.
#include "wavebench/plugin.h"

#include <unistd.h>

static void run(wb_args*)
{
    static const char line[] = "{\"fatal\": 7}\n";
    (void)!write(3, line, sizeof line - 1);
}

WB_PLUGIN({.family = "reduce",
           .variant = "test_answers_odd_fatal",
           .summary = "answers the harness with a fatal answer that says no text",
           .seed = "none",
           .run = run})
