// Running a planned suite: each configuration measured in order by an executor, and each result
// set against the family's baseline and library at the same problem and against the machine's
// ceiling. An interrupt (SIGINT, SIGTERM) stops it between configurations.
#pragma once

#include "harness/measure/executor.h"
#include "harness/measure/kernels.h"

#include <functional>
#include <vector>

namespace wb {

class runner {
public:
    /// One executor per device (--devices), each with its device's ceilings; the first alone without it.
    runner(std::vector<executor*> devices, std::vector<ceilings> c)
        : devices_(std::move(devices)), ceilings_(std::move(c))
    {
        ceilings_.resize(devices_.size());
    }
    runner(executor& e, ceilings c) : runner(std::vector<executor*>{&e}, std::vector<ceilings>{std::move(c)}) {}

    /// Sees each result (all.back()) as soon as it is handed on, with all the results so far; those
    /// from `group_begin` on (its problem's) may have changed with it (their speedups), those before
    /// no longer change.
    using on_result = std::function<void(const std::vector<result>& all, size_t group_begin)>;
    /// With several devices: sees a result that is measured but waits for the groups before it to
    /// be handed on (its speedups not set yet); it is handed on later.
    using on_waiting = std::function<void(const result&)>;
    /// Sees each configuration (configs[index]) as it starts, and the device (its index) it runs on.
    using on_start = std::function<void(size_t index, const config&, int device)>;

    /// Runs the configurations; fewer results than configurations when interrupted. With one device
    /// in order. With several, each device takes the next group of configurations (the variants of
    /// one problem: their speedups compare results of one device) as it becomes free; results are
    /// handed on in plan order (a group waits for the groups before it), each naming its device.
    std::vector<result> run(const std::vector<config>& configs, const run_settings& settings, const on_result& done,
                            const on_start& starting = {});

    /// Attach each kernel's AMD static figures (from the plugin's amd build) to the results.
    void set_amd_static(bool on) { amd_static_ = on; }
    void set_on_waiting(on_waiting w) { waiting_ = std::move(w); }

private:
    /// What a result gets as soon as it is measured: its place in the plan, its message bounded.
    static void label(const config& c, result& r);
    /// Sets a new result against the ceiling and the group's baseline and library, and hands it on.
    void finish(const config& c, result r, std::vector<result>& results, size_t& group_begin, const on_result& done);

    std::vector<executor*> devices_;
    std::vector<ceilings> ceilings_; // per device
    bool amd_static_ = false;
    on_waiting waiting_;
    amd_static_figures amd_figures_;
    size_t group_ = size_t(-1); // the group of the last result handed on
};

} // namespace wb
