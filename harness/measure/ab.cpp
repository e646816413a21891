// A/B runs: one configuration measured with two builds in turns (measure/ab.h).
#include "harness/measure/ab.h"

#include "harness/common/json.h"
#include "harness/measure/stopping.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <random>

namespace wb {

namespace {

/// Enough once `samples` runs are measured: one build's turn in a block.
class until_samples : public stopping_criterion {
public:
    explicit until_samples(size_t samples) : samples_(int(samples)) {}
    bool enough(const measuring_progress& p) const override { return p.samples >= samples_; }

private:
    int samples_;
};

} // namespace

std::string ab_block_order(const config& c, const run_settings& settings, size_t blocks)
{
    // FNV-1a of the configuration's name and parameters, mixed with the suite's seed.
    uint64_t h = 1469598103934665603ull;
    for (const char ch : c.plug->name() + " " + params_text(c.family_params, c.tunables))
        h = (h ^ uint64_t(uint8_t(ch))) * 1099511628211ull;
    std::mt19937_64 coin(h ^ settings.seed);
    // Counterbalanced in pairs of blocks (ABBA): whichever build goes first in one block goes
    // second in the next, so a drift that is linear over a pair (clocks ramping, a warming die)
    // falls on both builds alike. A coin per pair only: with a coin per block, one order can lead
    // in the first blocks, and every run of the same suite and seed repeats it (with that order,
    // two copies of one build were a steady 1.5-2% apart on the H200; counterbalanced, none was
    // flagged in 20 runs on the H100: results/h100/regression-ab.md).
    std::string order;
    while (order.size() < blocks) order += (coin() >> 63) ? "BN" : "NB";
    order.resize(blocks);
    return order;
}

namespace {

/// The settings of one half of an A/B run: half the repetitions, time and samples.
run_settings halved(run_settings s)
{
    s.repetitions = std::max(1, (s.repetitions + 1) / 2);
    s.max_samples = std::max(1, (s.max_samples + 1) / 2);
    s.min_time_s /= 2;
    s.max_time_s /= 2;
    return s;
}

/// Both builds' warm-up, a run of each in turn (`first` first), so that neither build's first
/// measured runs follow an idle device while the other's follow a warm one.
void warm_up_both(staged_measurement& first, staged_measurement& second)
{
    while (first.warm_left() > 0 || second.warm_left() > 0) {
        first.warm_up(1);
        second.warm_up(1);
    }
}

} // namespace

result measure_ab(const std::shared_ptr<platform>& pf, const config& c, group_inputs& g, const run_settings& settings)
{
    config base_c = c;
    base_c.plug = c.base_plug;
    base_c.base_plug = nullptr;
    // One stream and one pair of events for both builds: a stream made first or second maps to
    // another hardware queue, and that is no part of the change.
    const auto stream = std::make_shared<timed_stream>(pf);
    staged_measurement base(pf, base_c, g, settings, stream), now(pf, c, g, settings, stream);
    const auto started = std::chrono::steady_clock::now();
    // The orders of as many blocks as max_samples allows; the run stops well before, by the criterion.
    const size_t most_blocks = size_t(std::max(1, settings.max_samples / ab_block + 1));
    const std::string order = ab_block_order(c, settings, std::min<size_t>(most_blocks, 100000));
    std::string made;
    size_t block = 0;
    auto both = [&] { return base.running() && now.running(); };
    // Blocks from `block` on until `stop` says so after a whole pair of blocks (where the order is
    // balanced), or the orders run out.
    auto blocks = [&](auto stop) {
        for (; block < order.size() && (base.running() || now.running()); ++block) {
            const until_samples turn((block + 1) * size_t(ab_block));
            made += order[block];
            for (staged_measurement* m : order[block] == 'B' ? std::array{&base, &now} : std::array{&now, &base})
                m->repeat(turn);
            if (block % 2 == 1 && stop()) {
                ++block;
                return;
            }
        }
    };
    auto elapsed_ms = [&] {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    };
    // The pairs both builds have (or, once one build stopped, the other's samples), and the
    // change's device time in them.
    auto progress = [&]() -> measuring_progress {
        const size_t n = both()           ? std::min(base.samples(), now.samples())
                         : base.running() ? base.samples()
                                          : now.samples();
        return {int(n), (now.running() ? now : base).measured_ms(n), elapsed_ms()};
    };
    // Two halves, each with half the suite's samples and time. What a plugin's prepare allocates
    // (temporary storage, tables) lands at other addresses for the build prepared first and the
    // one prepared second, and an address can be nearer or farther in the cache and memory: the
    // builds swap places between the halves (both released, then prepared in the other order),
    // so each holds each place for half of the pairs.
    warm_up_both(order[0] == 'B' ? base : now, order[0] == 'B' ? now : base);
    const auto half = stopping_criterion_for(halved(settings));
    blocks([&] { return half->enough(progress()); });
    const size_t first_half = progress().samples;
    if (both()) {
        base.release();
        now.release();
        now.prepare_again();
        base.prepare_again();
        warm_up_both(order[block % order.size()] == 'B' ? base : now, order[block % order.size()] == 'B' ? now : base);
    }
    // The second half as long as the first (the same number of pairs), within the suite's time.
    const auto whole = stopping_criterion_for(settings);
    blocks([&] {
        const measuring_progress p = progress();
        if (!both()) return whole->enough(p);
        return size_t(p.samples) >= 2 * first_half || p.elapsed_ms >= settings.max_time_s * 1e3;
    });
    result b = base.finish();
    result r = now.finish();
    // The configuration's wall time holds both builds' runs: the base build's parts added to this
    // one's (the base result keeps its own as well).
    for (const auto& [name, part] : wall_time_parts) r.wall.*part += b.wall.*part;
    r.ab_base = std::make_shared<result>(std::move(b));
    r.ab_order = made;
    return r;
}

} // namespace wb
