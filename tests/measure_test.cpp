// Measuring: the stopping criterion ends a configuration at its minimum repetitions and at its
// minimum time (and at the caps), a plan measured on the cpu platform yields verified results, and
// a group's datasets (made on a thread each) are those of their seeds and size, and there are enough
// input copies that a run finds none of its input in the cache.
#include <boost/test/unit_test.hpp>

#include "cpu_run.h"
#include "harness/measure/inputs.h"
#include "harness/measure/stopping.h"
#include "reference/reference.h"

BOOST_AUTO_TEST_SUITE(measure_test)

namespace {

wb::run_settings settings(int repetitions, double min_time_s, int max_samples = 100000, double max_time_s = 60)
{
    return {repetitions, 2, 7, min_time_s, max_samples, max_time_s, 10, 0};
}

bool enough(const wb::run_settings& s, int samples, double measured_ms, double elapsed_ms = 0)
{
    return wb::stopping_criterion_for(s)->enough({samples, measured_ms, elapsed_ms});
}

} // namespace

BOOST_AUTO_TEST_CASE(enough_input_copies_that_a_run_finds_none_of_its_input_cached)
{
    const size_t l2 = size_t(60) << 20, mib = size_t(1) << 20; // an H200's L2
    // Between two runs on one copy the others read at least twice the L2.
    for (const size_t in : {64 * mib, 60 * mib, 40 * mib, 16 * mib, 8 * mib}) {
        const size_t copies = wb::input_copies(l2, in);
        BOOST_TEST(copies >= 2u);
        BOOST_TEST((copies - 1) * in >= 2 * l2, in << " bytes: " << copies << " copies");
    }
    BOOST_TEST(wb::input_copies(l2, 64 * mib) == 3u);  // 2^24 ints: 2 copies would leave part cached
    BOOST_TEST(wb::input_copies(l2, 256 * mib) == 2u); // streams through the L2
    BOOST_TEST(wb::input_copies(l2, 1 * mib) == 16u);  // at most 16: all warm alike
    BOOST_TEST(wb::input_copies(l2, 0) == 2u);
    BOOST_TEST(wb::input_copies(0, 64 * mib) == 2u); // no cache reported
}

BOOST_AUTO_TEST_CASE(stops_at_the_minimum_repetitions_without_a_minimum_time)
{
    const auto s = settings(5, 0);
    BOOST_CHECK(!enough(s, -2, 0)); // the warm-up
    BOOST_CHECK(!enough(s, 0, 0));
    BOOST_CHECK(!enough(s, 4, 100));
    BOOST_CHECK(enough(s, 5, 0.001));
}

BOOST_AUTO_TEST_CASE(goes_on_past_the_repetitions_until_the_minimum_time)
{
    const auto s = settings(5, 0.5); // 500 ms of device time
    BOOST_CHECK(!enough(s, 5, 100));
    BOOST_CHECK(!enough(s, 50, 499));
    BOOST_CHECK(enough(s, 51, 500));
    BOOST_CHECK(!enough(s, 4, 10000)); // the repetitions come first, whatever the time
}

BOOST_AUTO_TEST_CASE(the_sample_and_wall_time_caps_end_a_long_minimum_time)
{
    BOOST_CHECK(enough(settings(5, 100, 20), 20, 1));
    BOOST_CHECK(!enough(settings(5, 100, 20), 19, 1));
    BOOST_CHECK(enough(settings(5, 100, 100000, 2), 10, 1, 2000));
    BOOST_CHECK(!enough(settings(5, 100, 100000, 2), 4, 1, 5000)); // not before the repetitions
}

BOOST_AUTO_TEST_CASE(a_tiny_plan_measured_on_the_cpu_platform_is_verified)
{
    cpu_run cpu(64, false);
    const auto results =
        cpu.run("[[benchmark]]\nfamily = \"reduce\"\nvariants = [\"atomic\", \"tree\"]\nn = 4099\n", 3);
    BOOST_REQUIRE_EQUAL(results.size(), 2u);
    for (const auto& r : results) {
        BOOST_TEST_INFO(describe(r));
        BOOST_CHECK(r.st == wb::status::verified);
        BOOST_CHECK_EQUAL(r.samples_ms.size(), 3u); // exactly the repetitions: no minimum time
        BOOST_CHECK_EQUAL(r.runs, 4);               // and the one warm-up run
        BOOST_CHECK_GT(r.runs_checked, 0);
        BOOST_CHECK_GT(r.metric_value, 0);
    }
}

BOOST_AUTO_TEST_CASE(the_datasets_made_on_threads_are_those_of_their_seeds_and_never_another_groups)
{
    cpu_run cpu(64, false);
    const wb::family& reduce = *wb::find_family("reduce");
    auto inputs = [&](int64_t n, uint64_t seed) {
        return std::make_unique<wb::group_inputs>(cpu.p, reduce, wb::param_map{{"n", n}}, seed);
    };
    const auto a = inputs(100003, 7);
    BOOST_REQUIRE(a->setup_error.empty());
    BOOST_REQUIRE_EQUAL(a->data.size(), 2u); // two datasets, made at once
    BOOST_CHECK_NE(a->data[0].seed, a->data[1].seed);
    for (const auto& d : a->data) { // each is what its seed makes, one at a time
        std::vector<wb::host_buffer> in{wb::host_buffer(wb::elem::i32, 100003)}, out{wb::host_buffer(wb::elem::i32, 1)};
        reduce.generate({{"n", int64_t(100003)}}, d.seed, in);
        BOOST_CHECK(d.inputs[0].bytes == in[0].bytes);
        wb::reference_of(reduce).compute({{"n", int64_t(100003)}}, in, out);
        BOOST_CHECK(d.expected[0].bytes == out[0].bytes);
    }
    BOOST_CHECK(a->check_intact().empty());
    // Another suite seed or size: other data, nothing kept from the group before.
    const auto b = inputs(100003, 8), c = inputs(100004, 7);
    BOOST_CHECK_NE(b->data[0].seed, a->data[0].seed);
    BOOST_CHECK(b->data[0].inputs[0].bytes != a->data[0].inputs[0].bytes);
    BOOST_CHECK_EQUAL(c->data[0].inputs[0].count(), 100004u);
    BOOST_CHECK_NE(c->data[0].seed, a->data[0].seed);
}

BOOST_AUTO_TEST_SUITE_END()
