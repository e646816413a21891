// `wavebench probe`: the machine's ceilings measured, cached for `run`, printed, and with --out
// written to a JSON file.
#include "harness/commands/commands.h"
#include "harness/common/files.h"
#include "harness/ceilings/probe.h"
#include "harness/report/results_json.h"

#include <iostream>

namespace wb {

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
        r.details["lane_costs"] = lane_costs_over_processes(po, 5, r.summary);
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

} // namespace wb
