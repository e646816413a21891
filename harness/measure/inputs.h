// The inputs and outputs the configurations of one group (the same family parameters) share: how
// many copies fit in memory, the datasets generated from the suite's seed with the expected
// outputs from the family's reference, the copies on the device, and the check afterwards that a
// plugin left them intact.
#pragma once

#include "core/family.h"
#include "harness/platform/platform.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace wb {

/// The copies of the inputs rotated through, where memory allows, with a cache of `cache_bytes`
/// (the L2; the last-level cache on cpu): enough that between two runs on one copy the others read
/// twice the cache (at most 16 copies, at least 2). So a run finds none of its input in the cache
/// and what it finds there is the clean lines of other copies' inputs: the same state before every
/// run, whichever ran before it (in an A/B run, the same build or the other). Smaller inputs, whose
/// 16 copies fit, are warm alike in every run. A flush (a buffer of the cache's size written before
/// each run, as nvbench does) would leave it full of dirty lines that the run must write back: on
/// an H200 that made 25-30 us reductions of 2^24 ints 18-30% slower (results/h200/gate/README.md).
size_t input_copies(size_t cache_bytes, size_t in_bytes);

class group_inputs {
public:
    struct dataset {
        uint64_t seed = 0;
        std::vector<host_buffer> inputs, expected;
    };

    /// Plans the memory, generates the datasets, computes their expected outputs and uploads the
    /// input copies. Does not throw: a failure is kept in `setup_error`, for every configuration
    /// of the group to report.
    group_inputs(std::shared_ptr<platform> p, const family& fam, const param_map& params, uint64_t suite_seed);

    /// Two datasets with different seeds alternate across the runs (a plugin that replays an
    /// earlier answer fails), each uploaded into several input sets (input_copies) so that repeated
    /// runs do not hit the cache.
    std::vector<dataset> data;
    std::vector<std::vector<device_buffer>> input_sets;    // set s holds data[s % data.size()]
    std::vector<device_buffer> outputs;                    // on the device, each followed by a guard
    std::vector<host_buffer> actual;                       // the outputs copied back to the host
    std::string setup_error;                               // why the group cannot run, or ""
    double inputs_ms = 0, reference_ms = 0, upload_ms = 0; // host time making them (wall_time)

    const dataset& of_set(size_t set) const { return data[set % data.size()]; }

    /// Bytes after each output that a plugin must leave alone (an overrun within them is found
    /// by check_guards, not by the heap or the device's memory protection, or not at all).
    static constexpr size_t guard_bytes = 16384;

    /// Checks the guard after each output and restores it. Returns where a plugin wrote past the
    /// end of an output, or "".
    std::string check_guards();

    /// Compares every input copy on the device with its dataset and re-uploads the damaged ones,
    /// so the next configuration gets its inputs intact. Returns what changed, or "".
    std::string check_intact();

private:
    void setup(uint64_t suite_seed);
    /// Runs `work` on every dataset at once, a thread each; throws the first dataset's error.
    void each_dataset(const std::function<void(dataset&)>& work);
    void upload(size_t set);
    void fill_guards();

    std::shared_ptr<platform> platform_;
    const family* fam_;
    param_map params_;
    std::vector<std::byte> scratch_; // check_intact's copy of an input, kept for the next check
    // Page-locked while the group lives (declared after what they lock: released first).
    std::vector<pinned_memory> pinned_outputs_;
    pinned_memory pinned_scratch_;
};

} // namespace wb
