// The worker's side: `wavebench worker` reads requests on stdin (load plugin files, measure a
// configuration, measure the runtime's costs) and answers each on fd 3 (worker/worker.h).
#include "harness/worker/worker.h"

#include "harness/ceilings/lane_costs.h"
#include "harness/common/json.h"
#include "harness/measure/measure.h"
#include "harness/worker/process.h"
#include "harness/worker/wire.h"

#include <chrono>
#include <csignal>
#include <iostream>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace wb {

using json = nlohmann::json;

namespace {

/// Sends one answer to the harness; a harness that is gone ends the worker.
void answer(const json& j)
{
    if (!write_all(answer_fd, j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n")) _exit(1);
}

/// Loads the files of a load request into `reg`, publishing which file it is on (a crash or a
/// hang is then placed), and answers with the catalog.
void load(const json& request, plugin_registry& reg)
{
    const auto files = wire::files_of_load(request);
    for (size_t i = 0; i < files.size(); ++i) {
        this_progress().file = int32_t(i);
        enter(stage::load);
        reg.add_file(files[i]);
    }
    this_progress().file = -1;
    enter(stage::none);
    answer(wire::catalog_answer(reg));
}

/// Measures the configuration of a measure request, and answers with the result and the time
/// the worker was busy with it.
void measure_one(const json& request, const plugin_registry& reg, const plugin_registry& base, local_executor& exec)
{
    const auto started = std::chrono::steady_clock::now();
    wire::measure_order order = wire::measure_order_from(request);
    for (const auto& p : reg.plugins())
        if (p.name() == order.plugin) order.c.plug = &p;
    if (!order.c.plug) throw std::runtime_error("the worker has no plugin " + order.plugin);
    for (const auto& p : base.plugins())
        if (order.ab && p.name() == order.plugin) order.c.base_plug = &p;
    if (order.ab && !order.c.base_plug) throw std::runtime_error("the worker has no base plugin " + order.plugin);
    const result r = exec.measure(order.c, order.settings);
    const double busy = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    answer(wire::result_answer(r, busy));
}

} // namespace

int worker_main(const platform_options& po)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL); // never outlive the harness
    if (getppid() == 1) return 1;
    if (void* shared = mmap(nullptr, sizeof(progress), PROT_READ | PROT_WRITE, MAP_SHARED, progress_fd, 0);
        shared != MAP_FAILED)
        publish_progress_to(static_cast<progress*>(shared));

    const auto kind = parse_platform(po.name);
    if (!kind) throw std::invalid_argument(unknown_platform(po.name));
    // base: an A/B run's base build (measure/ab.h). Neither digests its files: the harness does.
    plugin_registry reg(*kind, false), base(*kind, false);
    std::shared_ptr<platform> pf;
    std::unique_ptr<local_executor> exec;
    for (std::string line; std::getline(std::cin, line);) {
        const json request = parse_json(line);
        const wire::request_kind what = wire::kind_of(request);
        if (what == wire::request_kind::load) {
            load(request, request.value("base", false) ? base : reg);
            continue;
        }
        if (!pf) {
            try {
                pf = open_platform(po);
            } catch (const std::exception& e) {
                answer(wire::fatal_answer(std::string("the worker cannot start the platform: ") + e.what()));
                return 1;
            }
        }
        if (what == wire::request_kind::lane_costs) { // `wavebench probe` on cpu
            try {
                answer(wire::lane_costs_answer(measure_lane_costs(pf)));
            } catch (const std::exception& e) {
                answer(wire::fatal_answer(std::string("measuring the runtime's costs: ") + e.what()));
            }
            continue;
        }
        if (!exec) exec = std::make_unique<local_executor>(pf);
        measure_one(request, reg, base, *exec);
    }
    // The harness closed the pipe: leave without running the plugins' and runtimes' teardown,
    // which has nothing left to give and could only hang or crash.
    std::cout.flush();
    std::cerr.flush();
    _exit(0);
}

} // namespace wb
