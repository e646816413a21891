// The cpu platform's counters: what its runtime knows exactly of each launch (the platform
// library's launch_counts). It runs a wavefront's lanes one after another, so it cannot count
// instructions or idle lanes in a branch; it does know which lanes meet at each collective
// (a ballot or shuffle completes with the lanes of the wavefront that reached it together), and
// reports that share as `collective_lanes`, never as SIMT efficiency.
#include "harness/counters/counters.h"

#include <stdexcept>

namespace wb {

namespace {

class cpu_counters final : public counter_provider {
public:
    explicit cpu_counters(const platform& p) : p_(p) {}

    void start() override { platform::check(p_.api().launch_counts(WB_COUNTS_START, nullptr, 0, &n_), "counters"); }

    counter_readings stop() override
    {
        platform::check(p_.api().launch_counts(WB_COUNTS_STOP, nullptr, 0, &n_), "counters");
        std::vector<wb_launch_counts> counted(n_);
        uint32_t n = 0;
        platform::check(p_.api().launch_counts(WB_COUNTS_STOP, counted.data(), n_, &n), "counters");
        counted.resize(std::min(n, n_));
        counter_readings c;
        c.provider = "cpu runtime";
        for (const auto& k : counted) {
            launch_counters l;
            l.values["blocks"] = double(k.blocks);
            l.values["wavefronts"] = double(k.wavefronts);
            l.values["collectives"] = double(k.collectives);
            if (k.collectives && k.warp_size)
                l.values["collective_lanes"] = double(k.collective_lanes) / (double(k.collectives) * k.warp_size);
            c.launches.push_back(std::move(l));
        }
        return c;
    }

private:
    const platform& p_;
    uint32_t n_ = 0;
};

} // namespace

std::unique_ptr<counter_provider> open_cpu_counter_provider(const platform& p, std::string& why)
{
    if (!p.api().launch_counts) {
        why = "this cpu platform library counts nothing (rebuild wavebench)";
        return nullptr;
    }
    return std::make_unique<cpu_counters>(p);
}

} // namespace wb
