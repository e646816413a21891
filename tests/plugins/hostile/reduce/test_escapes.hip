// Test plugin: fails with a message of terminal escape sequences, after a megabyte-long line on
// stderr with no end. The harness must show the message escaped and bounded, and keep only the
// start of the line.
#include "wavebench/plugin.h"

#include <cstdio>
#include <stdexcept>
#include <string>

static void run(wb_args*)
{
    std::fputs(std::string(1 << 20, 'z').c_str(), stderr);
    throw std::runtime_error("\x1b[2J\x1b]0;owned\x07" + std::string(100000, 'e'));
}

WB_PLUGIN({.family = "reduce",
           .variant = "test_escapes",
           .summary = "fails with terminal escapes in its message after an endless line on stderr",
           .seed = "none",
           .run = run})
