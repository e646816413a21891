// What the commands of `wavebench` share: their exit statuses, the platform options on their
// command lines, and what they start from: the platform's plugins. Each command registers
// itself (commands/cli.h) and returns its exit status; main.cpp parses the command line.
#pragma once

#include "harness/commands/cli.h"
#include "harness/measure/executor.h"
#include "harness/plan/plan.h"
#include "harness/plan/settings.h"
#include "harness/platform/platform.h"
#include "harness/platform/platform_options.h"
#include "harness/plugins/plugins.h"
#include "harness/report/console.h"
#include "harness/report/results_json.h"

#include <memory>
#include <string>
#include <vector>

namespace wb {

/// Exit statuses (also in --help).
enum exit_status { exit_ok = 0, exit_failures = 1, exit_bad_input = 2, exit_no_platform = 3, exit_no_device = 4 };

/// Adds --platform, --plugins, --device, --warp-size and --lane-order to `cmd`.
void add_platform_options(CLI::App* cmd, platform_options& o);
/// Adds --in-process to `cmd`.
void add_in_process(CLI::App* cmd, platform_options& o);

/// The plugin files of reg.platform() in the plugin directories (plugin_directories) and `dirs`;
/// a directory that is none is a rejection in `reg`.
std::vector<std::filesystem::path> find_plugin_files(plugin_registry& reg, const std::vector<std::string>& dirs);

/// --repetitions, --warmup, --min-time, --verify-every, --timeout: the suite's settings overridden.
void add_settings_overrides(CLI::App* cmd, settings_overrides& so);

/// What a results document says of a run besides its results: the command line, platform, devices,
/// host, suite and settings (with the command line's overrides), rejected plugins and the start.
run_context context_of_run(const suite& s, const std::string& suite_file, const platform& p,
                           const std::vector<run_device>& devices, const settings_overrides& overrides,
                           const plugin_registry& reg);

/// wavebench-results/<suite>-<platform>-<local time>.json
std::string default_out(const std::string& suite, const std::string& platform);

/// The executor of device `device`: a worker process that loads the plugin files (the catalog goes
/// to `reg`), or this process with --in-process.
std::unique_ptr<executor> open_executor(const platform_options& po, const std::shared_ptr<platform>& p, int device,
                                        const std::vector<std::filesystem::path>& files, plugin_registry& reg);

/// One warning on stderr per plugin file that could not be used.
void warn_rejections(const plugin_registry& reg);

/// The machine's name, "" where it has none.
std::string host_name();

/// "cpu: Intel(R) Xeon(R) (cpu, 2 workers, warp 64)"
std::string device_line(const platform& p);

} // namespace wb
