// harness/report/compare.h: the verdicts of compare_runs on results built here: a clear slowdown
// is a regression, noise and changes under the threshold are not, configurations only one run has
// are new or missing (missing fails), a configuration that stopped verifying fails the comparison,
// and so do a NEW that stopped early and a comparison in which nothing matched.
#include <boost/test/unit_test.hpp>

#include "results_docs.h"

#include "harness/report/compare.h"

#include <string>
#include <vector>

BOOST_AUTO_TEST_SUITE(compare_verdicts_test)

namespace {

using json = nlohmann::json;

/// `count` kernel times around `ms`, each `spread` (a fraction) apart.
std::vector<double> times(double ms, double spread, int count = 25)
{
    std::vector<double> x;
    for (int i = 0; i < count; ++i) x.push_back(ms * (1 + spread * i));
    return x;
}

json result(const std::string& variant, int64_t n, const std::string& status, const std::vector<double>& samples)
{
    return {{"family", "reduce"},
            {"variant", variant},
            {"params", {{"n", n}}},
            {"status", status},
            {"samples_ms", samples}};
}

wb::run_input run(const std::string& label, const std::vector<json>& results)
{
    return wb_test::results_run(label, results);
}

/// The verdict of the one configuration of `variant` in `cmp`.
std::string verdict_of(const json& cmp, const std::string& variant)
{
    for (const json& e : cmp["configurations"])
        if (e["variant"] == variant) return e["verdict"];
    return "absent";
}

} // namespace

BOOST_AUTO_TEST_CASE(a_clear_slowdown_is_a_regression)
{
    const auto base = run("base", {result("tree", 1024, "verified", times(1.0, 0.001))});
    const auto now = run("new", {result("tree", 1024, "verified", times(1.3, 0.001))});
    const json cmp = wb::compare_runs(base, now, {});
    BOOST_TEST(verdict_of(cmp, "tree") == "slower");
    BOOST_TEST(cmp["regressed"].get<bool>());
    BOOST_TEST((cmp["regressions"] == json::array({"slower"})));
    // The same change the other way is faster, and no regression.
    const json back = wb::compare_runs(now, base, {});
    BOOST_TEST(verdict_of(back, "tree") == "faster");
    BOOST_TEST(!back["regressed"].get<bool>());
}

