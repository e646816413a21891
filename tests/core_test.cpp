// core: the comparison helper and the statistics every result is built from.
#define BOOST_TEST_MODULE core
#include <boost/test/unit_test.hpp>

#include "core/compare.h"
#include "core/occupancy.h"
#include "core/random.h"
#include "core/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

using wb::elem;
using wb::host_buffer;

host_buffer ints(std::initializer_list<int32_t> v)
{
    host_buffer b(elem::i32, v.size());
    std::copy(v.begin(), v.end(), b.as<int32_t>().begin());
    return b;
}

host_buffer floats(std::initializer_list<float> v)
{
    host_buffer b(elem::f32, v.size());
    std::copy(v.begin(), v.end(), b.as<float>().begin());
    return b;
}

BOOST_AUTO_TEST_CASE(integers_compare_bit_for_bit_and_name_the_first_wrong_element)
{
    BOOST_CHECK(wb::compare(ints({1, 2, 3}), ints({1, 2, 3}), 0).ok);
    const auto c = wb::compare(ints({1, 2, 3, 4}), ints({1, 9, 3, 7}), 0);
    BOOST_CHECK(!c.ok);
    BOOST_CHECK_EQUAL(c.first, 1u);
    BOOST_CHECK_EQUAL(c.mismatches, 2u);
    BOOST_CHECK_EQUAL(c.detail, "element 1 of 4: expected 2, got 9 (2 elements wrong)");
    // A tolerance never loosens an integer comparison.
    BOOST_CHECK(!wb::compare(ints({100}), ints({101}), 0.5).ok);
}

BOOST_AUTO_TEST_CASE(reals_compare_within_the_stated_relative_tolerance)
{
    BOOST_CHECK(wb::compare(floats({1000.0f}), floats({1000.5f}), 1e-3).ok);
    BOOST_CHECK(!wb::compare(floats({1000.0f}), floats({1002.0f}), 1e-3).ok);
    BOOST_CHECK(wb::compare(floats({0.0f}), floats({1e-4f}), 1e-3).ok); // absolute near zero
    const float nan = std::numeric_limits<float>::quiet_NaN();
    BOOST_CHECK(!wb::compare(floats({1.0f}), floats({nan}), 1e-3).ok);
    BOOST_CHECK(!wb::compare(floats({1.0f}), floats({1.0f + 1e-6f}), 0).ok); // tolerance 0: exact
}

BOOST_AUTO_TEST_CASE(large_buffers_compared_over_threads_count_every_wrong_element_and_name_the_first)
{
    // 12M elements: many chunks of the byte comparison and of the element loop, on several threads.
    const size_t n = size_t(12) << 20;
    host_buffer want(elem::u32, n), got(elem::u32, n);
    for (size_t i = 0; i < n; ++i) want.as<uint32_t>()[i] = uint32_t(i * 2654435761u);
    got.bytes = want.bytes;
    BOOST_CHECK(wb::compare(want, got, 0).ok);
    BOOST_CHECK(wb::same_bytes(want.bytes.data(), got.bytes.data(), want.bytes.size()));
    BOOST_CHECK(wb::same_bytes(nullptr, nullptr, 0));
    for (size_t i : {n - 1, size_t(7) << 20, size_t(3) << 20}) got.as<uint32_t>()[i] ^= 1; // last chunk first
    BOOST_CHECK(!wb::same_bytes(want.bytes.data(), got.bytes.data(), want.bytes.size()));
    auto c = wb::compare(want, got, 0);
    BOOST_CHECK(!c.ok);
    BOOST_CHECK_EQUAL(c.mismatches, 3u);
    BOOST_CHECK_EQUAL(c.first, size_t(3) << 20);
    host_buffer fw(elem::f32, n), fg(elem::f32, n);
    for (size_t i = 0; i < n; ++i) fw.as<float>()[i] = fg.as<float>()[i] = float(i % 1000);
    BOOST_CHECK(wb::compare(fw, fg, 1e-6).ok);
    fg.as<float>()[n - 2] = 1e9f;
    fg.as<float>()[size_t(9) << 20] = std::numeric_limits<float>::quiet_NaN();
    c = wb::compare(fw, fg, 1e-6);
    BOOST_CHECK_EQUAL(c.mismatches, 2u);
    BOOST_CHECK_EQUAL(c.first, size_t(9) << 20);
}

