// Test plugin: each time its library is loaded it appends a line to the file named by
// WAVEBENCH_TEST_LOAD_LOG (where set), so a test can count how often the harness loads one plugin
// file (tests/plugin_files_test.py: a folder with many files that crash the loader). Never run.
#include "wavebench/plugin.h"

#include <cstdio>
#include <cstdlib>

namespace {
struct log_each_load {
    log_each_load()
    {
        if (const char* path = std::getenv("WAVEBENCH_TEST_LOAD_LOG"))
            if (FILE* f = std::fopen(path, "a")) {
                std::fputs("loaded\n", f);
                std::fclose(f);
            }
    }
} logged;
} // namespace

static void run(wb_args*) {}

WB_PLUGIN({.family = "reduce",
           .variant = "test_load_log",
           .summary = "logs each load of its library",
           .seed = "none",
           .run = run})