BOOST_AUTO_TEST_CASE(noise_and_small_changes_are_no_regression)
{
    // 1% slower: under the 5% threshold however sure the test is.
    const auto base = run("base", {result("tree", 1024, "verified", times(1.0, 0.001))});
    const json small = wb::compare_runs(base, run("new", {result("tree", 1024, "verified", times(1.01, 0.001))}), {});
    BOOST_TEST(verdict_of(small, "tree") == "same");
    BOOST_TEST(!small["regressed"].get<bool>());
    // Medians 10% apart in samples that overlap widely: noisy, not slower.
    std::vector<double> wide_b, wide_n;
    for (int i = 0; i < 12; ++i) {
        wide_b.push_back(i % 2 ? 0.5 + 0.01 * i : 1.5 + 0.01 * i);
        wide_n.push_back(i % 2 ? 0.55 + 0.01 * i : 1.6 + 0.01 * i);
    }
    const json noisy = wb::compare_runs(run("base", {result("tree", 1024, "verified", wide_b)}),
                                        run("new", {result("tree", 1024, "verified", wide_n)}), {});
    BOOST_TEST(verdict_of(noisy, "tree") == "noisy");
    BOOST_TEST(!noisy["regressed"].get<bool>());
    // Slower, and too few samples for the test to reach the significance level: untested, a regression.
    const json few = wb::compare_runs(run("base", {result("tree", 1024, "verified", times(1.0, 0.001, 3))}),
                                      run("new", {result("tree", 1024, "verified", times(2.0, 0.001, 3))}), {});
    BOOST_TEST(verdict_of(few, "tree") == "untested");
    BOOST_TEST(few["regressed"].get<bool>());
    BOOST_TEST(few["configurations"][0]["reason"].get<std::string>().find("too few") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_significant_change_whose_interval_reaches_the_threshold_is_a_regression)
{
    // 4% slower against a 5% threshold: samples spread over 7% leave an interval that reaches 5%
    // (a change of the threshold is not ruled out): slower, and the reason says why.
    const auto base = run("base", {result("tree", 1024, "verified", times(1.0, 0.003))});
    const json wide = wb::compare_runs(base, run("new", {result("tree", 1024, "verified", times(1.04, 0.003))}), {});
    const json& e = wide["configurations"][0];
    BOOST_TEST(e["verdict"] == "slower");
    BOOST_TEST(e["change"].get<double>() < 0.05);
    BOOST_TEST(e["ci"][1].get<double>() >= 0.05);
    BOOST_TEST(e["reason"].get<std::string>().find("interval reaches +5.0%") != std::string::npos, e["reason"]);
    // The same 4% in tight samples: the interval stays under 5%, so it is the same.
    const auto tight_b = run("base", {result("tree", 1024, "verified", times(1.0, 0.0001))});
    const json tight =
        wb::compare_runs(tight_b, run("new", {result("tree", 1024, "verified", times(1.04, 0.0001))}), {});
    BOOST_TEST(verdict_of(tight, "tree") == "same");
    BOOST_TEST(tight["configurations"][0]["ci"][1].get<double>() < 0.05);
    // Faster by the same rule, on the other side.
    const json back = wb::compare_runs(run("new", {result("tree", 1024, "verified", times(1.04, 0.003))}), base, {});
    BOOST_TEST(verdict_of(back, "tree") == "faster");
}

BOOST_AUTO_TEST_CASE(fdr_flags_fewer_of_many_borderline_changes_and_gives_each_its_q_value)
{
    // Ten configurations: three 5.4% slower at p = 0.0055 (the exact U test of 25 against 25 samples
    // shifted by 6% of the lowest), seven unchanged (p = 1); and one only NEW has, never tested.
    const auto x = times(1.0, 0.01);
    std::vector<double> shifted;
    for (double v : x) shifted.push_back(v + 0.0601);
    std::vector<json> b, n;
    for (int64_t i = 0; i < 10; ++i) {
        b.push_back(result("tree", 1024 << i, "verified", x));
        n.push_back(result("tree", 1024 << i, "verified", i < 3 ? shifted : x));
    }
    n.push_back(result("atomic", 1024, "verified", x));
    const auto base = run("base", b), now = run("new", n);
    // Each at alpha 0.01 on its own: all three slower, and no q-value.
    const json plain = wb::compare_runs(base, now, {});
    BOOST_TEST((plain["counts"]["slower"] == 3));
    BOOST_TEST(plain["options"]["fdr"].is_null());
    for (const json& e : plain["configurations"]) BOOST_TEST(!e.contains("q_value"));
    // At a false discovery rate of 0.01 over the ten tested: q = 10 / 3 * 0.0055 = 0.018 each, too
    // high; noisy, not slower (large changes the test cannot single out among ten).
    wb::compare_options strict;
    strict.fdr = 0.01;
    const json fdr = wb::compare_runs(base, now, strict);
    BOOST_TEST((fdr["options"]["fdr"] == 0.01));
    BOOST_TEST((fdr["counts"]["slower"] == 0));
    BOOST_TEST((fdr["counts"]["noisy"] == 3));
    BOOST_TEST((fdr["counts"]["same"] == 7));
    BOOST_TEST(!fdr["regressed"].get<bool>());
    const json& rows = fdr["configurations"];
    BOOST_TEST_REQUIRE(rows.size() == 11u);
    for (size_t i = 0; i < 10; ++i) {
        const double p = rows[i]["p_value"], q = rows[i]["q_value"];
        BOOST_TEST(p == plain["configurations"][i]["p_value"].get<double>()); // the test itself is the same
        if (i < 3) {
            BOOST_TEST(p == 0.0055, boost::test_tools::tolerance(0.01));
            BOOST_TEST(q == 10.0 / 3 * p, boost::test_tools::tolerance(1e-12));
            BOOST_TEST(rows[i]["verdict"] == "noisy");
            BOOST_TEST(rows[i]["reason"] ==
                           "+5.4%, but q = 0.018 > 0.01 (p = 0.0055): not significant among the 10 configurations "
                           "tested",
                       rows[i]["reason"]);
        } else {
            BOOST_TEST(q == 1.0);
            BOOST_TEST(rows[i]["verdict"] == "same");
        }
    }
    BOOST_TEST(rows[10]["verdict"] == "new");
    BOOST_TEST(rows[10]["q_value"].is_null());
    // At 0.05 the three are flagged again, and the reason names the q-value.
    wb::compare_options loose;
    loose.fdr = 0.05;
    const json flagged = wb::compare_runs(base, now, loose);
    BOOST_TEST((flagged["counts"]["slower"] == 3));
    BOOST_TEST(flagged["configurations"][0]["reason"] == "+5.4% at q = 0.018 <= 0.05", flagged["configurations"][0]);
    BOOST_TEST((flagged["regressions"] == json::array({"slower"})));
    // Among three tested alone, the same p-values are q = 0.0055 <= 0.01: all slower at 0.01 too.
    const json few = wb::compare_runs(run("base", {b[0], b[1], b[2]}), run("new", {n[0], n[1], n[2]}), strict);
    BOOST_TEST((few["counts"]["slower"] == 3));
}

BOOST_AUTO_TEST_CASE(configurations_only_one_run_has_are_new_or_missing)
{
    const auto base = run("base", {result("tree", 1024, "verified", times(1.0, 0.001)),
                                   result("atomic", 1024, "verified", times(1.0, 0.001))});
    const auto now = run("new", {result("tree", 1024, "verified", times(1.0, 0.001)),
                                 result("tree", 4096, "verified", times(4.0, 0.001))});
    const json cmp = wb::compare_runs(base, now, {});
    BOOST_TEST(verdict_of(cmp, "atomic") == "missing");
    BOOST_TEST((cmp["counts"]["new"] == 1));
    BOOST_TEST((cmp["counts"]["missing"] == 1));
    BOOST_TEST((cmp["counts"]["same"] == 1));
    BOOST_TEST((cmp["matched"] == 1));
    BOOST_TEST((cmp["regressions"] == json::array({"missing"})));
    wb::compare_options o; // a NEW known to be a subset
    o.fail_on = {"slower", "failed", "resources", "incomplete", "unmatched"};
    BOOST_TEST(!wb::compare_runs(base, now, o)["regressed"].get<bool>());
    // New only: no regression.
    BOOST_TEST(!wb::compare_runs(now,
                                 run("more", {result("tree", 1024, "verified", times(1.0, 0.001)),
                                              result("tree", 4096, "verified", times(4.0, 0.001)),
                                              result("wavefront", 4096, "verified", times(4.0, 0.001))}),
                                 {})["regressed"]
                    .get<bool>());
}

BOOST_AUTO_TEST_CASE(a_new_that_stopped_early_fails_and_an_incomplete_base_is_a_warning)
{
    const auto base = run("base", {result("tree", 1024, "verified", times(1.0, 0.001)),
                                   result("atomic", 1024, "verified", times(1.0, 0.001))});
    auto cut = run("cut", {result("tree", 1024, "verified", times(1.0, 0.001))});
    cut.doc["complete"] = false;
    cut.doc["stopped_by"] = "SIGTERM";
    const json cmp = wb::compare_runs(base, cut, {});
    BOOST_TEST((cmp["regressions"] == json::array({"incomplete", "missing"})));
    BOOST_TEST(!cmp["new"]["complete"].get<bool>());
    const std::string w = cmp["warnings"][0];
    BOOST_TEST(w.find("NEW (cut) is incomplete: its run stopped early (SIGTERM) after 1 configurations") == 0, w);
    wb::compare_options o;
    o.fail_on = {"slower"};
    const json relaxed = wb::compare_runs(base, cut, o);
    BOOST_TEST(!relaxed["regressed"].get<bool>());
    BOOST_TEST(relaxed["warnings"].size() == 1u); // still said
    // The other way: a weaker baseline, said, not failed.
    const json weak = wb::compare_runs(cut, base, {});
    BOOST_TEST(!weak["regressed"].get<bool>());
    BOOST_TEST(weak["warnings"][0].get<std::string>().find("BASE (cut) is incomplete") == 0);
    // A document that does not say whether it is complete cannot be compared.
    auto unsaid = base;
    unsaid.doc.erase("complete");
    BOOST_CHECK_THROW(wb::compare_runs(base, unsaid, {}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(numbers_match_by_value_and_nothing_matched_fails_saying_why)
{
    auto as_float = result("tree", 0, "verified", times(1.0, 0.001));
    as_float["params"]["n"] = 1024.0;
    const auto base = run("base", {result("tree", 1024, "verified", times(1.0, 0.001))});
    const json same = wb::compare_runs(base, run("new", {as_float}), {});
    BOOST_TEST(verdict_of(same, "tree") == "same");
    BOOST_TEST(!same["regressed"].get<bool>());
    // 1024.5 and "1024" are other configurations: nothing matched, and why.
    auto half = as_float, text = as_float;
    half["params"]["n"] = 1024.5;
    text["params"]["n"] = "1024";
    for (const auto& [now, says] : {std::pair{half, std::string("n 1024 in BASE, 1024.5 in NEW")},
                                    std::pair{text, std::string("n 1024 in BASE, \"1024\" in NEW")}}) {
        const json cmp = wb::compare_runs(base, run("new", {now}), {});
        BOOST_TEST((cmp["regressions"] == json::array({"unmatched", "missing"})));
        const std::string w = cmp["warnings"][0];
        BOOST_TEST(w.find("nothing matched") == 0, w);
        BOOST_TEST(w.find(says) != std::string::npos, w);
    }
    const json empty = wb::compare_runs(base, run("empty", {}), {});
    BOOST_TEST((empty["regressions"] == json::array({"unmatched", "missing"})));
    BOOST_TEST(empty["warnings"][0].get<std::string>().find("NEW has no results") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_failed_verification_fails_the_comparison)
{
    const auto base = run("base", {result("tree", 1024, "verified", times(1.0, 0.001))});
    auto failed = result("tree", 1024, "failed", {});
    failed["error"] = "element 7 is 5, expected 4";
    const json cmp = wb::compare_runs(base, run("new", {failed}), {});
    BOOST_TEST(verdict_of(cmp, "tree") == "failed");
    BOOST_TEST(cmp["configurations"][0]["reason"].get<std::string>() ==
               "verified in BASE, failed in NEW: element 7 is 5, expected 4");
    BOOST_TEST((cmp["regressions"] == json::array({"failed"})));
    // The other way it is fixed; failing in both is not verified; neither is a regression.
    BOOST_TEST(verdict_of(wb::compare_runs(run("base", {failed}), base, {}), "tree") == "fixed");
    const json both = wb::compare_runs(run("base", {failed}), run("new", {failed}), {});
    BOOST_TEST(verdict_of(both, "tree") == "not verified");
    BOOST_TEST(!both["regressed"].get<bool>());
}

BOOST_AUTO_TEST_CASE(runs_that_cannot_be_compared_are_refused_saying_why)
{
    auto old = run("old.json", {result("tree", 1024, "verified", times(1.0, 0.001))});
    old.doc["schema_version"] = 2;
    BOOST_CHECK_EXCEPTION(wb::compare_runs(old, old, {}), std::invalid_argument, [](const std::invalid_argument& e) {
        return std::string(e.what()).find("BASE (old.json): results of schema_version 2") != std::string::npos;
    });
    auto other = run("other", {});
    other.doc["device"]["name"] = "Other CPU";
    const auto base = run("base", {});
    BOOST_CHECK_EXCEPTION(wb::compare_runs(base, other, {}), std::invalid_argument, [](const std::invalid_argument& e) {
        return std::string(e.what()).find("device 'Test CPU' in BASE, 'Other CPU' in NEW") != std::string::npos;
    });
    wb::compare_options allow;
    allow.allow_device_change = true;
    BOOST_TEST(wb::compare_runs(base, other, allow)["differences"].size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
