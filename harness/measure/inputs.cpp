// A group's shared inputs and outputs: memory plan, datasets, upload and the check afterwards
// (measure/inputs.h).
#include "harness/measure/inputs.h"

#include "core/compare.h"
#include "core/random.h"
#include "harness/plan/plan.h"
#include "reference/reference.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace wb {

namespace {

using clock = std::chrono::steady_clock;

/// Adds the milliseconds since `t0` to `ms`, and restarts `t0`.
void lap(double& ms, clock::time_point& t0)
{
    const auto now = clock::now();
    ms += std::chrono::duration<double, std::milli>(now - t0).count();
    t0 = now;
}

double host_memory_bytes() { return double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE)); }

size_t total_bytes(const std::vector<buffer_shape>& shapes)
{
    size_t bytes = 0;
    for (const auto& b : shapes) bytes += b.count * elem_size(b.type);
    return bytes;
}

} // namespace

size_t input_copies(size_t cache_bytes, size_t in_bytes)
{
    if (in_bytes == 0 || in_bytes >= 2 * cache_bytes) return 2;
    return std::min<size_t>(16, 1 + (2 * cache_bytes + in_bytes - 1) / in_bytes);
}

namespace {

struct memory_plan {
    size_t sets = 1;     // copies of the inputs on the device, rotated through
    size_t datasets = 1; // different inputs (seeds) among them: 2 where memory allows
};

/// How many input copies and datasets fit; throws when even one does not.
memory_plan plan_memory(const platform& pf, size_t in_bytes, size_t out_bytes)
{
    // The host holds each dataset's inputs and expected outputs, and the actual outputs; the
    // device one copy of the outputs and `sets` copies of the inputs. On cpu both are one memory.
    const wb_device_info& d = pf.device();
    const double gib = double(1 << 30), host_budget = 0.8 * host_memory_bytes(),
                 dev_budget = 0.8 * double(d.total_memory);
    const bool shared = pf.kind() == platform_kind::cpu;
    auto host = [&](size_t datasets) { return double(datasets) * double(in_bytes + out_bytes) + double(out_bytes); };
    memory_plan p;
    auto device = [&](size_t sets, size_t datasets) {
        return double(sets) * double(in_bytes) + double(out_bytes) + (shared ? host(datasets) : 0);
    };
    p.sets = input_copies(size_t(std::max<int64_t>(d.l2_cache_bytes, 0)), in_bytes);
    while (p.sets > 1 && (device(p.sets, 2) > dev_budget || host(2) > host_budget)) --p.sets;
    p.datasets = std::min<size_t>(p.sets, 2); // a second dataset only where it fits: else replays go unseen
    char msg[256];
    if (host(p.datasets) > host_budget) {
        std::snprintf(msg, sizeof msg, "needs %.1f GiB of host memory; this machine has %.1f GiB (80%% usable)",
                      host(1) / gib, host_budget / 0.8 / gib);
        throw std::runtime_error(msg);
    }
    if (device(p.sets, p.datasets) > dev_budget) {
        std::snprintf(msg, sizeof msg, "needs %.1f GiB of device memory; the device has %.1f GiB (80%% usable)",
                      device(1, 1) / gib, dev_budget / 0.8 / gib);
        throw std::runtime_error(msg + std::string(": ") + d.name);
    }
    return p;
}

} // namespace

group_inputs::group_inputs(std::shared_ptr<platform> p, const family& fam, const param_map& params, uint64_t suite_seed)
    : platform_(std::move(p)), fam_(&fam), params_(params)
{
    try {
        setup(suite_seed);
    } catch (const std::exception& e) {
        setup_error = std::string("preparing the inputs failed: ") + e.what();
    }
}

void group_inputs::setup(uint64_t suite_seed)
{
    const auto in_shapes = fam_->inputs(params_), out_shapes = fam_->outputs(params_);
    const memory_plan plan = plan_memory(*platform_, total_bytes(in_shapes), total_bytes(out_shapes));

    const family_reference& ref = reference_of(*fam_);
    uint64_t seed = derive_seed(suite_seed, fam_->name + " " + params_text(params_, {}));
    auto t0 = clock::now();
    for (size_t d = 0; d < plan.datasets; ++d, seed = mix64(seed) & ((uint64_t(1) << 53) - 1))
        data.push_back({seed, make_buffers(in_shapes), make_buffers(out_shapes)});
    // The datasets are independent: each generated, then its expected outputs computed, on a thread
    // of its own.
    each_dataset([&](dataset& ds) { fam_->generate(params_, ds.seed, ds.inputs); });
    actual = make_buffers(out_shapes);
    lap(inputs_ms, t0);
    each_dataset([&](dataset& ds) { ref.compute(params_, ds.inputs, ds.expected); });
    lap(reference_ms, t0);
    for (size_t s = 0; s < plan.sets; ++s) {
        std::vector<device_buffer> set;
        for (const auto& b : of_set(s).inputs) set.emplace_back(platform_, std::max<size_t>(b.bytes.size(), 1));
        input_sets.push_back(std::move(set));
        upload(s);
    }
    for (auto& b : actual) {
        outputs.emplace_back(platform_, b.bytes.size() + guard_bytes);
        pinned_outputs_.emplace_back(platform_, b.bytes.data(), b.bytes.size()); // copied back after many runs
    }
    fill_guards();
    lap(upload_ms, t0);
}

