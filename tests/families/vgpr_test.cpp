// The vgpr family: both ways of writing seed 003's kernel verified on the cpu platform at both
// wavefront widths, at sizes where the output is not a whole number of work-groups, and the
// impossible shapes refused.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include "cpu_run.h"

BOOST_AUTO_TEST_SUITE(vgpr_test)

namespace {

BOOST_DATA_TEST_CASE(both_variants_are_verified, boost::unit_test::data::make({32, 64}), warp)
{
    cpu_run c(warp, false);
    BOOST_REQUIRE_EQUAL(c.variants("vgpr"), "density_expression,density_serial");
    const auto results = c.run(R"(
[[benchmark]]
family = "vgpr"
width = [24, 104, 1000]
height = [9, 77]
dist = [1, 2, 7]
threshold = [0, 40, 65535]
block_size = [32, 64]
)");
    BOOST_CHECK_EQUAL(results.size(), 2u * 3 * 2 * 3 * 3 * 2);
    for (const auto& r : results) {
        BOOST_TEST_INFO(describe(r));
        BOOST_CHECK(r.st == wb::status::verified);
    }
}

BOOST_AUTO_TEST_CASE(shapes_without_output_are_refused)
{
    cpu_run c(64, false);
    BOOST_CHECK_THROW(c.run("[[benchmark]]\nfamily = \"vgpr\"\nwidth = 12\nheight = 8\ndist = 2\n"), wb::suite_error);
    BOOST_CHECK_THROW(c.run("[[benchmark]]\nfamily = \"vgpr\"\nwidth = 16\nheight = 8\ndist = 9\n"), wb::suite_error);
    BOOST_CHECK_THROW(c.run("[[benchmark]]\nfamily = \"vgpr\"\nwidth = 64\nheight = 8\ndist = 8\n"), wb::suite_error);
}

} // namespace

BOOST_AUTO_TEST_SUITE_END()
