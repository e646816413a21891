// The options of a comparison on the command line, which `compare` and `report` (its compare view)
// both take.
#pragma once

#include "harness/commands/cli.h"
#include "harness/report/compare.h"

#include <string>
#include <vector>

namespace wb {

/// --alpha, --threshold (in %), --fdr, --calibration, --ignore-code-digest and --allow-device-change into `o`, as
/// compare and report take them.
void add_compare_options(CLI::App* cmd, compare_options& o);
/// --alpha, --threshold, --fdr, --calibration and --ignore-code-digest alone (run's A/B mode).
void add_verdict_options(CLI::App* cmd, compare_options& o);
/// --fail-on into `fail_on` (checked names), as compare and run's A/B mode take it.
void add_fail_on_option(CLI::App* cmd, std::vector<std::string>& fail_on);
/// `o` with the --fail-on names given (none: the default) and the --calibration file read; "none" with
/// anything else, or a calibration file that is none, is std::invalid_argument.
compare_options with_fail_on(compare_options o, const std::vector<std::string>& fail_on);

} // namespace wb
