// Test plugin: writes a line of JSON nested 100,000 levels deep (200 KB) onto the file descriptor
// its worker answers the harness on (fd 3). The harness must refuse it before anything recursive
// walks it, and take it for a crash ('crashed'), not overflow its stack.
#include "wavebench/plugin.h"

#include <string>
#include <unistd.h>

static void run(wb_args*)
{
    const std::string line = std::string(100000, '[') + std::string(100000, ']') + "\n";
    for (size_t at = 0; at < line.size();) {
        const ssize_t n = write(3, line.data() + at, line.size() - at);
        if (n <= 0) return;
        at += size_t(n);
    }
}

WB_PLUGIN({.family = "reduce",
           .variant = "test_deep_answer",
           .summary = "answers the harness with JSON nested 100,000 deep",
           .seed = "none",
           .run = run})
