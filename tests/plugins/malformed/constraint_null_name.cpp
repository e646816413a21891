// Loader fixture: a constraint whose first tunable is a null name.
#include "wavebench/plugin_abi.h"

static const wb_tunable block[1] = {{"block_size", 256, nullptr, 0, 32, 1024, 1, "work-items per work-group"}};
static const wb_constraint divides[1] = {{WB_REQUIRE_DIVIDES, nullptr, "block_size", nullptr, 0, nullptr}};
#define FIXTURE_TUNABLES block, 1
#define FIXTURE_CONSTRAINTS divides, 1
#include "descriptor.h"
