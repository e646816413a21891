// The cpu's read bandwidth at the working sets results need, measured when one first needs it and
// kept in the ceilings' cache beside the probe's own levels (ceilings/probe.h; ceiling_for in
// measure/result.h picks the level a result is set against).
#include "harness/ceilings/probe.h"

#include "harness/common/files.h"
#include "harness/common/json.h"
#include "harness/common/utc_time.h"

#include <iostream>
#include <mutex>
#include <set>
#include <thread>

namespace wb {

namespace {

/// A working set is read this many bytes at least per timed run (the probe's 256 MiB by default).
constexpr int64_t most_reads = int64_t(256) << 20;
/// A level is the best of this many medians: on a shared host a disturbed read is only ever slower,
/// and a level measured low would put results above their ceiling.
constexpr int rounds = 3;
/// A level a result read faster than is measured again, at most this many times a run (this host's
/// memory bandwidth is shared with other machines: one slow spell can last seconds).
constexpr int most_remeasures = 3;

/// A level measured now at `bytes`: `gbs` and how it was measured.
ceiling measured_level(int64_t bytes, double gbs)
{
    char what[160];
    std::snprintf(what, sizeof what,
                  "read, %u threads, %.3g MiB working set, best of %d medians (measured when a configuration of "
                  "that size needed it)",
                  std::max(1u, std::thread::hardware_concurrency()), double(bytes) / double(1 << 20), rounds);
    return {gbs, "GB/s", what, utc_now()};
}

class cpu_read_levels : public ceiling_levels_on_demand {
public:
    cpu_read_levels(std::filesystem::path cache, std::string stamp, int64_t max_bytes,
                    std::map<std::string, ceiling> known)
        : cache_(std::move(cache)), stamp_(std::move(stamp)), max_bytes_(max_bytes), known_(std::move(known))
    {
    }
    int64_t max_bytes() const override { return max_bytes_; }
    std::optional<named_ceiling> level(const std::string& name, int64_t bytes, double reached) override;
    std::map<std::string, ceiling> handed_out() const override;

private:
    /// The best of `rounds` medians at `bytes`; 0 when it could not be measured (said on stderr).
    double measure(const std::string& key, int64_t bytes) const;
    void keep(const named_ceiling& l);

    const std::filesystem::path cache_;
    const std::string stamp_; // when the probe measured `read_bandwidth`: the cache these levels belong to
    const int64_t max_bytes_;
    mutable std::mutex m_;
    std::map<std::string, ceiling> known_; // measured now or by earlier runs
    std::set<std::string> handed_;
    std::map<std::string, int> measured_again_; // how often each was, up to most_remeasures
    bool warned_ = false;
};

double cpu_read_levels::measure(const std::string& key, int64_t bytes) const
{
    try {
        return cpu_read_bandwidth(size_t(bytes), size_t(std::min(max_bytes_, most_reads)), rounds);
    } catch (const std::exception& e) { // out of memory: the result falls back to the probe's levels
        std::cerr << "warning: the read bandwidth at " << key << " could not be measured: " << e.what() << "\n";
        return 0;
    }
}

std::optional<named_ceiling> cpu_read_levels::level(const std::string& name, int64_t bytes, double reached)
{
    if (name != "read_bandwidth" || bytes <= 0 || bytes >= max_bytes_) return std::nullopt;
    const std::lock_guard<std::mutex> lock(m_);
    const std::string key = level_name(name, bytes);
    auto it = known_.find(key);
    if (it == known_.end()) {
        const double gbs = measure(key, bytes);
        if (!(gbs > 0)) return std::nullopt;
        it = known_.emplace(key, measured_level(bytes, gbs)).first;
        keep(*it);
    } else {
        // Below what a result read: measured while the host was disturbed.
        for (int& again = measured_again_[key]; reached > it->second.value && again < most_remeasures; ++again)
            if (const double gbs = measure(key, bytes); gbs > it->second.value) {
                it->second = measured_level(bytes, gbs);
                keep(*it);
            }
    }
    handed_.insert(key);
    return *it;
}

std::map<std::string, ceiling> cpu_read_levels::handed_out() const
{
    const std::lock_guard<std::mutex> lock(m_);
    std::map<std::string, ceiling> out;
    for (const std::string& k : handed_) out.emplace(k, known_.at(k));
    return out;
}

/// Adds a level to the cache, when the cache is still the probe's these levels belong to (no other
/// probe since); a cache that cannot be written warns once (the level is measured again next run).
void cpu_read_levels::keep(const named_ceiling& l)
{
    nlohmann::json j;
    try {
        j = parse_json(read_input(cache_, "ceiling cache", text_input_limit));
        if (j.value("probe_version", 0) != probe_version ||
            j.at("ceilings").at("read_bandwidth").value("measured", "") != stamp_)
            return;
    } catch (const std::exception&) {
        return; // no cache (the ceilings were not cached: that was said), or another's
    }
    try {
        j["levels_on_demand"][l.first] = ceilings_json(ceilings{l})[l.first];
        write_json(cache_, j);
    } catch (const std::exception& e) {
        if (!warned_)
            std::cerr << "warning: the read bandwidth at " << l.first << " was not cached: " << e.what() << "\n";
        warned_ = true;
    }
}

} // namespace

std::shared_ptr<ceiling_levels_on_demand> cpu_levels_on_demand(std::filesystem::path cache, std::string stamp,
                                                               int64_t max_bytes, std::map<std::string, ceiling> known)
{
    return std::make_shared<cpu_read_levels>(std::move(cache), std::move(stamp), max_bytes, std::move(known));
}

} // namespace wb