void group_inputs::each_dataset(const std::function<void(dataset&)>& work)
{
    std::vector<std::exception_ptr> failed(data.size());
    auto one = [&](size_t d) {
        try {
            work(data[d]);
        } catch (...) {
            failed[d] = std::current_exception();
        }
    };
    std::vector<std::thread> threads;
    for (size_t d = 1; d < data.size(); ++d) threads.emplace_back(one, d);
    one(0);
    for (auto& t : threads) t.join();
    for (const auto& f : failed)
        if (f) std::rethrow_exception(f);
}

namespace {
constexpr int guard_byte = 0xC3; // neither poison (0xA5, 0x5A) nor zero
}

void group_inputs::fill_guards()
{
    for (size_t i = 0; i < outputs.size(); ++i)
        platform::check(platform_->api().fill(static_cast<char*>(outputs[i].get()) + actual[i].bytes.size(), guard_byte,
                                              guard_bytes, nullptr),
                        "filling the guard after an output");
    platform::check(platform_->api().stream_sync(nullptr), "filling the guard after an output");
}

std::string group_inputs::check_guards()
{
    std::string overrun;
    std::vector<unsigned char> guard(guard_bytes);
    const auto shapes = fam_->outputs(params_);
    for (size_t i = 0; i < outputs.size() && overrun.empty(); ++i) {
        platform_->copy_to_host(guard.data(), static_cast<const char*>(outputs[i].get()) + actual[i].bytes.size(),
                                guard_bytes);
        size_t first = guard_bytes, last = 0;
        for (size_t b = 0; b < guard_bytes; ++b)
            if (guard[b] != guard_byte) {
                first = std::min(first, b);
                last = b;
            }
        if (first < guard_bytes)
            overrun = "the plugin wrote past the end of output '" + shapes[i].name + "' (" +
                      std::to_string(actual[i].bytes.size()) + " bytes): bytes " + std::to_string(first) + " to " +
                      std::to_string(last) + " after its end changed";
    }
    if (!overrun.empty()) fill_guards();
    return overrun;
}

void group_inputs::upload(size_t set)
{
    const auto& inputs = of_set(set).inputs;
    for (size_t i = 0; i < inputs.size(); ++i)
        platform_->copy_to_device(input_sets[set][i].get(), inputs[i].bytes.data(), inputs[i].bytes.size());
}

std::string group_inputs::check_intact()
{
    std::string damage;
    const auto shapes = fam_->inputs(params_);
    // The cpu platform's device memory is this process's: read in place. Elsewhere each copy comes
    // back into one buffer kept from one configuration to the next (no fresh pages to fault in).
    const bool in_place = platform_->kind() == platform_kind::cpu;
    for (size_t s = 0; s < input_sets.size(); ++s) {
        const auto& inputs = of_set(s).inputs;
        bool damaged = false;
        for (size_t i = 0; i < inputs.size(); ++i) {
            const size_t bytes = inputs[i].bytes.size();
            const std::byte* now = static_cast<const std::byte*>(input_sets[s][i].get());
            if (!in_place) {
                if (scratch_.size() < bytes) {
                    pinned_scratch_ = pinned_memory();
                    scratch_.resize(bytes);
                    pinned_scratch_ = pinned_memory(platform_, scratch_.data(), scratch_.size());
                }
                platform_->copy_to_host(scratch_.data(), now, bytes);
                now = scratch_.data();
            }
            if (same_bytes(now, inputs[i].bytes.data(), bytes)) continue; // bit for bit
            host_buffer got(inputs[i].type, inputs[i].count());
            std::memcpy(got.bytes.data(), now, bytes);
            const comparison c = compare(inputs[i], got, 0); // what differs, for the message
            damaged = true;
            if (damage.empty())
                damage = "the plugin changed its input '" + shapes[i].name + "' (copy " + std::to_string(s + 1) +
                         " of " + std::to_string(input_sets.size()) + "): " + c.detail;
        }
        if (damaged) upload(s); // the next configuration gets its inputs intact
    }
    return damage;
}

} // namespace wb
