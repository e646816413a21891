// The commands of `wavebench` (list, run, probe; inspect has commands/inspect_command.h): their options, their
// bodies' entry points, and what they all start from: the platform and its plugins. The command
// line itself is parsed in main.cpp. Each command returns its exit status.
#pragma once

#include "harness/report/console.h"
#include "harness/plan/plan.h"
#include "harness/platform/platform.h"
#include "harness/plugins/plugins.h"
#include "harness/plan/settings.h"

#include <memory>
#include <string>
#include <vector>

namespace wb {

/// Exit statuses (also in --help).
enum exit_status { exit_ok = 0, exit_failures = 1, exit_bad_input = 2, exit_no_platform = 3, exit_no_device = 4 };

/// --platform's value that picks the best platform built here with a device.
inline constexpr const char* auto_platform = "auto";

struct platform_options {
    std::string name = auto_platform; // a platform's name, or auto_platform
    int device = 0;
    int warp_size = 0;                // 0: the platform's own
    std::string lane_order;           // cpu: forward, reverse, random[:SEED]; empty: the environment's
    std::vector<std::string> plugin_dirs;
    bool in_process = false;          // load and run plugins in this process (for gdb), not in workers
};

/// Opens the platform asked for; with auto_platform, the first of platform::built() that starts.
/// Throws no_device when the platform (with auto_platform: every one) has no such device, and
/// platform_unavailable when it cannot be started otherwise.
std::shared_ptr<platform> open_platform(const platform_options& o);

/// The cpu platform's lane order (WAVEBENCH_CPU_LANE_ORDER, which --lane-order sets): "forward"
/// when unset. Throws std::invalid_argument for a value the runtime does not know.
std::string cpu_lane_order();
/// Whether `order` is forward, reverse, random or random:SEED.
bool valid_lane_order(const std::string& order);

/// The plugin files of reg.platform() in the plugin directories (plugin_directories) and `dirs`;
/// a directory that is none is a rejection in `reg`.
std::vector<std::filesystem::path> find_plugin_files(plugin_registry& reg, const std::vector<std::string>& dirs);

/// One warning on stderr per plugin file that could not be used.
void warn_rejections(const plugin_registry& reg);

/// "cpu: Intel(R) Xeon(R) (cpu, 2 workers, warp 64)"
std::string device_line(const platform& p);

int list_command(const platform_options& o, bool json);

struct run_options {
    std::string suite_file;
    std::string filter;
    std::string out;
    uint64_t max_configs = default_max_configs; // --max-configs
    settings_overrides overrides;
    bool dry_run = false;
    bool no_ceilings = false;
    bool reprobe = false;
    bool amd_static = false;
    table_format format = table_format::table; // --format: the table on stdout
    std::string db;          // --db: the history database ("": WAVEBENCH_DB or the default)
    bool no_history = false; // --no-history: record nothing
    std::string devices;     // --devices: "all" or "0,2" ("": the --device one)
    shard_spec shard;        // --shard I/N
};

/// `command` is the command line, for the results JSON.
int run_command(const platform_options& po, const run_options& o, const std::string& command);

int probe_command(const platform_options& po, const std::string& out, int mib);

} // namespace wb
