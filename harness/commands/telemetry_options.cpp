// --energy, --lock-clocks and `wavebench clock-guard` (commands/telemetry_options.h).
#include "harness/commands/telemetry_options.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <ostream>

namespace wb {

void add_telemetry_options(CLI::App* run, settings_overrides& so, int& lock_clocks)
{
    run->add_flag_function(
        "--energy", [&so](int64_t) { so.energy = true; },
        "also measure each verified configuration's energy: its runs repeated back to back for at least 0.5 s "
        "between two moves of the device's energy counter (NVML on nvidia, ROCm SMI on amd, RAPL on cpu), reported "
        "as joules per run and per unit of work (nJ/B, pJ/MAC) beside the throughput; where there is no counter "
        "the results say why");
    run->add_flag_function(
        "--counters", [&so](int64_t) { so.counters = true; },
        "also read each verified configuration's hardware counters in one more, untimed and verified run: SIMT "
        "efficiency, achieved occupancy, DRAM bytes, L2 hit rate, instructions, per kernel launch (nvidia: CUPTI, "
        "kernels replayed as the metrics need; cpu: lanes per wavefront collective; docs/counters.md); where "
        "they cannot be read the results say why (suite key: counters = true)");
    auto* lock = run->add_flag_callback(
        "--lock-clocks", [&lock_clocks] { lock_clocks = std::max(lock_clocks, 0); },
        "lock the GPU clocks for the run (nvidia: the SM clock at its default application clock, or at "
        "--sm-clock; amd: the stable_std performance level) and restore them when the run ends, however it "
        "ends; needs root or the rights an administrator grants; the cpu platform skips it, saying why");
    run->add_option_function<int>(
           "--sm-clock", [&lock_clocks](int mhz) { lock_clocks = mhz; },
           "with --lock-clocks on nvidia: the SM clock to lock at, in MHz (e.g. the base clock, which the GPU holds "
           "under any load)")
        ->check(CLI::Range(1, 100000))
        ->needs(lock);
}

std::unique_ptr<clock_guard> lock_clocks_for(int lock, const platform& p, const std::vector<run_device>& devices,
                                             nlohmann::json& clocks, std::ostream& err)
{
    clocks = {{"locked", false}};
    if (lock < 0) return nullptr; // not asked; 0 the default clock, else the SM clock in MHz
    if (p.kind() == platform_kind::cpu) {
        const char* why = "the cpu platform's frequency is the operating system's to set (cpupower frequency-set, "
                          "as root), not wavebench's";
        err << "warning: --lock-clocks skipped: " << why << "\n";
        clocks["why"] = why;
        return nullptr;
    }
    std::vector<std::string> pci;
    for (const auto& d : devices)
        pci.emplace_back(d.info.pci_bus_id, strnlen(d.info.pci_bus_id, sizeof d.info.pci_bus_id));
    auto guard = std::make_unique<clock_guard>(std::filesystem::read_symlink("/proc/self/exe").string(), p.kind(), pci,
                                               unsigned(lock));
    clocks = {{"locked", true}, {"devices", nlohmann::json::array()}};
    for (const auto& l : guard->locked()) {
        clocks["devices"].push_back({{"pci_bus_id", l.pci_bus_id}, {"what", l.what}});
        err << "clocks of " << l.pci_bus_id << ": " << l.what << " (restored when the run ends)\n";
    }
    return guard;
}

void add_clock_guard_command(CLI::App& app, command_list& commands)
{
    struct options {
        std::string platform;
        std::vector<std::string> pci;
        unsigned sm_mhz = 0;
    };
    auto o = std::make_shared<options>();
    auto* cmd = app.add_subcommand("clock-guard", "");
    cmd->group(""); // not for users: `run --lock-clocks` starts it
    cmd->add_option("--platform", o->platform)->required();
    cmd->add_option("--pci", o->pci)->required();
    cmd->add_option("--sm-mhz", o->sm_mhz);
    commands.push_back({cmd, [o] {
                            const auto kind = parse_platform(o->platform);
                            if (!kind) throw std::invalid_argument(unknown_platform(o->platform));
                            return clock_guard_main(*kind, o->pci, o->sm_mhz);
                        }});
}

} // namespace wb
