// The converge reference (run-time ISA choice, threads over lanes), its scalar oracle, and the
// SIMD-step model.
#include "converge.h"
#include "core/chunks.h"
#include "reference.h"
#include "simd_kernels.hpp"
#include "wavebench/families/converge.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace wb::ref {

namespace {
using archs = xsimd::arch_list<xsimd::avx512f, xsimd::fma3<xsimd::avx2>, xsimd::sse2>;
namespace cv = wb::converge;
} // namespace

void converge_f32(const uint32_t* bits, uint32_t lanes, uint32_t iterations, int branch_len, int nonbranch_len,
                  uint32_t* out, unsigned threads)
{
    static auto dispatched = xsimd::dispatch<archs>(detail::converge_kernel{});
    for_chunks(lanes, 256, 64, threads, [=](size_t begin, size_t end) {
        dispatched(bits, lanes, iterations, branch_len, nonbranch_len, out, uint32_t(begin), uint32_t(end));
    });
}

__attribute__((optimize("no-tree-vectorize"))) void converge_f32_scalar(const uint32_t* bits, uint32_t lanes,
                                                                        uint32_t iterations, int branch_len,
                                                                        int nonbranch_len, uint32_t* out)
{
    for (uint32_t lane = 0; lane < lanes; ++lane) {
        uint32_t acc = 0;
        for (uint32_t i = 0; i < iterations; ++i) {
            float v = cv::start(lane, i);
            if (cv::taken(bits, lanes, lane, i))
                for (int k = 0; k < branch_len; ++k) v = std::fma(v, cv::t_mul, cv::t_add);
            else
                for (int k = 0; k < branch_len; ++k) v = std::fma(v, cv::f_mul, cv::f_add);
            for (int k = 0; k < nonbranch_len; ++k) v = std::fma(v, cv::n_mul, cv::n_add);
            uint32_t u;
            std::memcpy(&u, &v, 4);
            acc += u;
        }
        out[lane] = acc;
    }
}

std::optional<strategy> strategy_of(std::string_view variant)
{
    if (variant == "baseline") return strategy::baseline;
    if (variant == "postpone_majority") return strategy::postpone_majority;
    if (variant == "postpone_roundrobin") return strategy::postpone_roundrobin;
    if (variant == "advance") return strategy::advance;
    return std::nullopt;
}

