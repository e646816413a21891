// harness/report/calibration.h: the calibration of A/A rounds built here. Identical code whose
// pairs scatter within a run gets a least threshold that grows with that scatter; a spread from
// round to round beyond it (what the pairing does not remove) raises it further and cannot be
// bought off with samples; the rounds the gate flagged are counted at each threshold; rounds that
// are no A/B runs or come from two devices are refused; a calibration file is read back.
#include <boost/test/unit_test.hpp>

#include "results_docs.h"

#include "harness/report/calibration.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

BOOST_AUTO_TEST_SUITE(calibration_test)

namespace {

using json = nlohmann::json;

/// An A/B round: configuration `variant` with `pairs` pairs whose log ratio is `shift` plus noise
/// of `noise` (a fraction), from generator `g`.
json ab_result(const std::string& variant, int pairs, double noise, double shift, std::mt19937_64& g)
{
    std::normal_distribution<double> e(0, noise);
    std::vector<double> base, now;
    for (int i = 0; i < pairs; ++i) {
        const double t = 1.0 + 0.01 * (i % 7); // drift that both sides share
        base.push_back(t);
        now.push_back(t * std::exp(shift + e(g)));
    }
    return {{"family", "reduce"},
            {"variant", variant},
            {"params", {{"n", 1024}}},
            {"status", "verified"},
            {"samples_ms", now},
            {"ab",
             {{"base",
               {{"family", "reduce"},
                {"variant", variant},
                {"params", {{"n", 1024}}},
                {"status", "verified"},
                {"samples_ms", base}}},
              {"order", "BN"},
              {"block", 5}}}};
}

wb::run_input round_of(const std::string& label, const std::vector<json>& results, const std::string& device = "GPU")
{
    wb::run_input in = wb_test::results_run(label, results, device, "nvidia");
    in.doc["ab"] = {{"baseline_plugins", "/copy"}, {"missing", json::array()}, {"block", 5}};
    return in;
}

const json& row(const json& cal, const std::string& variant)
{
    for (const json& r : cal["configurations"])
        if (r["variant"] == variant) return r;
    throw std::runtime_error("no row " + variant);
}

} // namespace

BOOST_AUTO_TEST_CASE(scatter_within_and_between_runs_sets_the_least_threshold)
{
    std::mt19937_64 g(7);
    std::normal_distribution<double> run_shift(0, 0.01); // 1% from round to round: an excess
    std::vector<wb::run_input> rounds;
    for (int k = 0; k < 8; ++k)
        rounds.push_back(round_of("round " + std::to_string(k),
                                  {ab_result("quiet", 200, 0.002, 0, g), ab_result("loud", 200, 0.1, 0, g),
                                   ab_result("drifting", 200, 0.002, run_shift(g), g)}));
    const json cal = wb::calibrate_rounds(rounds, {});
    const json &quiet = row(cal, "quiet"), &loud = row(cal, "loud"), &drifting = row(cal, "drifting");
    BOOST_TEST(cal["rounds"] == 8);
    BOOST_TEST(quiet["gateable"].get<bool>());
    // Quiet pairs: gateable well under 1%; loud ones only at several %.
    BOOST_TEST(quiet["min_threshold"].get<double>() < 0.005);
    BOOST_TEST(loud["min_threshold"].get<double>() > 0.01);
    BOOST_TEST(quiet["excess_sd"].get<double>() < 0.002);
    // The spread between rounds is the drifting one's: as tight as quiet within a run, far apart between.
    BOOST_TEST(drifting["within_run_se"].get<double>() < 2 * quiet["within_run_se"].get<double>());
    BOOST_TEST(drifting["excess_sd"].get<double>() > 0.004);
    BOOST_TEST(drifting["min_threshold"].get<double>() > 0.015);
    // Samples buy off the within-run noise, not the spread between runs.
    BOOST_TEST(loud["pairs_needed"]["2"].is_number());
    BOOST_TEST(loud["pairs_needed"]["2"].get<double>() > 200);
    BOOST_TEST(quiet["pairs_needed"]["0.5"].get<double>() <= 200);
    BOOST_TEST(drifting["pairs_needed"]["0.5"].is_null());
    // The 80% detectable change is above the threshold where noise is large.
    BOOST_TEST(loud["detectable_80"]["2"].get<double>() > 0.02);
    BOOST_TEST(quiet["detectable_80"]["2"].get<double>() < 0.025);
    // The gate's own verdicts: quiet identical code is never flagged at 2%.
    BOOST_TEST(quiet["flagged"]["2"] == 0);
    BOOST_TEST(quiet["changes"].size() == 8u);
}

