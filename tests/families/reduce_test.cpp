// Every reduce plugin verified on the cpu platform at both wavefront widths, at sizes that are
// not multiples of the block size and with its tunables varied; and verification catching
// plugins that are wrong, silent, or right only once.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include "cpu_run.h"

#include <unistd.h>

BOOST_AUTO_TEST_SUITE(reduce_test)

namespace {

BOOST_DATA_TEST_CASE(every_variant_is_verified_at_awkward_sizes, boost::unit_test::data::make({32, 64}), warp)
{
    cpu_run c(warp, false);
    BOOST_REQUIRE_EQUAL(c.variants("reduce"),
                        "atomic,blocked_atomic,blocked_serial,blocked_tree,chunked,library,streamed,"
                        "strided,tree,tree_two_stage,unrolled,wavefront");

    const auto results = c.run(R"(
[[benchmark]]
family = "reduce"
n = [0, 1, 7, 255, 257, 100003]
block_size = [32, 256, 1024]

[[benchmark]]
family = "reduce"
variants = ["blocked_*"]
n = [5000]
items = [1, 3]

[[benchmark]]
family = "reduce"
variants = ["chunked"]
n = [5000]
batch = [1, 999]

[[benchmark]]
family = "reduce"
variants = ["strided", "wavefront"]
n = [5001]
work_items = [1, 33, 100000]

[[benchmark]]
family = "reduce"
variants = ["unrolled"]
n = [5001, 100003]
groups_per_mp = [1, 3]

[[benchmark]]
family = "reduce"
variants = ["streamed"]
n = [5001, 100003]
block_size = [64]
way = [0, 1, 2, 3, 4]
)");
    // library has no block_size: one configuration per n, skipped on cpu with the reason
    const size_t first = 11u * 6 * 3 + 6;
    BOOST_CHECK_EQUAL(results.size(), first + 3 * 2 + 2 + 2 * 3 + 2 * 2 + 2 * 5);
    for (size_t i = 0; i < results.size(); ++i) {
        const auto& r = results[i];
        BOOST_TEST_INFO(describe(r));
        if (r.variant == "library") {
            BOOST_CHECK(r.st == wb::status::skipped);
            BOOST_CHECK_NE(r.message.find("no vendor reduction library"), std::string::npos);
            continue;
        }
        if (r.variant == "streamed" && std::get<int64_t>(r.tunables.at("way")) == 4) { // bulk copies: sm_90
            BOOST_CHECK(r.st == wb::status::skipped);
            BOOST_CHECK_NE(r.message.find("compute capability 9.0"), std::string::npos);
            continue;
        }
        BOOST_CHECK(r.st == wb::status::verified);
        BOOST_CHECK_EQUAL(r.time_ms.samples, 2u);
        if (i < first) BOOST_CHECK(r.speedup_vs_baseline.has_value()); // atomic measured beside it
        BOOST_CHECK(!r.speedup_vs_library.has_value());
    }
}

const std::string one = "[[benchmark]]\nfamily = \"reduce\"\nn = [1000]\nvariants = [\"";

BOOST_AUTO_TEST_CASE(an_output_left_unwritten_fails_verification)
{
    cpu_run c(64, true);
    const auto r = c.run(one + "test_unwritten\"]\n");
    BOOST_REQUIRE_EQUAL(r.size(), 1u);
    BOOST_CHECK(r[0].st == wb::status::failed);
    BOOST_TEST_INFO(r[0].message);
    BOOST_CHECK_NE(r[0].message.find("run 1 (warm-up, 0xa5 poison"), std::string::npos);
    BOOST_CHECK_NE(r[0].message.find("got -1515870811"), std::string::npos); // 0xa5a5a5a5
}

BOOST_AUTO_TEST_CASE(a_wrong_value_fails_verification_naming_the_element)
{
    cpu_run c(64, true);
    const auto r = c.run(one + "test_off_by_one\", \"atomic\"]\n");
    BOOST_REQUIRE_EQUAL(r.size(), 2u);
    BOOST_CHECK(r[0].st == wb::status::verified); // the baseline, first
    BOOST_CHECK(r[1].st == wb::status::failed);
    BOOST_TEST_INFO(r[1].message);
    BOOST_CHECK_NE(r[1].message.find("output 'sum': element 0 of 1: expected "), std::string::npos);
    BOOST_CHECK(!r[1].speedup_vs_baseline.has_value());
}

BOOST_AUTO_TEST_CASE(every_run_is_verified_not_only_the_first)
{
    cpu_run c(64, true);
    const auto r = c.run(one + "test_goes_silent\"]\n");
    BOOST_REQUIRE_EQUAL(r.size(), 1u);
    BOOST_CHECK(r[0].st == wb::status::failed);
    BOOST_TEST_INFO(r[0].message);
    BOOST_CHECK_NE(r[0].message.find("run 2 (0x5a poison"), std::string::npos);
}

BOOST_AUTO_TEST_CASE(after_the_first_runs_every_tenth_is_checked_and_every_run_is_poisoned)
{
    // One warm-up, then every run up to 1 + 2 x input_sets is checked, then runs 10, 20, ... (from
    // 0). Silent from run 41 on (index 41): the next checked run is index 50, the 51st.
    cpu_run c(64, true);
    const std::string text = one + "test_goes_silent\"]\ncorrect_runs = 41\n";
    const auto tenth = c.run(text, 60);
    BOOST_REQUIRE_EQUAL(tenth.size(), 1u);
    BOOST_REQUIRE_LE(1 + 2 * tenth[0].input_sets, 41);
    BOOST_CHECK(tenth[0].st == wb::status::failed);
    BOOST_TEST_INFO(tenth[0].message);
    BOOST_CHECK_NE(tenth[0].message.find("run 51 ("), std::string::npos);
    BOOST_CHECK_EQUAL(tenth[0].runs, 51);
    BOOST_CHECK_EQUAL(tenth[0].runs_checked, 1 + 2 * tenth[0].input_sets + 6 - (1 + 2 * tenth[0].input_sets + 9) / 10);
    const auto every = c.run(text, 60, 1);
    BOOST_TEST_INFO(every[0].message);
    BOOST_CHECK_NE(every[0].message.find("run 42 ("), std::string::npos);
    BOOST_CHECK_EQUAL(every[0].runs_checked, 42);
}

BOOST_AUTO_TEST_CASE(a_plugin_that_replays_an_earlier_answer_fails)
{
    cpu_run c(64, true);
    const auto r = c.run(one + "test_replays\"]\n");
    BOOST_REQUIRE_EQUAL(r.size(), 1u);
    BOOST_REQUIRE_EQUAL(r[0].seeds.size(), 2u); // two datasets alternate
    BOOST_CHECK_NE(r[0].seeds[0], r[0].seeds[1]);
    BOOST_CHECK(r[0].st == wb::status::failed);
    BOOST_TEST_INFO(r[0].message);
    BOOST_CHECK_NE(r[0].message.find("run 2 (0x5a poison, input seed " + std::to_string(r[0].seeds[1])),
                   std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_plugin_that_writes_into_its_inputs_fails_and_the_next_one_is_unharmed)
{
    cpu_run c(64, true);
    const auto r = c.run(one + "test_writes_input\", \"atomic\", \"tree\"]\n");
    BOOST_REQUIRE_EQUAL(r.size(), 3u);
    BOOST_CHECK_EQUAL(r[0].variant, "atomic");
    BOOST_CHECK(r[0].st == wb::status::verified);
    // tree runs after test_writes_input in name order: its inputs were restored
    const auto& culprit = r[1].variant == "test_writes_input" ? r[1] : r[2];
    const auto& next = r[1].variant == "tree" ? r[1] : r[2];
    BOOST_CHECK(culprit.st == wb::status::failed);
    BOOST_TEST_INFO(culprit.message);
    BOOST_CHECK_NE(culprit.message.find("the plugin changed its input 'in' (copy 1 of "), std::string::npos);
    BOOST_CHECK_NE(culprit.message.find("element 0 of 1000"), std::string::npos);
    BOOST_CHECK(next.st == wb::status::verified);
}

BOOST_AUTO_TEST_CASE(plugin_errors_and_skips_reach_the_results)
{
    cpu_run c(64, true);
    const auto r = c.run(one + "test_errors\"]\nmode = [0, 1]\n");
    BOOST_REQUIRE_EQUAL(r.size(), 2u);
    BOOST_CHECK(r[0].st == wb::status::error);
    BOOST_TEST_INFO(r[0].message);
    BOOST_CHECK_NE(r[0].message.find("run failed: "), std::string::npos);
    BOOST_CHECK_NE(r[0].message.find("hipErrorInvalidConfiguration"), std::string::npos);
    BOOST_CHECK_NE(r[0].message.find("test_errors.hip:"), std::string::npos); // HIP_CHECK's file:line
    BOOST_CHECK(r[1].st == wb::status::skipped);
    BOOST_CHECK_EQUAL(r[1].message, "mode 1 is not supported by this test plugin");
}

boost::test_tools::assertion_result smaller_than_64_gib(boost::unit_test::test_unit_id)
{
    boost::test_tools::assertion_result r(double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE)) < 70e9);
    r.message() << "this machine could hold 64 GiB of input";
    return r;
}