namespace {

/// count_steps over the wavefronts whose first lanes are in [begin, end) (multiples of warp_size).
simd_steps count_range(const uint32_t* bits, uint32_t lanes, uint32_t iterations, unsigned warp_size, strategy s,
                       int relief, std::vector<uint64_t>* trace, uint32_t begin, uint32_t end)
{
    simd_steps r;
    std::vector<uint32_t> next(warp_size), word(warp_size); // word: the direction word each lane holds
    for (uint32_t first = begin; first < end; first += warp_size) {
        const unsigned n = unsigned(std::min<uint32_t>(warp_size, lanes - first));
        auto taken = [&](unsigned j, uint32_t i) { return cv::taken(bits, lanes, first + j, i); };
        auto ran = [&](uint64_t mask) { // one branch execution by these lanes
            ++r.branch;
            r.active_lanes += std::popcount(mask);
            if (trace && first == 0) trace->push_back(mask);
        };
        std::fill(next.begin(), next.end(), 0u); // each lane's next iteration
        std::fill(word.begin(), word.end(), ~0u);
        if (s == strategy::baseline) {
            for (uint32_t i = 0; i < iterations; ++i, ++r.loop, ++r.nonbranch) {
                uint64_t t = 0, f = 0;
                for (unsigned j = 0; j < n; ++j) (taken(j, i) ? t : f) |= uint64_t(1) << j;
                if (t) ran(t), ++r.t_runs;
                if (f) ran(f), ++r.f_runs;
            }
            continue;
        }
        bool want_t = false; // round-robin: path F first (the seed's Fig. 1c)
        for (int64_t step = 1;; ++step) {
            uint64_t pending = 0, t = 0;
            for (unsigned j = 0; j < n; ++j)
                if (next[j] < iterations) {
                    pending |= uint64_t(1) << j;
                    if (taken(j, next[j])) t |= uint64_t(1) << j;
                }
            if (!pending) break;
            ++r.loop;
            bool load = false; // some pending lane's iteration is in a word it has not loaded
            for (unsigned j = 0; j < n; ++j)
                if (pending >> j & 1) {
                    load = load || next[j] / 32 != word[j];
                    word[j] = next[j] / 32;
                }
            r.load_trips += load;
            const uint64_t f = pending & ~t;
            if (s == strategy::advance) { // a T slot, then an F slot, each with the non-branch code
                uint64_t do_t = 0, do_f = 0;
                bool has_next = false, next_load = false; // the taken(i + 1) block, its word load
                for (unsigned j = 0; j < n; ++j) {
                    if (!(pending >> j & 1)) continue;
                    const bool c0 = t >> j & 1;
                    if (next[j] + 1 < iterations) {
                        has_next = true;
                        next_load = next_load || (next[j] + 1) / 32 != word[j];
                        word[j] = (next[j] + 1) / 32;
                    }
                    if (next[j] + 1 < iterations && taken(j, next[j] + 1) != c0) { // modes 1 and 2
                        do_t |= uint64_t(1) << j;
                        do_f |= uint64_t(1) << j;
                        next[j] += 2;
                    } else { // mode 0
                        (c0 ? do_t : do_f) |= uint64_t(1) << j;
                        next[j] += 1;
                    }
                }
                r.next_trips += has_next;
                r.next_load_trips += next_load;
                if (do_t) ran(do_t), ++r.nonbranch, ++r.t_runs;
                if (do_f) ran(do_f), ++r.nonbranch, ++r.f_runs;
                continue;
            }
            bool run_t;
            if (s == strategy::postpone_majority) {
                const int nt = std::popcount(t), nf = std::popcount(f);
                run_t = nt >= nf;
                if (relief > 0 && step % relief == 0 && (run_t ? nf : nt) > 0) run_t = !run_t; // relieve the minority
            } else {
                if (!((want_t ? t : f))) want_t = !want_t; // nobody wants this path: switch at once
                run_t = want_t;
                want_t = !want_t;
            }
            const uint64_t go = run_t ? t : f;
            ran(go);
            ++(run_t ? r.t_runs : r.f_runs);
            ++r.nonbranch;
            for (unsigned j = 0; j < n; ++j)
                if (go >> j & 1) ++next[j];
        }
    }
    return r;
}

} // namespace

simd_steps count_steps(const uint32_t* bits, uint32_t lanes, uint32_t iterations, unsigned warp_size, strategy s,
                       int relief, std::vector<uint64_t>* trace)
{
    if (warp_size == 0 || warp_size > 64) throw std::invalid_argument("wavefront width must be 1..64");
    // The wavefronts are independent: counted over threads (the model runs for every converge
    // result), a chunk of wavefronts each, the counts summed (integers: the same in any order).
    const uint32_t waves = (lanes + warp_size - 1) / warp_size;
    std::vector<simd_steps> part(std::max(1u, std::thread::hardware_concurrency()));
    std::atomic<size_t> next_part{0};
    for_chunks(waves, 64, 1, unsigned(part.size()), [&](size_t begin, size_t end) {
        simd_steps& mine = part[next_part++];
        mine = count_range(bits, lanes, iterations, warp_size, s, relief, begin == 0 ? trace : nullptr,
                           uint32_t(begin * warp_size), uint32_t(std::min<uint64_t>(lanes, uint64_t(end) * warp_size)));
    });
    simd_steps r;
    for (const auto& p : part) r += p;
    return r;
}