BOOST_AUTO_TEST_CASE(a_planted_bias_is_flagged_and_counted)
{
    std::mt19937_64 g(11);
    std::vector<wb::run_input> rounds;
    for (int k = 0; k < 4; ++k)
        rounds.push_back(round_of("r" + std::to_string(k), {ab_result("biased", 200, 0.002, std::log(1.03), g)}));
    const json cal = wb::calibrate_rounds(rounds, {});
    const json& b = row(cal, "biased");
    BOOST_TEST(b["flagged"]["2"] == 4); // +3% every round: flagged at 2% each time
    BOOST_TEST(b["flagged"]["5"] == 0);
    BOOST_TEST(std::abs(b["bias"].get<double>() - 0.03) < 0.003);
    BOOST_TEST(b["min_threshold"].get<double>() > 0.03);
}

BOOST_AUTO_TEST_CASE(rounds_that_do_not_fit_are_refused)
{
    std::mt19937_64 g(3);
    const auto a = round_of("a", {ab_result("tree", 50, 0.01, 0, g)});
    BOOST_CHECK_THROW(wb::calibrate_rounds({a}, {}), std::invalid_argument); // one round
    auto plain = round_of("plain", {ab_result("tree", 50, 0.01, 0, g)});
    plain.doc.erase("ab");
    BOOST_CHECK_EXCEPTION(wb::calibrate_rounds({a, plain}, {}), std::invalid_argument,
                          [](const auto& e) { return std::string(e.what()).find("no A/B run") != std::string::npos; });
    const auto other = round_of("other", {ab_result("tree", 50, 0.01, 0, g)}, "Another GPU");
    BOOST_CHECK_EXCEPTION(wb::calibrate_rounds({a, other}, {}), std::invalid_argument, [](const auto& e) {
        return std::string(e.what()).find("a calibration is of one device") != std::string::npos;
    });
    // A configuration that did not verify in a round is not calibrated from it.
    auto failed = round_of("failed", {ab_result("tree", 50, 0.01, 0, g)});
    failed.doc["results"][0]["status"] = "failed";
    const json cal = wb::calibrate_rounds({a, failed}, {});
    BOOST_TEST(!row(cal, "tree")["gateable"].get<bool>());
    BOOST_TEST(row(cal, "tree")["reason"].get<std::string>().find("1 of 2 rounds") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_calibration_file_is_read_back)
{
    std::mt19937_64 g(5);
    std::vector<wb::run_input> rounds;
    for (int k = 0; k < 3; ++k) rounds.push_back(round_of("r", {ab_result("tree", 100, 0.005, 0, g)}));
    const json cal = wb::calibrate_rounds(rounds, {});
    const auto path = std::filesystem::temp_directory_path() / "wavebench-calibration-test.json";
    std::ofstream(path) << cal.dump();
    const wb::calibration c = wb::read_calibration(path.string());
    BOOST_TEST(c.device == "GPU");
    BOOST_TEST(c.least.size() == 1u);
    BOOST_TEST(c.least.begin()->second == row(cal, "tree")["min_threshold"].get<double>());
    std::ofstream(path) << R"({"calibration_version": 99, "device": {"name": "GPU"}, "configurations": []})";
    BOOST_CHECK_EXCEPTION(wb::read_calibration(path.string()), std::invalid_argument, [](const auto& e) {
        return std::string(e.what()).find("calibration version 99") != std::string::npos;
    });
    std::ofstream(path) << "[1, 2]";
    BOOST_CHECK_THROW(wb::read_calibration(path.string()), std::invalid_argument);
    std::filesystem::remove(path);
}

BOOST_AUTO_TEST_SUITE_END()
