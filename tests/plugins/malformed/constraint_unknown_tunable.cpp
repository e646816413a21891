// Loader fixture: a constraint naming a tunable the plugin does not declare.
#include "wavebench/plugin_abi.h"

static const wb_tunable block[1] = {{"block_size", 256, nullptr, 0, 32, 1024, 1, "work-items per work-group"}};
static const wb_constraint tile[1] = {{WB_REQUIRE_PRODUCT_AT_MOST, "block_size", "tile", nullptr, 4096, nullptr}};
#define FIXTURE_TUNABLES block, 1
#define FIXTURE_CONSTRAINTS tile, 1
#include "descriptor.h"
