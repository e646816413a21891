// `wavebench probe`: the machine's ceilings measured, cached for `run`, printed, and with --out
// written to a JSON file.
#include "harness/ceilings/lane_costs.h"
#include "harness/ceilings/probe.h"
#include "harness/commands/commands.h"
#include "harness/common/files.h"
#include "harness/common/json.h"
#include "harness/common/utc_time.h"
#include "harness/report/results_json.h"
#include "harness/worker/worker.h"

#include <iostream>

namespace wb {

namespace {

int probe_command(const platform_options& po, const std::string& out, int mib)
{
    if (!out.empty()) check_output(out, "--out", {});
    auto p = open_platform(po);
    std::cout << "probing " << device_line(*p) << "\n\n";
    probe_report r = probe(p, size_t(mib) << 20);
    if (p->kind() == platform_kind::cpu) {
        // The runtime's own costs, in five fresh processes: they are not ceilings (nothing is
        // divided by them), and `run` does not measure them.
        r.summary.emplace_back("");
        std::vector<nlohmann::json> per_process;
        for (int k = 0; k < 5; ++k) per_process.push_back(lane_costs_in_worker(po));
        r.details["lane_costs"] = summarize_lane_costs(per_process, r.summary);
    }
    for (const auto& line : r.summary) std::cout << "  " << line << "\n";
    std::cout << "\n";
    cache_ceilings(*p, r, std::cout);
    if (!out.empty()) {
        write_json(out, {{"tool_version", tool_version},
                         {"measured", utc_now()},
                         {"platform", p->name()},
                         {"device", device_json(p->device())},
                         {"ceilings", ceilings_json(r.values)},
                         {"details", r.details}});
        std::cout << "written to " << out << "\n";
    }
    return exit_ok;
}

} // namespace

void add_probe_command(CLI::App& app, command_list& commands)
{
    struct options {
        platform_options platform;
        std::string out;
        int mib = 0;
    };
    auto o = std::make_shared<options>();
    auto* cmd = app.add_subcommand(
        "probe", "Measure the machine's ceilings (memory bandwidth; the reference's speed); on cpu also "
                 "the runtime's costs per lane (a lane, a barrier, a shuffle) in five processes");
    add_platform_options(cmd, o->platform);
    cmd->add_option("--out", o->out, "also write the measurements to this JSON file")->check(a_path);
    cmd->add_option("--mib", o->mib, "memory to stream over, in MiB (default 256 on cpu, 1024 on GPUs)")
        ->check(integer(16, 65536));
    commands.push_back({cmd, [o] { return probe_command(o->platform, o->out, o->mib); }});
}

} // namespace wb