BOOST_AUTO_TEST_CASE(a_size_the_machine_cannot_hold_is_an_error_and_the_rest_still_run,
                     *boost::unit_test::precondition(smaller_than_64_gib))
{
    cpu_run c(64, false);
    const auto r = c.run("[[benchmark]]\nfamily = \"reduce\"\nvariants = [\"atomic\"]\nn = [17179869184, 100]\n");
    BOOST_REQUIRE_EQUAL(r.size(), 2u);
    BOOST_CHECK(r[0].st == wb::status::error);
    BOOST_TEST_INFO(r[0].message);
    BOOST_CHECK_NE(r[0].message.find("needs 64.0 GiB of host memory"), std::string::npos);
    BOOST_CHECK(r[1].st == wb::status::verified);
}

BOOST_AUTO_TEST_CASE(results_carry_kernel_resources_and_the_plugins_note)
{
    cpu_run c(64, false);
    const auto r = c.run("[[benchmark]]\nfamily = \"reduce\"\nn = 3000\nvariants = [\"tree\", \"strided\"]\n");
    BOOST_REQUIRE_EQUAL(r.size(), 2u);
    const auto& strided = r[0].variant == "strided" ? r[0] : r[1];
    const auto& tree = r[0].variant == "tree" ? r[0] : r[1];
    BOOST_CHECK_EQUAL(strided.note, "work_items=" + std::to_string(c.p->device().multiprocessors * 1024));
    BOOST_REQUIRE_EQUAL(tree.kernels.size(), 1u);
    BOOST_CHECK_EQUAL(tree.kernels[0].name, "reduce_tree_groups");
    BOOST_CHECK_EQUAL(tree.kernels[0].block_size, 256);
    BOOST_CHECK_EQUAL(tree.kernels[0].dynamic_lds_bytes, 1024);
    BOOST_REQUIRE(tree.kernels[0].occ.has_value());
    BOOST_CHECK_EQUAL(tree.kernels[0].occ->value, 1);
    BOOST_CHECK_GT(tree.input_sets, 1); // 12 kB of input is rotated through many copies
}

} // namespace

BOOST_AUTO_TEST_SUITE_END()
