// Builds a plugin slowed on purpose, for the tests of `wavebench compare` and of the GPU
// regression label: included before a plugin's own source, it wraps the plugin's `run` so that
// each timed run does the plugin's whole work WB_SLOWDOWN times. Every run of a plugin starts
// from a poisoned output and must produce the whole answer, so running it again from its own
// answer gives the same answer: the slowed plugin still verifies, only its time changes.
#pragma once

#include "wavebench/plugin.h"

#ifndef WB_SLOWDOWN
#define WB_SLOWDOWN 3
#endif

namespace wb::slowed {
inline plugin_def with_run(plugin_def d, plugin_fn run)
{
    d.run = run;
    return d;
}
} // namespace wb::slowed

// WB_PLUGIN as plugin.h defines it, with the descriptor's `run` replaced.
#undef WB_PLUGIN
#define WB_PLUGIN(...)                                                                                                 \
    static const ::wb::plugin_def wb_original_def_ = __VA_ARGS__;                                                      \
    static void wb_slowed_run_(wb_args* a)                                                                             \
    {                                                                                                                  \
        for (int i = 0; i < WB_SLOWDOWN; ++i) wb_original_def_.run(a);                                                 \
    }                                                                                                                  \
    static const ::wb::plugin_def wb_plugin_def_ = ::wb::slowed::with_run(wb_original_def_, wb_slowed_run_);           \
    extern "C" __attribute__((visibility("default"))) const wb_plugin* wavebench_plugin(uint32_t host_abi_version)     \
    {                                                                                                                  \
        return host_abi_version == WB_PLUGIN_ABI_VERSION ? ::wb::detail::describe<&wb_plugin_def_>() : nullptr;        \
    }
