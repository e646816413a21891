// A hand-made descriptor for the loader's tests; each fixture changes one field.
#pragma once

#include "wavebench/plugin_abi.h"

#ifndef FIXTURE_ABI
#define FIXTURE_ABI WB_PLUGIN_ABI_VERSION
#endif
#ifndef FIXTURE_FAMILY
#define FIXTURE_FAMILY "reduce"
#endif
#ifndef FIXTURE_PLATFORM
#define FIXTURE_PLATFORM "cpu"
#endif
#ifndef FIXTURE_RUN
#define FIXTURE_RUN run
#endif
#ifndef FIXTURE_VARIANT
#define FIXTURE_VARIANT "fixture"
#endif
#ifndef FIXTURE_SUMMARY
#define FIXTURE_SUMMARY "a loader test fixture"
#endif
#ifndef FIXTURE_SEED
#define FIXTURE_SEED "none"
#endif
#ifndef FIXTURE_KERNELS // the table and its count
#define FIXTURE_KERNELS nullptr, 0
#endif
#ifndef FIXTURE_TUNABLES
#define FIXTURE_TUNABLES nullptr, 0
#endif
#ifndef FIXTURE_CONSTRAINTS // SDK 2.2
#define FIXTURE_CONSTRAINTS nullptr, 0
#endif

static int32_t run(wb_args*) { return WB_OK; }

extern "C" __attribute__((visibility("default"))) const wb_plugin* wavebench_plugin(uint32_t)
{
    static const wb_plugin d = {sizeof(wb_plugin), FIXTURE_ABI,
                                FIXTURE_FAMILY,    FIXTURE_VARIANT,
                                FIXTURE_SUMMARY,   FIXTURE_SEED,
                                FIXTURE_PLATFORM,  FIXTURE_KERNELS,
                                FIXTURE_TUNABLES,  nullptr,
                                FIXTURE_RUN,       nullptr,
                                nullptr,           nullptr,
                                nullptr,           0,
                                nullptr,           FIXTURE_CONSTRAINTS};
    return &d;
}
