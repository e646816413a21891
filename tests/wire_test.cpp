// The worker protocol: every field of a result survives the trip through the wire, and a
// message that is not one is an error, never a result made up.
#include <boost/test/unit_test.hpp>

#include "harness/worker/wire.h"

BOOST_AUTO_TEST_SUITE(wire_test)

namespace {

wb::result full_result()
{
    wb::result r;
    r.family = "reduce";
    r.variant = "tree";
    r.family_params = {{"n", int64_t(1000)}, {"p", 0.5}, {"pattern", std::string("random")}};
    r.tunables = {{"block_size", int64_t(256)}};
    r.st = wb::status::failed;
    r.message = "run 3: wrong";
    r.where = wb::stage::verify;
    r.note = "a note";
    r.seeds = {7, 8};
    r.input_sets = 2;
    r.working_set_bytes = 123456;
    r.runs = 5;
    r.runs_checked = 3;
    r.time_ms = {1, 2, 3, 2.5, 0.1, 3};
    r.wall_ms = {1.5, 2.5, 3.5, 3, 0.2, 3};
    r.samples_ms = {1, 2, 3};
    r.wall_samples_ms = {1.5, 2.5, 3.5};
    r.prepare_ms = 4.5;
    r.metric_value = 12.25;
    r.model_speedup = 1.5;
    r.model_issue_speedup = std::nullopt;
    r.noisy = true;
    wb::kernel_report k;
    k.name = "reduce_tree";
    k.block_size = 256;
    k.dynamic_lds_bytes = 1024;
    k.resources = {32, 64, 0, 1024, 4};
    r.kernels.push_back(k);
    double part = 0.5;
    for (const auto& [name, member] : wb::wall_time_parts) r.wall.*member = part += 1; // each part its own value
    return r;
}

} // namespace

BOOST_AUTO_TEST_CASE(every_result_field_round_trips)
{
    const wb::result r = full_result();
    // Through the text a worker writes, as the harness reads it.
    const auto line = wb::wire::result_answer(r, 9.5).dump();
    const auto answer = nlohmann::json::parse(line);
    BOOST_CHECK_EQUAL(answer.at("busy_ms").get<double>(), 9.5);
    const wb::result back = wb::wire::result_from(answer.at("result"));
    // What travels is everything to_json writes: the same JSON again means every field came back.
    BOOST_CHECK_EQUAL(wb::wire::to_json(back).dump(), wb::wire::to_json(r).dump());
    BOOST_CHECK_EQUAL(back.family, r.family);
    BOOST_CHECK_EQUAL(back.variant, r.variant);
    BOOST_CHECK(back.family_params == r.family_params);
    BOOST_CHECK(back.tunables == r.tunables);
    BOOST_CHECK(back.st == r.st);
    BOOST_CHECK(back.where == r.where);
    BOOST_CHECK_EQUAL(back.message, r.message);
    BOOST_CHECK_EQUAL(back.note, r.note);
    BOOST_CHECK(back.seeds == r.seeds);
    BOOST_CHECK_EQUAL(back.input_sets, r.input_sets);
    BOOST_CHECK_EQUAL(back.working_set_bytes, r.working_set_bytes);
    BOOST_CHECK_EQUAL(back.runs, r.runs);
    BOOST_CHECK_EQUAL(back.runs_checked, r.runs_checked);
    BOOST_CHECK_EQUAL(back.time_ms.median, r.time_ms.median);
    BOOST_CHECK_EQUAL(back.wall_ms.rel_stddev, r.wall_ms.rel_stddev);
    BOOST_CHECK(back.samples_ms == r.samples_ms);
    BOOST_CHECK(back.wall_samples_ms == r.wall_samples_ms);
    BOOST_CHECK_EQUAL(back.prepare_ms, r.prepare_ms);
    BOOST_CHECK_EQUAL(back.metric_value, r.metric_value);
    BOOST_CHECK(back.model_speedup == r.model_speedup);
    BOOST_CHECK(!back.model_issue_speedup);
    BOOST_CHECK_EQUAL(back.noisy, r.noisy);
    for (const auto& [name, member] : wb::wall_time_parts) BOOST_CHECK_EQUAL(back.wall.*member, r.wall.*member);
    BOOST_REQUIRE_EQUAL(back.kernels.size(), 1u);
    BOOST_CHECK_EQUAL(back.kernels[0].name, "reduce_tree");
    BOOST_CHECK_EQUAL(back.kernels[0].dynamic_lds_bytes, 1024);
    BOOST_CHECK_EQUAL(back.kernels[0].resources.registers, 32);
}

BOOST_AUTO_TEST_CASE(an_ab_result_carries_its_base_builds)
{
    wb::result r = full_result();
    wb::result base = full_result();
    base.samples_ms = {4, 5, 6};
    base.st = wb::status::failed;
    r.ab_base = std::make_shared<wb::result>(base);
    r.ab_order = "BNB";
    const wb::result back = wb::wire::result_from(nlohmann::json::parse(wb::wire::to_json(r).dump()));
    BOOST_REQUIRE(back.ab_base);
    BOOST_CHECK(back.ab_base->samples_ms == base.samples_ms);
    BOOST_CHECK(back.ab_base->st == wb::status::failed);
    BOOST_CHECK_EQUAL(back.ab_order, "BNB");
    BOOST_CHECK(!wb::wire::result_from(wb::wire::to_json(full_result())).ab_base); // none outside A/B runs
    // The base build's files load apart from the others.
    BOOST_CHECK(wb::wire::load_request({"a.so"}, true).value("base", false));
    BOOST_CHECK(!wb::wire::load_request({"a.so"}).value("base", false));
}

