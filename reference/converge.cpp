// The converge reference (run-time ISA choice, threads over lanes), its scalar oracle, and the
// SIMD-step model.
#include "converge.h"
#include "chunks.h"
#include "reference.h"
#include "simd_kernels.hpp"
#include "wavebench/families/converge.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

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

simd_steps count_steps(const uint32_t* bits, uint32_t lanes, uint32_t iterations, unsigned width, strategy s,
                       int relief, std::vector<uint64_t>* trace)
{
    if (width == 0 || width > 64) throw std::invalid_argument("wavefront width must be 1..64");
    simd_steps r;
    std::vector<uint32_t> next(width);
    for (uint32_t first = 0; first < lanes; first += width) {
        const unsigned n = unsigned(std::min<uint32_t>(width, lanes - first));
        auto taken = [&](unsigned j, uint32_t i) { return cv::taken(bits, lanes, first + j, i); };
        auto ran = [&](uint64_t mask) { // one branch execution by these lanes
            ++r.branch;
            r.active_lanes += std::popcount(mask);
            if (trace && first == 0) trace->push_back(mask);
        };
        std::fill(next.begin(), next.end(), 0u); // each lane's next iteration
        if (s == strategy::baseline) {
            for (uint32_t i = 0; i < iterations; ++i, ++r.loop, ++r.nonbranch) {
                uint64_t t = 0, f = 0;
                for (unsigned j = 0; j < n; ++j) (taken(j, i) ? t : f) |= uint64_t(1) << j;
                if (t) ran(t);
                if (f) ran(f);
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
            const uint64_t f = pending & ~t;
            if (s == strategy::advance) { // a T slot, then an F slot, each with the non-branch code
                uint64_t do_t = 0, do_f = 0;
                for (unsigned j = 0; j < n; ++j) {
                    if (!(pending >> j & 1)) continue;
                    const bool c0 = t >> j & 1;
                    if (next[j] + 1 < iterations && taken(j, next[j] + 1) != c0) { // modes 1 and 2
                        do_t |= uint64_t(1) << j;
                        do_f |= uint64_t(1) << j;
                        next[j] += 2;
                    } else { // mode 0
                        (c0 ? do_t : do_f) |= uint64_t(1) << j;
                        next[j] += 1;
                    }
                }
                if (do_t) ran(do_t), ++r.nonbranch;
                if (do_f) ran(do_f), ++r.nonbranch;
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
            ++r.nonbranch;
            for (unsigned j = 0; j < n; ++j)
                if (go >> j & 1) ++next[j];
        }
    }
    return r;
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

} // namespace

const family_reference& reference_converge()
{
    static const family_reference r{.compute = compute, .model = model};
    return r;
}

} // namespace wb::ref
