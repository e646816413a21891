// Loader fixture: constraints counted (n_constraints) but no table of them.
#include "wavebench/plugin_abi.h"

static const wb_tunable block[1] = {{"block_size", 256, nullptr, 0, 32, 1024, 1, "work-items per work-group"}};
#define FIXTURE_TUNABLES block, 1
#define FIXTURE_CONSTRAINTS nullptr, 2
#include "descriptor.h"
