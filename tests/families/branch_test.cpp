// The branch family: every pair verified on the cpu platform at both wavefront widths, for both
// distributions, at sizes that are not multiples of the block size; the seed's own multiple-if
// rewrite of calSlotIdInQuadrant6 fails verification.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include "cpu_run.h"
#include "wavebench/families/branch.h"

BOOST_AUTO_TEST_SUITE(branch_test)

namespace {

BOOST_DATA_TEST_CASE(every_pair_is_verified_for_both_distributions, boost::unit_test::data::make({32, 64}), warp)
{
    cpu_run c(warp, false);
    BOOST_REQUIRE_EQUAL(c.variants("branch"),
                        "call_ifelse,call_swapped,mode_ifchain,mode_lookup,slot_ifelse,slot_multiif,"
                        "subd_merged,subd_switch");
    std::string suite;
    for (const char* k : {"call", "mode", "slot", "subd"})
        suite += std::string("[[benchmark]]\nfamily = \"branch\"\nvariants = [\"") + k + "_*\"]\nkernel = \"" + k +
                 "\"\nn = [0, 1, 63, 4099]\ndistribution = [\"divergent\", \"uniform\"]\n"
                 "block_size = [64, 256]\n";
    const auto results = c.run(suite);
    BOOST_CHECK_EQUAL(results.size(), 4u * 2 * 4 * 2 * 2);
    for (const auto& r : results) {
        BOOST_TEST_INFO(describe(r));
        BOOST_CHECK(r.st == wb::status::verified);
    }
}

BOOST_AUTO_TEST_CASE(a_variant_asked_for_another_kernel_is_skipped_with_the_reason)
{
    cpu_run c(64, false);
    const auto r =
        c.run("[[benchmark]]\nfamily = \"branch\"\nvariants = [\"call_swapped\"]\nkernel = \"mode\"\nn = 10\n");
    BOOST_REQUIRE_EQUAL(r.size(), 1u);
    BOOST_CHECK(r[0].st == wb::status::skipped);
    BOOST_CHECK_EQUAL(r[0].message, "this variant solves kernel = call, not mode");
}

BOOST_AUTO_TEST_CASE(the_seeds_literal_slot_rewrite_fails_verification)
{
    // The seed's "multiple if" version chains its last tests with else: 0.1 gives 3, not 5.
    BOOST_CHECK_EQUAL(wb::branch::slot_chain(0.1f), 5u);
    BOOST_CHECK_EQUAL(wb::branch::slot_chain(0.6f), 3u);
    cpu_run c(64, true);
    const auto r =
        c.run("[[benchmark]]\nfamily = \"branch\"\nvariants = [\"slot_multiif\", \"test_slot_seed_literal\"]\n"
              "kernel = \"slot\"\nn = 1000\n");
    BOOST_REQUIRE_EQUAL(r.size(), 2u);
    BOOST_CHECK(r[0].st == wb::status::verified); // the correct rewrite
    BOOST_CHECK(r[1].st == wb::status::failed);
    BOOST_TEST_INFO(r[1].message);
    BOOST_CHECK_NE(r[1].message.find("run 1 (warm-up"), std::string::npos);
    BOOST_CHECK_NE(r[1].message.find("output 'out': element"), std::string::npos);
}

} // namespace

BOOST_AUTO_TEST_SUITE_END()
