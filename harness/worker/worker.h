// Plugins run in worker processes, never in the harness: `wavebench worker` (a hidden
// subcommand of the same binary, started with posix_spawn) loads the plugin files and measures
// configurations on request; worker_executor supervises it. A worker keeps its device context,
// its plugins and the current group's inputs across configurations, and is replaced only after
// a configuration that crashed, timed out or errored (an error may leave the device context
// unusable). Timing stays inside the worker.
//
// The pipes: the harness writes requests on the worker's stdin; the worker answers on fd 3; its
// stdout and stderr (the plugins' own output) come to the harness on one pipe, which keeps the
// last line for the report of a crash and passes everything on to its own stderr. The worker
// publishes its stage (measure/stage.h) in a shared memory word on fd 4, so that a crash or a timeout
// is placed even when the worker can say nothing more.
#pragma once

#include "harness/measure/executor.h"
#include "harness/measure/stage.h"
#include "harness/platform/platform_options.h"
#include "harness/plugins/plugins.h"
#include "harness/worker/process.h"

#include <chrono>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

namespace wb {

/// The body of `wavebench worker` (worker/worker_main.cpp): `po.name` is the platform (not auto).
int worker_main(const platform_options& po);

/// Loads plugin files in worker processes and measures configurations in them. A file that
/// crashes or hangs while being loaded is rejected with the reason, and loading goes on without it.
class worker_executor : public executor {
public:
    /// Loads `files` (of platform po.name) in a worker; `registry` gets what they declare and the
    /// rejections.
    worker_executor(const platform_options& po, const std::vector<std::filesystem::path>& files,
                    plugin_registry& registry);
    /// Another worker with the plugins `first` loaded, for the device po.device (--devices).
    worker_executor(const platform_options& po, const worker_executor& first);
    result measure(const config& c, const run_settings& s) override;
    nlohmann::json describe() const override;
    /// An A/B run (measure/ab.h): loads the base build's plugin files in the worker too, apart from
    /// the others (again in each worker that replaces it); `registry` gets what they declare and
    /// the rejections. Throws std::runtime_error when the worker cannot load them.
    void load_base(const std::vector<std::filesystem::path>& files, plugin_registry& registry);

private:
    bool start(std::vector<std::filesystem::path> files, plugin_registry* registry, std::string& why);
    /// Sends the base build's files (base_loaded_) to the worker; false, and why, when it fails.
    bool send_base(plugin_registry* registry, std::string& why);

    platform_options po_;
    std::vector<std::filesystem::path> loaded_;      // the files whose plugins loaded
    std::vector<std::filesystem::path> base_loaded_; // an A/B run's base build's (load_base)
    std::unique_ptr<worker_process> worker_;
    // What describe() reports; a run on several devices reads them from another thread.
    mutable std::mutex stats_m_;
    int started_ = 0;
    std::vector<double> start_ms_, overhead_ms_;
};

/// Adds to `reg` the plugins in `files` (of platform po.name) and the rejections, loaded in a
/// worker that stops afterwards (or in this process with po.in_process).
void load_catalog(const platform_options& po, const std::vector<std::filesystem::path>& files, plugin_registry& reg);

/// The runtime's costs per lane (ceilings/lane_costs.h) measured in a fresh worker process of
/// platform po.name, which stops afterwards: a JSON object of name -> value.
nlohmann::json lane_costs_in_worker(const platform_options& po);

} // namespace wb