BOOST_AUTO_TEST_CASE(different_shapes_never_compare_equal)
{
    const auto c = wb::compare(ints({1, 2}), ints({1, 2, 3}), 0);
    BOOST_CHECK(!c.ok);
    BOOST_CHECK_NE(c.detail.find("shape differs"), std::string::npos);
    BOOST_CHECK(!wb::compare(ints({1}), floats({1.0f}), 0).ok);
}

BOOST_AUTO_TEST_CASE(summary_statistics)
{
    const auto odd = wb::summarize({5, 1, 3});
    BOOST_CHECK_EQUAL(odd.median, 3);
    BOOST_CHECK_EQUAL(odd.min, 1);
    BOOST_CHECK_EQUAL(odd.max, 5);
    BOOST_CHECK_CLOSE(odd.rel_stddev, 2.0 / 3.0, 1e-9); // sample stddev 2 over mean 3
    const auto even = wb::summarize({4, 1, 3, 2});
    BOOST_CHECK_EQUAL(even.median, 2.5);
    BOOST_CHECK_EQUAL(wb::summarize({7}).rel_stddev, 0);
    BOOST_CHECK_EQUAL(wb::summarize({}).samples, 0u);
}

// The exact Mann-Whitney p-value against counting every arrangement of small samples.
BOOST_AUTO_TEST_CASE(mann_whitney_exact_p_values_match_enumeration)
{
    for (int m = 1; m <= 5; ++m)
        for (int n = 1; n <= 6; ++n) {
            const int size = m + n;
            std::vector<double> count(size_t(m * n + 1), 0);
            double total = 0;
            for (int mask = 0; mask < (1 << size); ++mask) { // the positions of x's values among all
                if (__builtin_popcount(unsigned(mask)) != m) continue;
                int u = 0; // pairs with a y above an x
                for (int i = 0; i < size; ++i)
                    if (!(mask >> i & 1))
                        for (int j = 0; j < i; ++j) u += mask >> j & 1;
                ++count[size_t(u)];
                ++total;
            }
            std::vector<double> x, y; // interleaved, no ties
            for (int i = 0; i < m; ++i) x.push_back(2.0 * i + 1);
            for (int j = 0; j < n; ++j) y.push_back(3.0 * j + 0.5);
            const wb::rank_test t = wb::mann_whitney(x, y);
            BOOST_TEST(t.exact);
            const double lower = std::min(t.u, m * n - t.u);
            double below = 0;
            for (int k = 0; k <= lower; ++k) below += count[size_t(k)];
            BOOST_TEST(t.p == std::min(1.0, 2 * below / total), boost::test_tools::tolerance(1e-12));
        }
    BOOST_TEST(wb::smallest_p(3, 3) == 0.1, boost::test_tools::tolerance(1e-12)); // 2 / C(6, 3)
    BOOST_TEST(wb::smallest_p(25, 25) < 1e-13);
}

BOOST_AUTO_TEST_CASE(mann_whitney_normal_approximation_and_ties)
{
    // 50 against 50 shifted by 3.25: the exact and the normal p-values agree closely.
    std::vector<double> x, y;
    for (int i = 0; i < 50; ++i) x.push_back(i), y.push_back(i + 3.25);
    const wb::rank_test exact = wb::mann_whitney(x, y);
    BOOST_TEST(exact.exact);
    BOOST_TEST(exact.p == 0.2466, boost::test_tools::tolerance(0.01));
    y.push_back(100); // 2550 pairs: the normal approximation
    x.push_back(-1);
    const wb::rank_test approx = wb::mann_whitney(x, y);
    BOOST_TEST(!approx.exact);
    BOOST_TEST(approx.p > 0.1);
    BOOST_TEST(approx.p < 0.4);
    // The same samples: p = 1; all values tied: p = 1; clearly apart: tiny.
    BOOST_TEST(wb::mann_whitney(x, x).p == 1.0);
    BOOST_TEST(wb::mann_whitney({1, 1, 1}, {1, 1, 1, 1}).p == 1.0);
    std::vector<double> far;
    for (double v : x) far.push_back(v + 1000);
    BOOST_TEST(wb::mann_whitney(x, far).p < 1e-15);
    BOOST_TEST(wb::normal_quantile(0.995) == 2.5758, boost::test_tools::tolerance(1e-4));
}

