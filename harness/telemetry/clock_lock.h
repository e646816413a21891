// --lock-clocks: the GPU clocks locked for a run and always restored. A guardian process (the
// hidden `wavebench clock-guard`, started like a worker, SIGINT, SIGTERM and SIGHUP blocked) locks
// them and restores them when its standard input ends: when the run finishes, fails, is stopped
// by a signal or killed outright, the pipe from the harness closes and the clocks go back.
#pragma once

#include "harness/platform/platform_kind.h"

#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

namespace wb {

/// Locks one device's clocks and puts them back.
class clock_locker {
public:
    virtual ~clock_locker() = default;
    /// Locks (`sm_mhz`: the SM clock asked for, 0 the device's default); returns what ("SM clock
    /// locked at 1755 MHz ..."); throws std::runtime_error saying why not (the rights it needs among it).
    virtual std::string lock(unsigned sm_mhz) = 0;
    /// Restores what lock() set; "" or what went wrong.
    virtual std::string restore() = 0;
};

/// The device at PCI bus id `pci`'s locker; null with `why`.
std::unique_ptr<clock_locker> nvml_locker_for(const std::string& pci, std::string& why);
std::unique_ptr<clock_locker> rocm_smi_locker_for(const std::string& pci, std::string& why);

/// What a run's --lock-clocks did, per device.
struct locked_device {
    std::string pci_bus_id, what;
};

/// The harness's side: starts the guardian (`exe clock-guard --platform P --sm-mhz N --pci ID ...`) and waits
/// until it has locked every device; its destructor closes the pipe and waits for the restore.
/// Throws std::runtime_error with the guardian's reason when it cannot lock (no rights, no NVML).
class clock_guard {
public:
    clock_guard(const std::string& exe, platform_kind kind, const std::vector<std::string>& pci_ids, unsigned sm_mhz);
    ~clock_guard();
    clock_guard(const clock_guard&) = delete;
    clock_guard& operator=(const clock_guard&) = delete;
    const std::vector<locked_device>& locked() const { return locked_; }

private:
    void release(); // the pipe closed, the guardian waited for
    pid_t pid_ = -1;
    int to_guard_ = -1;
    std::vector<locked_device> locked_;
};

/// `wavebench clock-guard`: locks the devices, writes one JSON line on stdout ({"locked": [{"pci",
/// "what"}]} or {"error": why}), waits for stdin to end and restores them. Returns the exit status.
int clock_guard_main(platform_kind kind, const std::vector<std::string>& pci_ids, unsigned sm_mhz);

} // namespace wb
