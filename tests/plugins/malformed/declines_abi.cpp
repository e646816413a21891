// A plugin built against another ABI: it declines every version it is offered.
#include "wavebench/plugin_abi.h"

extern "C" __attribute__((visibility("default"))) const wb_plugin* wavebench_plugin(uint32_t) { return nullptr; }