double issued(const simd_steps& st, strategy s, const step_costs& c, int branch_len, int nonbranch_len, int relief)
{
    const double loop = double(st.loop), t_runs = double(st.t_runs), f_runs = double(st.f_runs);
    const int tl = c.t.at(branch_len), fl = c.f.at(branch_len), fin = c.finish.at(nonbranch_len);
    switch (s) {
    case strategy::baseline:
        return loop * (c.head + fin + c.tail) + t_runs * tl + f_runs * fl;
    case strategy::postpone_majority:
    case strategy::postpone_roundrobin:
        return loop * (c.head + c.body + fin + c.finish_extra + c.tail) - (loop - double(st.load_trips)) * c.load -
               (relief <= 0 ? loop * c.relief_block : 0.0) + t_runs * tl + f_runs * fl;
    case strategy::advance:
        return loop * (c.head + 2 * c.slot_test + c.tail) - (loop - double(st.next_trips)) * c.next_block -
               double(st.next_trips - st.next_load_trips) * c.next_load + t_runs * (c.t_extra + tl + fin) +
               f_runs * (c.f_extra + fl + fin) + (2 * loop - t_runs - f_runs) * c.slot_skip;
    }
    return 0;
}

std::vector<uint32_t> branch_bits(const std::vector<std::string_view>& lanes)
{
    const uint32_t n = uint32_t(lanes.size()), iterations = n ? uint32_t(lanes[0].size()) : 0;
    std::vector<uint32_t> bits(cv::words(n, iterations), 0u);
    for (uint32_t l = 0; l < n; ++l) {
        if (lanes[l].size() != iterations) throw std::invalid_argument("every lane needs the same iterations");
        for (uint32_t i = 0; i < iterations; ++i)
            if (lanes[l][i] == 'T') bits[uint64_t(i / 32) * n + l] |= 1u << (i % 32);
    }
    return bits;
}

// ---- the family's reference ----------------------------------------------------------------------