BOOST_AUTO_TEST_CASE(wilcoxon_signed_rank_exact_and_approximate)
{
    // Exact: every sign pattern of 1..n equally likely; all n positive is the extreme, p = 2 / 2^n.
    BOOST_TEST(wb::wilcoxon_signed_rank({1, 2, 3, 4, 5}).p == 0.0625, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(wb::wilcoxon_signed_rank({-1, -2, -3, -4, -5, -6}).p == 2.0 / 64, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(wb::smallest_signed_rank_p(6) == 2.0 / 64, boost::test_tools::tolerance(1e-12));
    // Ranks 1..4, W = 1 + 4 = 5 of 10: the middle, p = 1; zeros dropped.
    const wb::signed_rank_test mid = wb::wilcoxon_signed_rank({1, -2, -3, 4, 0, 0});
    BOOST_TEST(mid.exact);
    BOOST_TEST(mid.pairs == 4u);
    BOOST_TEST(mid.w == 5.0);
    BOOST_TEST(mid.p == 1.0, boost::test_tools::tolerance(1e-12));
    // W = 3 (ranks 1 and 2 positive) of n = 5: P(W <= 3) = 5/32, two-sided 10/32.
    BOOST_TEST(wb::wilcoxon_signed_rank({0.1, 0.2, -0.3, -0.4, -0.5}).p == 10.0 / 32,
               boost::test_tools::tolerance(1e-12));
    // Ties: the normal approximation; clearly shifted pairs: tiny; nothing but zeros: p = 1.
    std::vector<double> d;
    for (int i = 0; i < 60; ++i) d.push_back(i % 3 + 1);
    const wb::signed_rank_test tied = wb::wilcoxon_signed_rank(d);
    BOOST_TEST(!tied.exact);
    BOOST_TEST(tied.p < 1e-10);
    BOOST_TEST(wb::wilcoxon_signed_rank({0, 0, 0}).p == 1.0);
    // The Walsh averages' median and interval: symmetric around 1, the interval covers it.
    std::vector<double> e;
    for (int i = 0; i < 40; ++i) e.push_back(1 + std::sin(i * 2.3));
    const wb::shift_estimate s = wb::walsh_estimate(e, 0.99);
    BOOST_TEST(s.lo < 1.0);
    BOOST_TEST(s.hi > 1.0);
    BOOST_TEST(s.estimate == 1.0, boost::test_tools::tolerance(0.1));
    BOOST_TEST(std::isnan(wb::walsh_estimate({1, 2}, 0.99).lo)); // too few pairs for an interval
}

BOOST_AUTO_TEST_CASE(hodges_lehmann_interval_covers_the_shift)
{
    std::vector<double> x, y;
    for (int i = 0; i < 30; ++i) x.push_back(std::sin(i) * 3), y.push_back(std::sin(i * 1.7) * 3 + 10);
    const wb::shift_estimate s = wb::hodges_lehmann(x, y, 0.99);
    BOOST_TEST(s.lo < s.estimate);
    BOOST_TEST(s.estimate < s.hi);
    BOOST_TEST(s.lo > 7);
    BOOST_TEST(s.hi < 13);
    const wb::shift_estimate self = wb::hodges_lehmann(x, x, 0.99);
    BOOST_TEST(self.estimate == 0.0);
    BOOST_TEST(self.lo < 0);
    BOOST_TEST(self.hi > 0);
    BOOST_TEST(std::isnan(wb::hodges_lehmann({1, 2}, {3}, 0.99).lo)); // too few for 99%
}

// Benjamini-Hochberg q-values by hand: q_(i) = min over j >= i of m p_(j) / j, in the input's order.
BOOST_AUTO_TEST_CASE(bh_q_values_by_hand_ties_and_edges)
{
    auto check = [](const std::vector<double>& p, const std::vector<double>& want) {
        const std::vector<double> q = wb::bh_q_values(p);
        BOOST_TEST_REQUIRE(q.size() == want.size());
        for (size_t i = 0; i < q.size(); ++i) BOOST_TEST(q[i] == want[i], boost::test_tools::tolerance(1e-12));
    };
    // Sorted 0.005, 0.01, 0.03, 0.04: 4p/j = 0.02, 0.02, 0.04, 0.04.
    check({0.01, 0.04, 0.03, 0.005}, {0.02, 0.04, 0.04, 0.02});
    // 3p/j = 0.003, 0.06, 0.9: each its own.
    check({0.04, 0.001, 0.9}, {0.06, 0.003, 0.9});
    // The step-up: 0.012 alone is 5 * 0.012 / 1 = 0.06, but the larger ones' 5 * p / j are 0.05, so
    // it is 0.05 too: at Q = 0.05 all five are flagged, though 0.012 misses its own line 0.05 / 5.
    check({0.05, 0.04, 0.03, 0.02, 0.012}, {0.05, 0.05, 0.05, 0.05, 0.05});
    // 2 * 0.5 / 1 = 1 is lowered to the larger p-value's 0.9; never above 1.
    check({0.5, 0.9}, {0.9, 0.9});
    check({1, 1, 1}, {1, 1, 1});
    // Ties share one q-value: the lowest of theirs, 4 * 0.02 / 3.
    check({0.02, 0.5, 0.02, 0.02}, {0.08 / 3, 0.5, 0.08 / 3, 0.08 / 3});
    // One test: q is p. None: nothing. A NaN counts as 1, an out-of-range p as the nearest bound.
    check({0.003}, {0.003});
    BOOST_TEST(wb::bh_q_values({}).empty());
    check({std::numeric_limits<double>::quiet_NaN(), 0.01}, {1, 0.02});
    check({-0.5, 2}, {0, 1});
    // Against the procedure itself: q <= Q exactly where p <= p_(k), k the largest i with
    // p_(i) <= i / m * Q, over pseudo-random p-values, some of them tied.
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<double> p;
        for (int i = 0; i < 1 + trial % 17; ++i)
            p.push_back(std::round(std::pow(std::abs(std::sin(trial * 7.1 + i * 3.3)), 4) * 200) / 1000);
        const std::vector<double> q = wb::bh_q_values(p);
        std::vector<double> sorted = p;
        std::sort(sorted.begin(), sorted.end());
        for (double level : {0.01, 0.05, 0.2}) {
            // Both sides with a relative margin of rounding: a p-value exactly on the line counts.
            const double slack = 1 + 1e-12;
            double cut = -1; // p_(k), or below every p-value
            for (size_t i = 0; i < sorted.size(); ++i)
                if (sorted[i] <= double(i + 1) / double(sorted.size()) * level * slack) cut = sorted[i];
            for (size_t i = 0; i < p.size(); ++i) BOOST_TEST((q[i] <= level * slack) == (p[i] <= cut), trial);
        }
    }
}

BOOST_AUTO_TEST_CASE(inputs_depend_on_the_seed_and_position_only)
{
    std::vector<uint32_t> a(1001), b(1001), c(1001);
    wb::fill_random(a, 42);
    wb::fill_random(b, 42);
    wb::fill_random(c, 43);
    BOOST_CHECK(a == b);
    BOOST_CHECK(a != c);
    std::vector<uint32_t> prefix(10);
    wb::fill_random(prefix, 42);
    BOOST_CHECK(std::equal(prefix.begin(), prefix.end(), a.begin()));
    BOOST_CHECK_NE(wb::derive_seed(1, "reduce n=5"), wb::derive_seed(1, "reduce n=6"));
    BOOST_CHECK_LT(wb::derive_seed(1, "x"), uint64_t(1) << 53);
}

// ---- occupancy on an H100 / H200 SM (sm_90: 2048 threads, 32 blocks, 64K registers, 228 KiB) ----

struct expect {
    int block, registers;
    int64_t shared;
    int blocks, warps;
    const char* limiter;
};

BOOST_AUTO_TEST_CASE(nvidia_occupancy_of_known_kernels)
{
    const wb::nvidia_sm h100; // the defaults are sm_90's
    const expect cases[] = {
        {256, 32, 0, 8, 64, "warps"},                  // full: 8 x 8 warps
        {256, 64, 0, 4, 32, "registers"},              // 2048 registers a warp: 8 warps per sub-partition
        {128, 40, 0, 12, 48, "registers"},             // 1280 a warp: 12 per sub-partition, not 51 per SM
        {256, 255, 0, 1, 8, "registers"},              // 8192 a warp: 2 per sub-partition
        {1024, 32, 48 * 1024, 2, 64, "warps"},         // 49 KiB with the reserved 1 KiB: 4 would fit
        {256, 16, 100 * 1024, 2, 16, "shared memory"}, // 233472 / 103424
        {32, 16, 0, 32, 32, "block slots"},            // one warp a block: 32 slots
        {96, 32, 0, 21, 63, "warps"},                  // 3 warps a block: 64 / 3
        // agreed with cudaOccupancyMaxActiveBlocksPerMultiprocessor on an H100 (results/h100/reduce.json)
        {128, 34, 512, 12, 48, "registers"}, // reduce_blocked_*: 1088 registers a warp round up to 1280
        {1024, 34, 4096, 1, 32, "registers"},
        {1024, 10, 4096, 2, 64, "warps"}, // reduce_tree_stage2
    };
    for (const auto& c : cases) {
        const auto e = wb::nvidia_occupancy(h100, {c.block, c.registers, c.shared});
        BOOST_TEST_CONTEXT("block " << c.block << ", " << c.registers << " registers, " << c.shared << " bytes")
        {
            BOOST_CHECK_EQUAL(e.blocks, c.blocks);
            BOOST_CHECK_EQUAL(e.warps, c.warps);
            BOOST_CHECK_EQUAL(e.max_warps, 64);
            BOOST_CHECK_EQUAL(e.limiter, c.limiter);
        }
    }
}

// ---- occupancy on AMD targets (anchors.md; LLVM AMDGPUBaseInfo) ---------------------------------

int waves(const char* target, int vgprs, int agprs = 0, int sgprs = 16, int64_t lds = 0, int block = 256, int wave = 64)
{
    const wb::amd_target* t = wb::find_amd_target(target);
    BOOST_REQUIRE(t);
    return wb::amd_occupancy(*t, {vgprs, agprs, sgprs, lds, block, wave}).waves;
}

BOOST_AUTO_TEST_CASE(amd_occupancy_by_vgprs_on_gfx90a)
{
    const std::pair<int, int> points[] = {{64, 8}, {72, 7}, {80, 6}, {96, 5}, {128, 4}, {168, 3}, {256, 2}};
    for (auto [vgprs, expected] : points) BOOST_CHECK_MESSAGE(waves("gfx90a", vgprs) == expected, vgprs << " VGPRs");
    BOOST_CHECK_EQUAL(waves("gfx90a", 73), 6); // 10 VGPRs + 61 AGPRs: .vgpr_count 73 on the unified file
    BOOST_CHECK_EQUAL(waves("gfx90a:sramecc+:xnack-", 73), 6);
    BOOST_CHECK_EQUAL(waves("gfx940", 128), 4);
}

BOOST_AUTO_TEST_CASE(amd_occupancy_counts_the_simds_sharing_lds)
{
    // 256 work-items (4 waves) with 32 KiB: 2 work-groups per CU, 8 waves over 4 SIMDs.
    const wb::amd_target& t = *wb::find_amd_target("gfx90a");
    const auto e = wb::amd_occupancy(t, {32, 0, 16, 32 * 1024, 256, 64});
    BOOST_CHECK_EQUAL(e.waves, 2);
    BOOST_CHECK_EQUAL(e.limiter, "LDS");
    BOOST_CHECK_EQUAL(e.workgroups, 2);
    BOOST_CHECK_EQUAL(wb::amd_occupancy(t, {32, 0, 16, 0, 256, 64}).limiter, "waves");
    // One-wave work-groups with 20000 bytes (20480 in granules): 3 per CU, a wave per SIMD (LLVM
    // rounds up), not 0.
    const auto small = wb::amd_occupancy(t, {32, 0, 16, 20000, 64, 64});
    BOOST_CHECK_EQUAL(small.waves, 1);
    BOOST_CHECK_EQUAL(small.workgroups, 3);
    // 13000 bytes take 13312: 4 work-groups of 4 waves, 4 waves per SIMD (13000 exactly would give 5)
    BOOST_CHECK_EQUAL(wb::amd_occupancy(t, {32, 0, 16, 13000, 256, 64}).waves, 4);
    // More LDS than a CU has: it does not fit at all.
    BOOST_CHECK_EQUAL(wb::amd_occupancy(t, {32, 0, 16, 70000, 256, 64}).waves, 0);
}

BOOST_AUTO_TEST_CASE(amd_occupancy_on_gfx908_counts_the_separate_agpr_file_and_sgprs)
{
    BOOST_CHECK_EQUAL(waves("gfx908", 24), 10);
    BOOST_CHECK_EQUAL(waves("gfx908", 32, 64), 4);    // max(VGPRs, AGPRs): 256 / 64
    BOOST_CHECK_EQUAL(waves("gfx908", 16, 0, 96), 8); // 96 SGPRs: 8 waves
    BOOST_CHECK_EQUAL(waves("gfx908", 16, 0, 104), 7);
    const auto e = wb::amd_occupancy(*wb::find_amd_target("gfx908"), {16, 0, 90, 0, 256, 64});
    BOOST_CHECK_EQUAL(e.waves, 8);
    BOOST_CHECK_EQUAL(e.limiter, "SGPRs");
}

BOOST_AUTO_TEST_CASE(amd_occupancy_on_rdna_in_wave32_and_wave64)
{
    // gfx1030: 1024 VGPRs per SIMD in wave32 (granule 16), 512 in wave64 (granule 8); 16 waves.
    // These are in WGP mode, hipcc's default: a work-group spreads over a WGP's 4 SIMDs.
    BOOST_CHECK_EQUAL(waves("gfx1030", 64, 0, 16, 0, 256, 32), 16);
    BOOST_CHECK_EQUAL(waves("gfx1030", 96, 0, 16, 0, 256, 32), 10); // 5 work-groups of 8 waves over 4 SIMDs
    BOOST_CHECK_EQUAL(waves("gfx1030", 128, 0, 16, 0, 256, 64), 4);
    BOOST_CHECK_EQUAL(waves("gfx1030", 40, 0, 16, 0, 256, 64), 12);
    BOOST_CHECK_EQUAL(waves("gfx1030", 200, 0, 200, 0, 256, 32), 4); // 1024 / 208; no SGPR limit on gfx10
    // gfx1100: 1536 VGPRs per SIMD in wave32 (granule 24), 768 in wave64 (granule 12)
    BOOST_CHECK_EQUAL(waves("gfx1100", 96, 0, 16, 0, 256, 32), 16);
    BOOST_CHECK_EQUAL(waves("gfx1100", 128, 0, 16, 0, 256, 32), 10); // 1536 / 144
    BOOST_CHECK_EQUAL(waves("gfx1100", 128, 0, 16, 0, 256, 64), 5);  // 768 / 132
    BOOST_CHECK(wb::find_amd_target("gfx1250") == nullptr);          // in the table, its occupancy not modelled
    BOOST_CHECK(wb::find_amd_target("gfx9999") == nullptr);
    // With -mcumode the same 256-item work-group (8 waves) stays on one CU's 2 SIMDs, 4 waves on
    // each: the VGPRs' 10 waves per SIMD hold 2 work-groups, 8 waves per SIMD.
    const auto cu = wb::amd_occupancy(*wb::find_amd_target("gfx1030"), {96, 0, 16, 0, 256, 32, true});
    BOOST_CHECK_EQUAL(cu.waves, 8);
    BOOST_CHECK_EQUAL(cu.workgroups, 2);
    BOOST_CHECK_EQUAL(cu.simds, 2);
}

BOOST_AUTO_TEST_CASE(amd_occupancy_by_workgroup_slots)
{
    // 128 work-items of wave64: 2 waves a work-group, 16 work-groups per CU: 32 waves over 4 SIMDs.
    const auto e = wb::amd_occupancy(*wb::find_amd_target("gfx908"), {8, 0, 16, 0, 128, 64});
    BOOST_CHECK_EQUAL(e.waves, 8);
    BOOST_CHECK_EQUAL(e.limiter, "workgroup slots");
    // Single-wave work-groups take no barrier: not limited by slots.
    BOOST_CHECK_EQUAL(waves("gfx908", 8, 0, 16, 0, 64, 64), 10);
}

// ---- AMD occupancy in whole work-groups ----------------------------------------------------------

// Work-groups whose waves span several waves per SIMD. The old figure, the smallest of the per-SIMD
// limits (hardware, VGPRs, SGPRs), is more than any whole number of work-groups reaches.
struct workgroup_point {
    const char* target;
    int block, wave, vgprs, sgprs;
    bool cu_mode;
    int old_waves; // min(hardware, VGPR, SGPR waves per SIMD): unreachable here
    int waves, workgroups;
    const char* limiter;
};

const workgroup_point workgroup_points[] = {
    // gfx90a: 4 SIMDs, 8 waves, 512 VGPRs in granules of 8
    {"gfx90a", 512, 64, 72, 16, false, 7, 6, 3, "VGPRs"},   // 8 waves a group, 28 slots: 3 groups
    {"gfx90a", 1024, 64, 96, 16, false, 5, 4, 1, "VGPRs"},  // 16 waves a group, 20 slots: 1 group
    {"gfx90a", 1024, 64, 80, 16, false, 6, 4, 1, "VGPRs"},  // 24 slots: still 1
    {"gfx90a", 1024, 64, 168, 16, false, 3, 0, 0, "VGPRs"}, // 12 slots: not even one group fits
    // gfx908: 4 SIMDs, 10 waves; the hardware limit itself is not a whole number of groups
    {"gfx908", 1024, 64, 16, 16, false, 10, 8, 2, "waves"}, // 40 slots, 16 waves a group: 2
    {"gfx908", 512, 64, 16, 104, false, 7, 6, 3, "SGPRs"},  // 104 SGPRs: 7 waves, 28 slots: 3 groups
    // gfx1030 in WGP mode (hipcc's default): the WGP's 4 SIMDs, 16 waves
    {"gfx1030", 512, 32, 96, 16, false, 10, 8, 2, "VGPRs"},  // 1024 / 96: 10 waves, 40 slots, 16 a group
    {"gfx1030", 1024, 32, 96, 16, false, 10, 8, 1, "VGPRs"}, // 32 waves a group: 1
    {"gfx1030", 512, 64, 56, 16, false, 9, 8, 4, "VGPRs"},   // wave64: 512 / 56: 9 waves, 36 slots, 8 a group
    {"gfx1030", 1024, 64, 56, 16, false, 9, 8, 2, "VGPRs"},  // 16 a group: 2
    {"gfx1100", 512, 32, 128, 16, false, 10, 8, 2, "VGPRs"}, // 1536 / 144: 10 waves
    // gfx1030 with -mcumode: one CU's 2 SIMDs, so a group puts twice as many waves on each
    {"gfx1030", 512, 32, 96, 16, true, 10, 8, 1, "VGPRs"},  // 20 slots, 16 waves a group: 1
    {"gfx1030", 1024, 32, 96, 16, true, 10, 0, 0, "VGPRs"}, // 32 a group: does not fit in CU mode
    {"gfx1030", 512, 64, 56, 16, true, 9, 8, 2, "VGPRs"},   // 18 slots, 8 a group: 2
    {"gfx1030", 1024, 64, 56, 16, true, 9, 8, 1, "VGPRs"},  // 16 a group: 1
};

BOOST_AUTO_TEST_CASE(amd_occupancy_is_what_whole_workgroups_reach)
{
    for (const auto& p : workgroup_points) {
        BOOST_TEST_INFO(p.target << " block " << p.block << " wave" << p.wave << " " << p.vgprs << " VGPRs " << p.sgprs
                                 << " SGPRs" << (p.cu_mode ? " CU mode" : ""));
        const wb::amd_target& t = *wb::find_amd_target(p.target);
        const auto e = wb::amd_occupancy(t, {p.vgprs, 0, p.sgprs, 0, p.block, p.wave, p.cu_mode});
        BOOST_CHECK_EQUAL(std::min({e.vgpr_waves, e.sgpr_waves, e.max_waves}), p.old_waves);
        BOOST_CHECK_EQUAL(e.waves, p.waves);
        BOOST_CHECK_EQUAL(e.workgroups, p.workgroups);
        BOOST_CHECK_EQUAL(e.limiter, p.limiter);
        // The figure is what the work-groups put on a SIMD, and the old one was more than that.
        BOOST_CHECK_EQUAL(e.waves, (e.workgroups * e.group_waves + e.simds - 1) / e.simds);
        BOOST_CHECK_LT(e.waves, p.old_waves);
    }
}

BOOST_AUTO_TEST_CASE(amd_workgroups_spread_their_waves_over_the_simds)
{
    const wb::amd_target& gfx90a = *wb::find_amd_target("gfx90a");
    // 384 work-items of wave64 (6 waves) at 96 VGPRs (5 waves per SIMD): 3 work-groups, 18 waves over
    // 4 SIMDs as 5, 5, 4, 4. Were every work-group dealt from the first SIMD again, 2 would fit.
    auto e = wb::amd_occupancy(gfx90a, {96, 0, 16, 0, 384, 64});
    BOOST_CHECK_EQUAL(e.workgroups, 3);
    BOOST_CHECK_EQUAL(e.waves, 5);
    BOOST_CHECK_EQUAL(e.limiter, "VGPRs");
    // Single-wave work-groups fill every SIMD, not the first one.
    e = wb::amd_occupancy(gfx90a, {96, 0, 16, 0, 64, 64});
    BOOST_CHECK_EQUAL(e.workgroups, 20);
    BOOST_CHECK_EQUAL(e.waves, 5);
    // The same rule for a work-group count from elsewhere (the runtime's).
    BOOST_CHECK_EQUAL(wb::amd_waves_per_simd(wb::amd_occupancy(gfx90a, {32, 0, 16, 0, 384, 64}), 5), 8); // 30 / 4
    BOOST_CHECK_EQUAL(wb::amd_waves_per_simd(e, 0), 0);
}

BOOST_AUTO_TEST_CASE(amd_lds_and_barriers_count_the_whole_wgp_in_wgp_mode)
{
    const wb::amd_target& gfx1030 = *wb::find_amd_target("gfx1030");
    // 512 work-items of wave32 with 40000 bytes of LDS (40448 in granules). WGP mode: 128 KiB hold 3
    // work-groups, 48 waves over 4 SIMDs; CU mode: 64 KiB hold 1, 16 waves over 2 SIMDs.
    auto e = wb::amd_occupancy(gfx1030, {64, 0, 16, 40000, 512, 32});
    BOOST_CHECK_EQUAL(e.workgroups, 3);
    BOOST_CHECK_EQUAL(e.waves, 12);
    BOOST_CHECK_EQUAL(e.limiter, "LDS");
    e = wb::amd_occupancy(gfx1030, {64, 0, 16, 40000, 512, 32, true});
    BOOST_CHECK_EQUAL(e.workgroups, 1);
    BOOST_CHECK_EQUAL(e.waves, 8);
    BOOST_CHECK_EQUAL(e.limiter, "LDS");
    // One work-group may allocate at most one CU's 64 KiB, in either mode.
    BOOST_CHECK_EQUAL(wb::amd_occupancy(gfx1030, {64, 0, 16, 70000, 512, 32}).waves, 0);
    BOOST_CHECK_EQUAL(wb::amd_occupancy(gfx1030, {64, 0, 16, 70000, 512, 32}).limiter, "LDS");
    // 96 work-items of wave64 (2 waves) on gfx1030 in CU mode: 16 barriers, 32 waves over 2 SIMDs: the
    // hardware limit and the slots tie, and the hardware is named first. gfx908: slots bind alone.
    e = wb::amd_occupancy(gfx1030, {8, 0, 16, 0, 96, 64, true});
    BOOST_CHECK_EQUAL(e.workgroups, 16);
    BOOST_CHECK_EQUAL(e.limiter, "waves");
    BOOST_CHECK_EQUAL(e.groups_by_slots, 16);
    BOOST_CHECK_EQUAL(wb::amd_occupancy(gfx1030, {8, 0, 16, 0, 96, 64}).groups_by_slots, 32); // WGP mode
    // Before gfx10 there is no WGP: cu_mode changes nothing.
    BOOST_CHECK_EQUAL(wb::amd_occupancy(*wb::find_amd_target("gfx90a"), {8, 0, 16, 0, 512, 64, true}).simds, 4);
}

// Over a sweep of launches: the figure is what the work-groups put on the busiest SIMD, within every
// per-SIMD limit, and one more work-group would break the limit the limiter names.
BOOST_AUTO_TEST_CASE(amd_occupancy_invariants_over_a_sweep)
{
    int checked = 0;
    for (const char* target : {"gfx908", "gfx90a", "gfx1030", "gfx1100"})
        for (int wave : {32, 64})
            for (bool cu_mode : {false, true})
                for (int block : {32, 64, 96, 128, 192, 256, 320, 384, 512, 640, 768, 1024})
                    for (int vgprs : {8, 24, 40, 56, 72, 96, 128, 168, 256})
                        for (int sgprs : {16, 90, 104})
                            for (int64_t lds : {0, 1, 4096, 20000, 40000}) {
                                const wb::amd_target& t = *wb::find_amd_target(target);
                                const auto e = wb::amd_occupancy(t, {vgprs, 0, sgprs, lds, block, wave, cu_mode});
                                BOOST_TEST_INFO(target << " wave" << wave << (cu_mode ? " CU mode" : "") << " block "
                                                       << block << " " << vgprs << " VGPRs " << sgprs << " SGPRs "
                                                       << lds << " LDS");
                                const int per_simd = std::min({e.vgpr_waves, e.sgpr_waves, e.max_waves});
                                BOOST_CHECK_LE(e.waves, per_simd);
                                BOOST_CHECK_EQUAL(e.waves, wb::amd_waves_per_simd(e, e.workgroups));
                                BOOST_CHECK_EQUAL(e.waves == 0, e.workgroups == 0);
                                BOOST_CHECK_LE(e.workgroups,
                                               std::min({e.groups_by_waves, e.groups_by_vgprs, e.groups_by_sgprs,
                                                         e.groups_by_lds, e.groups_by_slots}));
                                const int bound = e.limiter == "waves"   ? e.max_waves
                                                  : e.limiter == "VGPRs" ? e.vgpr_waves
                                                  : e.limiter == "SGPRs" ? e.sgpr_waves
                                                                         : -1;
                                if (bound >= 0) BOOST_CHECK_GT(wb::amd_waves_per_simd(e, e.workgroups + 1), bound);
                                ++checked;
                            }
    BOOST_CHECK_EQUAL(checked, 4 * 2 * 2 * 12 * 9 * 3 * 5);
}

} // namespace
