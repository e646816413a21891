// The counters' plumbing without a GPU (harness/counters/counters.h): launches named after the
// plugin's kernels, the occupancy notes, the summaries' weights, the JSON both ways, and the stated
// skip where no profiler can be had (amd without rocprofiler-sdk, nvidia without libcupti).
#include <boost/test/unit_test.hpp>

#include "harness/counters/counters.h"
#include "harness/report/compare.h"

#include <cstdlib>

BOOST_AUTO_TEST_SUITE(counter_readings_test)

using namespace wb;

namespace {

launch_counters launch(std::string kernel, std::map<std::string, double> values)
{
    return {std::move(kernel), std::move(values), ""};
}

} // namespace

BOOST_AUTO_TEST_CASE(launches_take_the_plugins_names)
{
    counter_readings c;
    c.launches = {launch("void conv_tiled<4>(float const*, float*, int)", {}),
                  launch("reduce_atomic(int const*, int*, unsigned long)", {}),
                  launch("xreduce_atomic(int const*)", {}),
                  launch("void cub::DeviceReduceKernel<int>(int const*)", {}),
                  launch("", {}),
                  launch("void (anonymous namespace)::reduce_streamed<false, 4>(int4 const*)", {})};
    name_launches(c, {"conv_tiled<4>", "reduce_atomic", "reduce_streamed<way>"});
    BOOST_TEST(c.launches[0].kernel == "conv_tiled<4>");
    BOOST_TEST(c.launches[1].kernel == "reduce_atomic");
    BOOST_TEST(c.launches[2].kernel == "xreduce_atomic(int const*)"); // another name that ends alike
    BOOST_TEST(c.launches[3].kernel == "void cub::DeviceReduceKernel<int>(int const*)");
    BOOST_TEST(c.launches[4].kernel == "launch 5");             // unnamed, and two kernels it could be
    BOOST_TEST(c.launches[5].kernel == "reduce_streamed<way>"); // the one kernel of that identifier

    counter_readings one;
    one.launches = {launch("", {})};
    name_launches(one, {"reduce_tree"});
    BOOST_TEST(one.launches[0].kernel == "reduce_tree");
}

