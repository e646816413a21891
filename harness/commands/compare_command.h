// The options of a comparison on the command line, which `compare` and `report` (its compare view)
// both take.
#pragma once

#include "harness/commands/cli.h"
#include "harness/report/compare.h"

namespace wb {

/// --alpha, --threshold (in %) and --allow-device-change into `o`, as compare and report take them.
void add_compare_options(CLI::App* cmd, compare_options& o);

} // namespace wb
