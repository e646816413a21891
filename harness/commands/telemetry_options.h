// `run`'s --energy and --lock-clocks (docs/telemetry.md), and the hidden `clock-guard` command
// that holds the lock (telemetry/clock_lock.h).
#pragma once

#include "harness/commands/cli.h"
#include "harness/plan/settings.h"
#include "harness/platform/platform.h"
#include "harness/report/results_json.h"
#include "harness/telemetry/clock_lock.h"

#include <iosfwd>
#include <memory>
#include <vector>

namespace wb {

/// Adds --energy (into `so`) and --lock-clocks to `run`.
void add_telemetry_options(CLI::App* run, settings_overrides& so, int& lock_clocks);

/// With --lock-clocks, the clocks of `devices` locked until the guard returned is destroyed (or the
/// process ends in any way); `clocks` says what was locked, for the results. On cpu: none, with a
/// warning on `err` saying why. Throws std::runtime_error (no rights, no NVML) naming what is needed.
std::unique_ptr<clock_guard> lock_clocks_for(int lock, const platform& p, const std::vector<run_device>& devices,
                                             nlohmann::json& clocks, std::ostream& err);

/// Registers the hidden `wavebench clock-guard`.
void add_clock_guard_command(CLI::App& app, command_list& commands);

} // namespace wb