namespace {

uint32_t lanes_of(const param_map& p) { return uint32_t(get_int(p, cv::lanes.name)); }
uint32_t iterations_of(const param_map& p) { return uint32_t(get_int(p, cv::iterations.name)); }
int branch_len_of(const param_map& p) { return int(get_int(p, cv::branch_len.name)); }
int nonbranch_len_of(const param_map& p) { return int(get_int(p, cv::nonbranch_len.name)); }

void compute(const param_map& p, const std::vector<host_buffer>& in, std::vector<host_buffer>& out)
{
    converge_f32(in[0].as<uint32_t>().data(), lanes_of(p), iterations_of(p), branch_len_of(p), nonbranch_len_of(p),
                 out[0].as<uint32_t>().data());
}

/// The SIMD-step model's speedup of `variant` over the baseline: instructions issued by the
/// baseline over those issued by the variant, on these branch directions.
std::optional<double> model(const param_map& p, std::string_view variant, const std::vector<host_buffer>& in,
                            unsigned warp_size)
{
    const auto s = strategy_of(variant);
    if (!s) return std::nullopt;
    if (*s == strategy::baseline) return 1.0;
    const uint32_t* bits = in[0].as<uint32_t>().data();
    const int bl = branch_len_of(p), nbl = nonbranch_len_of(p);
    const int relief = p.count("relief") ? int(get_int(p, "relief")) : 0;
    const double base =
        count_steps(bits, lanes_of(p), iterations_of(p), warp_size, strategy::baseline).instructions(bl, nbl);
    const double mine = count_steps(bits, lanes_of(p), iterations_of(p), warp_size, *s, relief).instructions(bl, nbl);
    return mine > 0 ? base / mine : 1.0;
}

/// The model's SIMT efficiency of `variant`: useful lane-instructions over the instructions its
/// wavefronts execute times their width. A branch execution runs with the lanes that want it
/// (active_lanes of them, summed); with a cost table for `arch` (the overhead-aware model) so does
/// the non-branch code of postpone (with the body of its `if`) and advance, which only the lanes
/// that ran a path go on to, and
/// the rest of what a wavefront issues (loop, loads of directions; all of baseline's non-branch
/// code) runs with every lane; without one, each lane's non-branch code runs once per iteration
/// with full lanes and nothing else is counted.
std::optional<double> model_simt(const param_map& p, std::string_view variant, const std::vector<host_buffer>& in,
                                 unsigned warp_size, std::string_view arch)
{
    const auto s = strategy_of(variant);
    if (!s) return std::nullopt;
    const int bl = branch_len_of(p), nbl = nonbranch_len_of(p);
    const int relief = p.count("relief") ? int(get_int(p, "relief")) : 0;
    const simd_steps st =
        count_steps(in[0].as<uint32_t>().data(), lanes_of(p), iterations_of(p), warp_size, *s, relief);
    const double runs = double(st.t_runs + st.f_runs);
    if (runs <= 0) return std::nullopt;
    const double branch_eff = double(st.active_lanes) / (runs * warp_size); // lanes per branch execution
    const device_costs* d = costs_for(arch);
    if (!d || d->warp_size != warp_size) {
        const double slots = st.instructions(bl, nbl) * warp_size;
        const double useful = double(st.active_lanes) * bl + double(lanes_of(p)) * iterations_of(p) * nbl;
        return slots > 0 ? std::optional<double>(useful / slots) : std::nullopt;
    }
    const step_costs& c = d->by_strategy[int(*s)];
    const double all = issued(st, *s, c, bl, nbl, relief);
    const int tl = c.t.at(bl), fl = c.f.at(bl), fin = c.finish.at(nbl);
    // Run with the lanes of the branch execution: the paths, and the non-branch code that only the
    // lanes which ran a path go on to (advance: inside each execution; postpone: once per trip).
    double branch = double(st.t_runs) * tl + double(st.f_runs) * fl;
    if (*s == strategy::advance)
        branch += double(st.t_runs) * (c.t_extra + fin) + double(st.f_runs) * (c.f_extra + fin);
    else if (*s != strategy::baseline) // the `if` a pending lane whose path runs enters: body, finish, ++i
        branch += double(st.loop) * (c.body + fin + c.finish_extra);
    return all > 0 ? std::optional<double>((all - branch + branch * branch_eff) / all) : std::nullopt;
}

/// The overhead-aware model's speedup (issue 16): instructions issued by the baseline over those
/// issued by the variant, with the per-trip costs counted from the kernels' SASS for `arch`
/// (reference/converge_costs.h); nullopt when there is no cost table for this device.
std::optional<double> model_issue(const param_map& p, std::string_view variant, const std::vector<host_buffer>& in,
                                  unsigned warp_size, std::string_view arch)
{
    const auto s = strategy_of(variant);
    const device_costs* d = costs_for(arch);
    if (!s || !d || d->warp_size != warp_size) return std::nullopt;
    if (*s == strategy::baseline) return 1.0;
    const uint32_t* bits = in[0].as<uint32_t>().data();
    const int bl = branch_len_of(p), nbl = nonbranch_len_of(p);
    const int relief = p.count("relief") ? int(get_int(p, "relief")) : 0;
    const double base = issued(count_steps(bits, lanes_of(p), iterations_of(p), warp_size, strategy::baseline),
                               strategy::baseline, d->by_strategy[int(strategy::baseline)], bl, nbl);
    const double mine = issued(count_steps(bits, lanes_of(p), iterations_of(p), warp_size, *s, relief), *s,
                               d->by_strategy[int(*s)], bl, nbl, relief);
    return mine > 0 ? base / mine : 1.0;
}

} // namespace

const family_reference& reference_converge()
{
    static const family_reference r{
        .compute = compute, .model = model, .model_issue = model_issue, .model_simt = model_simt};
    return r;
}

} // namespace wb::ref
