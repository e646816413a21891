// core: the comparison helper and the statistics every result is built from.
#define BOOST_TEST_MODULE core
#include <boost/test/unit_test.hpp>

#include "core/compare.h"
#include "core/occupancy.h"
#include "core/random.h"
#include "core/stats.h"

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
        {128, 34, 512, 12, 48, "registers"},  // reduce_blocked_*: 1088 registers a warp round up to 1280
        {1024, 34, 4096, 1, 32, "registers"},
        {1024, 10, 4096, 2, 64, "warps"},     // reduce_tree_stage2
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
    BOOST_CHECK_EQUAL(waves("gfx908", 32, 64), 4);  // max(VGPRs, AGPRs): 256 / 64
    BOOST_CHECK_EQUAL(waves("gfx908", 16, 0, 96), 8); // 96 SGPRs: 8 waves
    BOOST_CHECK_EQUAL(waves("gfx908", 16, 0, 104), 7);
    const auto e = wb::amd_occupancy(*wb::find_amd_target("gfx908"), {16, 0, 90, 0, 256, 64});
    BOOST_CHECK_EQUAL(e.waves, 8);
    BOOST_CHECK_EQUAL(e.limiter, "SGPRs");
}

BOOST_AUTO_TEST_CASE(amd_occupancy_on_rdna_in_wave32_and_wave64)
{
    // gfx1030: 1024 VGPRs per SIMD in wave32 (granule 16), 512 in wave64 (granule 8); 16 waves
    BOOST_CHECK_EQUAL(waves("gfx1030", 64, 0, 16, 0, 256, 32), 16);
    BOOST_CHECK_EQUAL(waves("gfx1030", 96, 0, 16, 0, 256, 32), 10);
    BOOST_CHECK_EQUAL(waves("gfx1030", 128, 0, 16, 0, 256, 64), 4);
    BOOST_CHECK_EQUAL(waves("gfx1030", 40, 0, 16, 0, 256, 64), 12);
    BOOST_CHECK_EQUAL(waves("gfx1030", 200, 0, 200, 0, 256, 32), 4); // 1024 / 208; no SGPR limit on gfx10
    // gfx1100: 1536 VGPRs per SIMD in wave32 (granule 24), 768 in wave64 (granule 12)
    BOOST_CHECK_EQUAL(waves("gfx1100", 96, 0, 16, 0, 256, 32), 16);
    BOOST_CHECK_EQUAL(waves("gfx1100", 128, 0, 16, 0, 256, 32), 10); // 1536 / 144
    BOOST_CHECK_EQUAL(waves("gfx1100", 128, 0, 16, 0, 256, 64), 5);  // 768 / 132
    BOOST_CHECK(wb::find_amd_target("gfx1200") == nullptr);
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

} // namespace
