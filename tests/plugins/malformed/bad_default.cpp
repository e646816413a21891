// Loader fixture: a tunable whose default it does not allow.
#include "wavebench/plugin_abi.h"

static const wb_tunable block[1] = {{"block_size", 100, nullptr, 0, 32, 1024, 1, "work-items per work-group"}};
#define FIXTURE_TUNABLES block, 1
#include "descriptor.h"
