// Test plugin: throws from run. The SDK turns the exception into the configuration's 'error'
// with its message (stage run); the worker is replaced and the run goes on.
#include "wavebench/plugin.h"

#include <stdexcept>

static void run(wb_args*) { throw std::logic_error("test_throws: thrown from run"); }

WB_PLUGIN({.family = "reduce", .variant = "test_throws", .summary = "throws in run", .seed = "none", .run = run})