BOOST_AUTO_TEST_CASE(occupancy_short_of_the_static_figure_says_why)
{
    auto note = [](double achieved, double blocks) {
        launch_counters l = launch("k", {{"achieved_occupancy", achieved}, {"blocks", blocks}});
        explain_occupancy(l, 1.0, 8, 132, "warps");
        return l.note;
    };
    BOOST_TEST(note(0.95, 100).empty()); // within the margin
    BOOST_TEST(note(0.40, 100).find("achieved occupancy 40% against 100% static: launch too small: 100 blocks for "
                                    "1056 resident at once (132 multiprocessors x 8)") == 0);
    BOOST_TEST(note(0.70, 1584).find("tail effect: 1.50 waves of blocks (the last 50% full)") != std::string::npos);
    BOOST_TEST(note(0.66, 1056).find("tail effect: 1.00 waves of blocks (the last 100% full)") != std::string::npos);
    BOOST_TEST(note(0.75, 65536).find("likely short blocks") != std::string::npos);
    BOOST_TEST(note(0.75, 65536).find("limited by warps") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(summaries_weigh_launches_by_instructions_and_time)
{
    counter_readings c;
    c.launches = {
        launch("a", {{"simt_efficiency", 0.5},
                     {"instructions", 100},
                     {"achieved_occupancy", 0.2},
                     {"duration_ns", 1000},
                     {"dram_read_bytes", 10}}),
        launch("b",
               {{"simt_efficiency", 1.0}, {"instructions", 300}, {"achieved_occupancy", 0.6}, {"duration_ns", 3000}})};
    BOOST_TEST(*overall_simt(c) == 0.875);
    BOOST_TEST(*overall_occupancy(c) == 0.5);
    BOOST_TEST(*total_of(c, "dram_read_bytes") == 10);
    BOOST_TEST(!total_of(c, "dram_write_bytes"));
    BOOST_TEST(!overall_simt(counter_readings{}));
    c.provider = "test", c.work = 40, c.work_unit = "B";
    const std::string line = counters_line(c, 0.8);
    BOOST_TEST(line.find("simt 87.5%, the model's 80.0% (+7.5 points)") != std::string::npos, line);
    BOOST_TEST(line.find("(0.25x the bytes counted)") != std::string::npos, line);
}

BOOST_AUTO_TEST_CASE(json_round_trip)
{
    counter_readings c;
    c.provider = "cupti range profiler";
    c.passes = 3;
    c.skipped = "not on this GPU: x";
    c.work = 1024, c.work_unit = "B";
    c.launches = {launch("k", {{"simt_efficiency", 0.25}, {"dram_read_bytes", 2048}, {"instructions", 64}})};
    c.launches[0].note = "why";
    const nlohmann::json j = counters_json(c);
    BOOST_TEST(j["dram_bytes_per_work"].get<double>() == 2.0);
    BOOST_TEST(j["instructions_per_work"].get<double>() == 0.0625);
    BOOST_TEST(j["simt_efficiency"].get<double>() == 0.25);
    const counter_readings back = counters_from_json(j);
    BOOST_TEST(back.provider == c.provider);
    BOOST_TEST(back.passes == 3);
    BOOST_TEST(back.skipped == c.skipped);
    BOOST_TEST(back.work == 1024);
    BOOST_TEST(back.launches.size() == 1u);
    BOOST_TEST(back.launches[0].note == "why");
    BOOST_TEST((back.launches[0].values == c.launches[0].values));
    BOOST_TEST(counters_from_json(nlohmann::json("not an object")).launches.empty());
}

BOOST_AUTO_TEST_CASE(no_profiler_is_a_stated_skip)
{
    for (const platform_kind kind : platform::built()) {
        if (kind == platform_kind::cpu) continue;
        ::setenv("WAVEBENCH_CUPTI_LIBRARY", "/nonexistent/libcupti.so.13", 1);
        ::setenv("WAVEBENCH_ROCPROFILER_LIBRARY", "/nonexistent/librocprofiler-sdk.so.1", 1);
        const auto p = platform::load(kind); // not started: no device is needed to be refused
        std::string why;
        BOOST_TEST(!counter_provider_for(*p, why));
        BOOST_TEST(why.find("/nonexistent/") != std::string::npos, why);
        BOOST_TEST(why.find(kind == platform_kind::amd ? "rocprofiler-sdk" : "cannot load") != std::string::npos, why);
        int ran = 0;
        const counter_readings c = read_counters(*p, [&] { ++ran; });
        BOOST_TEST(ran == 1); // the pass runs all the same
        BOOST_TEST(c.provider.empty());
        BOOST_TEST(c.skipped == why);
    }
}

BOOST_AUTO_TEST_CASE(compare_lists_measured_changes_with_the_resources)
{
    auto doc = [](double simt, double occ) {
        return nlohmann::json{
            {"counters",
             {{"launches",
               {{{"kernel", "k"}, {"values", {{"simt_efficiency", simt}, {"achieved_occupancy", occ}}}}}}}}};
    };
    const nlohmann::json changes = resource_changes(doc(0.50, 0.80), doc(0.40, 0.78));
    BOOST_TEST(changes.size() == 1u); // occupancy moved 2 points: within its margin of 5
    BOOST_TEST(changes[0]["field"] == "simt_efficiency_pct");
    BOOST_TEST(changes[0]["base"].get<double>() == 50.0);
    BOOST_TEST(changes[0]["new"].get<double>() == 40.0);
    BOOST_TEST(changes[0]["worse"].get<bool>());
    // Malformed counters are no change, not an exception.
    for (const char* bad :
         {R"({"counters": {"launches": [{"kernel": "k", "values": null}]}})", R"({"counters": {"launches": 3}})",
          R"({"counters": [1]})", R"({"counters": {"launches": [{"kernel": 1, "values": {}}]}})"})
        BOOST_TEST(resource_changes(nlohmann::json::parse(bad), doc(0.5, 0.5)).empty());
    // Launches without a kernel name on both sides still compare, named "?".
    auto unnamed = [](double simt) {
        return nlohmann::json{{"counters", {{"launches", {{{"values", {{"simt_efficiency", simt}}}}}}}}};
    };
    const nlohmann::json u = resource_changes(unnamed(0.1), unnamed(0.9));
    BOOST_TEST(u.size() == 1u);
    BOOST_TEST(u[0]["kernel"] == "?");
    BOOST_TEST(!u[0]["worse"].get<bool>());
}

BOOST_AUTO_TEST_SUITE_END()