BOOST_AUTO_TEST_CASE(settings_round_trip)
{
    const wb::run_settings s{7, 2, 99, 0.25, 500, 12, 3, 30};
    const wb::run_settings back = wb::wire::settings_from(nlohmann::json::parse(wb::wire::to_json(s).dump()));
    BOOST_CHECK_EQUAL(back.repetitions, 7);
    BOOST_CHECK_EQUAL(back.warmup, 2);
    BOOST_CHECK_EQUAL(back.seed, 99u);
    BOOST_CHECK_EQUAL(back.min_time_s, 0.25);
    BOOST_CHECK_EQUAL(back.max_samples, 500);
    BOOST_CHECK_EQUAL(back.max_time_s, 12);
    BOOST_CHECK_EQUAL(back.verify_every, 3);
    BOOST_CHECK_EQUAL(back.timeout_s, 30);
    BOOST_CHECK(!back.energy);
    const wb::run_settings with_energy{7, 2, 99, 0.25, 500, 12, 3, 30, true};
    BOOST_CHECK(wb::wire::settings_from(wb::wire::to_json(with_energy)).energy);
}

BOOST_AUTO_TEST_CASE(telemetry_travels_and_a_result_without_it_reads_as_none)
{
    wb::result r = full_result();
    r.telemetry.source = "nvml";
    r.telemetry.sm_mhz = {1980, 1755};
    r.telemetry.mem_mhz = {2619, 2619};
    r.telemetry.temp_c = {41, 42};
    r.telemetry.power_w = {300, 310};
    r.telemetry.reasons = {0, 4};
    r.telemetry.throttled = {1};
    r.telemetry.throttle_reasons = "sw_power_cap";
    r.telemetry.energy_asked = true;
    r.telemetry.energy_j = 4.5;
    r.telemetry.energy_runs = 900;
    r.telemetry.work_unit = "B";
    const wb::result back = wb::wire::result_from(nlohmann::json::parse(wb::wire::to_json(r).dump()));
    BOOST_CHECK(back.telemetry.sm_mhz == r.telemetry.sm_mhz);
    BOOST_CHECK(back.telemetry.throttled == r.telemetry.throttled);
    BOOST_CHECK_EQUAL(back.telemetry.throttle_reasons, "sw_power_cap");
    BOOST_CHECK_EQUAL(back.telemetry.energy_j, 4.5);
    BOOST_CHECK_EQUAL(back.telemetry.energy_runs, 900);
    nlohmann::json older = wb::wire::to_json(r);
    older.erase("telemetry"); // a worker of an older build
    BOOST_CHECK(wb::wire::result_from(older).telemetry.source.empty());
}

BOOST_AUTO_TEST_CASE(a_malformed_line_is_an_error)
{
    // Not JSON at all: what a plugin printing on the answer pipe would leave.
    BOOST_CHECK(nlohmann::json::parse("garbage {", nullptr, false).is_discarded());
    // JSON, but no result: a field missing, a field of the wrong type, a status out of range,
    // more samples than runs.
    auto with = [](const char* key, const nlohmann::json& v) {
        nlohmann::json j = wb::wire::to_json(full_result());
        if (v.is_null())
            j.erase(key);
        else
            j[key] = v;
        return j;
    };
    BOOST_CHECK_THROW(wb::wire::result_from(with("message", nullptr)), std::exception);
    BOOST_CHECK_THROW(wb::wire::result_from(with("runs", "five")), std::exception);
    BOOST_CHECK_THROW(wb::wire::result_from(with("status", 1000)), std::exception);
    BOOST_CHECK_THROW(wb::wire::result_from(with("samples", nlohmann::json::array({{1, 2, 3, 4, 5, 6}, {}}))),
                      std::exception);
    BOOST_CHECK_THROW(wb::wire::result_from(nlohmann::json::parse("[1, 2]")), std::exception);
    BOOST_CHECK_THROW(wb::wire::kind_of(nlohmann::json::parse("{\"hello\": 1}")), std::exception);
}

BOOST_AUTO_TEST_CASE(requests_say_what_they_ask)
{
    BOOST_CHECK(wb::wire::kind_of(wb::wire::load_request({"a.so", "b.so"})) == wb::wire::request_kind::load);
    BOOST_CHECK(wb::wire::files_of_load(wb::wire::load_request({"a.so", "b.so"})) ==
                std::vector<std::string>({"a.so", "b.so"}));
    BOOST_CHECK(wb::wire::kind_of(wb::wire::lane_costs_request()) == wb::wire::request_kind::lane_costs);
}

BOOST_AUTO_TEST_CASE(a_wall_time_of_the_wrong_length_is_refused)
{
    nlohmann::json j = wb::wire::to_json(full_result());
    j["wall_time"].erase(0);
    BOOST_CHECK_THROW(wb::wire::result_from(j), std::runtime_error);
    j["wall_time"] = "not an array";
    BOOST_CHECK_THROW(wb::wire::result_from(j), std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()
