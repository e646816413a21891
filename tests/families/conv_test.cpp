// Every conv plugin verified on the cpu platform at both wavefront widths: sizes that are not
// multiples of the block size (and smaller than the kernel), 1 to 257 taps, every tiled shape.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include "cpu_run.h"

BOOST_AUTO_TEST_SUITE(conv_test)

namespace {

BOOST_DATA_TEST_CASE(every_variant_is_verified_at_awkward_sizes, boost::unit_test::data::make({32, 64}), warp)
{
    cpu_run c(warp, false);
    BOOST_REQUIRE_EQUAL(c.variants("conv"), "clamped,conditional,padded,tiled");
    const auto results = c.run(R"(
[[benchmark]]
family = "conv"
n = [0, 1, 5, 300, 4099]
m = [1, 3, 17, 257]
block_size = [32, 128]

[[benchmark]]
family = "conv"
variants = ["tiled"]
n = [10007]
m = [31, 65, 257]
block_size = [32, 64]
outputs = [4, 8, 16]
)");
    BOOST_CHECK_EQUAL(results.size(), 4u * 5 * 4 * 2 + 3 * 2 * 3);
    for (const auto& r : results) {
        BOOST_TEST_INFO(describe(r));
        BOOST_CHECK(r.st == wb::status::verified);
    }
}

BOOST_AUTO_TEST_CASE(the_kernel_that_runs_is_the_one_reported)
{
    cpu_run c(64, false);
    const auto r = c.run("[[benchmark]]\nfamily = \"conv\"\nvariants = [\"tiled\", \"padded\"]\nn = 999\nm = 33\n"
                         "outputs = [4, 16]\n");
    BOOST_REQUIRE_EQUAL(r.size(), 3u); // conditional (the baseline) is not selected: padded, tiled x 2
    for (const auto& x : r) {
        BOOST_TEST_INFO(describe(x));
        BOOST_REQUIRE_EQUAL(x.kernels.size(), 1u);
        if (x.variant == "tiled") {
            const int64_t outputs = std::get<int64_t>(x.tunables.at("outputs"));
            BOOST_CHECK_EQUAL(x.kernels[0].name, "conv_tiled<" + std::to_string(outputs) + ">");
            // the taps and the spread tile (from a 16-byte boundary, whole int4s): what the plugin launches with
            const int64_t words = (64 * outputs + 33 + 6) / 4 * 4;
            BOOST_CHECK_EQUAL(x.kernels[0].dynamic_lds_bytes, (33 + words + words / 32 + 1) * 4);
        } else {
            BOOST_CHECK_EQUAL(x.note, "padded input: 1031 elements");
            BOOST_CHECK_GT(x.prepare_ms, 0); // includes laying out the first inputs
        }
    }
}

BOOST_AUTO_TEST_CASE(an_even_number_of_taps_is_refused)
{
    cpu_run c(64, false);
    BOOST_CHECK_THROW(c.run("[[benchmark]]\nfamily = \"conv\"\nn = 10\nm = 4\n"), wb::suite_error);
}

} // namespace

BOOST_AUTO_TEST_SUITE_END()
