// The verdicts of the configurations compare tested (report/compare.h), decided once every one is
// tested: whether each change is significant (p < alpha, or with --fdr the Benjamini-Hochberg
// step-up procedure over all of their p-values) and whether it reaches the threshold.
#include "harness/report/compare.h"

#include "core/stats.h"
#include "harness/common/files.h"
#include "harness/common/json.h"

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

using json = nlohmann::json;

/// The verdict of one tested configuration, given whether its change is significant; `tests`: how
/// many the comparison tested (what --fdr decided among).
void decide_verdict(json& e, const tested_pair& t, bool significant, size_t tests, const compare_options& o)
{
    const double change = t.change;
    const bool large = std::abs(change) >= o.threshold;
    // The interval of the change reaches the threshold on the change's side: a change of the
    // threshold is among those the samples allow. Significant and reaching is a verdict too, so
    // that a change of the threshold itself is caught (its estimate falls below the threshold
    // in about half the runs).
    const bool reaches =
        e.contains("ci") && e["ci"].is_array() &&
        (change > 0 ? e["ci"][1].get<double>() >= o.threshold : e["ci"][0].get<double>() <= -o.threshold);
    // With --fdr, Q decides in alpha's place: no q-value is below its p-value, so samples too few to
    // reach p < Q cannot be significant either.
    const double level = o.fdr.value_or(o.alpha);
    const std::string q = o.fdr ? p_text(e["q_value"].get<double>()) : "";
    if (significant && (large || reaches)) {
        e["verdict"] = change > 0 ? "slower" : "faster";
        e["reason"] =
            percent_text(change) + " at " + (o.fdr ? "q = " + q + " <= " : "p = " + p_text(t.p) + " < ") +
            p_text(level) +
            (large ? "" : ", and its interval reaches " + percent_text(change > 0 ? o.threshold : -o.threshold));
    } else if (!large) {
        e["verdict"] = "same";
        e["reason"] =
            "the medians differ by " + percent_text(change) + ", less than " + percent_text(o.threshold, false);
    } else if (t.least_p >= level) {
        // Slower by the threshold or more, and no test of these samples could say so: untested.
        e["verdict"] = change > 0 ? "untested" : "noisy";
        e["reason"] = percent_text(change) + ", but " + std::to_string(t.base_samples) + " and " +
                      std::to_string(t.new_samples) + " samples are too few for the test to reach p < " + p_text(level);
    } else if (o.fdr) {
        e["verdict"] = "noisy";
        e["reason"] = percent_text(change) + ", but q = " + q + " > " + p_text(level) + " (p = " + p_text(t.p) +
                      "): not significant among the " + std::to_string(tests) + " configurations tested";
    } else {
        e["verdict"] = "noisy";
        e["reason"] = percent_text(change) + ", but p = " + p_text(t.p) + ": the samples are too scattered to tell";
    }
}

} // namespace

namespace {

/// The options row `e` is judged with: with a calibration, at no less than the least threshold
/// calibrate found for the configuration on this device (the row's `calibration` says which).
compare_options row_options(json& e, const compare_options& o)
{
    if (!o.calibrated) return o;
    const results_reader rd{"the comparison"};
    const std::string key = match_key(e, rd);
    const auto least = o.calibrated->least.find(key);
    compare_options r = o;
    if (least == o.calibrated->least.end()) {
        e["calibration"] = {{"least_threshold", nullptr},
                            {"asked", o.threshold},
                            {"gated_at", o.threshold},
                            {"note", o.calibrated->held.count(key)
                                         ? "calibrate could not calibrate it: judged at the threshold asked"
                                         : "not in the calibration: judged at the threshold asked"}};
        return r;
    }
    r.threshold = std::max(o.threshold, least->second);
    e["calibration"] = {
        {"least_threshold", least->second}, {"asked", o.threshold}, {"gated_at", r.threshold}, {"note", nullptr}};
    return r;
}

} // namespace

void decide_verdicts(json& rows, const std::vector<tested_pair>& tested, const compare_options& o)
{
    std::vector<double> p;
    for (const auto& t : tested) p.push_back(t.p);
    const std::vector<double> q = bh_q_values(std::move(p));
    if (o.fdr)
        for (json& e : rows) e["q_value"] = nullptr; // beside every row's p_value
    for (size_t i = 0; i < tested.size(); ++i) {
        json& e = rows.at(tested[i].row);
        if (o.fdr) e["q_value"] = q[i];
        // q <= Q is the step-up's own rule: p at most the largest p_(k) <= k / m * Q.
        const compare_options ro = row_options(e, o);
        decide_verdict(e, tested[i], o.fdr ? q[i] <= *o.fdr : tested[i].p < o.alpha, tested.size(), ro);
        if (ro.threshold > o.threshold)
            e["reason"] = e["reason"].get<std::string>() + " (judged at " + percent_text(ro.threshold, false) +
                          ", calibrate's least threshold for it on this device)";
    }
}

void check_calibration(const compare_options& o, const json& now_doc)
{
    if (!o.calibrated || o.allow_device_change) return;
    const json& dev = now_doc.value("device", json::object());
    const std::string device =
        dev.is_object() && dev.value("name", json()).is_string() ? dev["name"].get<std::string>() : "";
    if (device != o.calibrated->device)
        throw std::invalid_argument("--calibration " + shown(o.calibrated->label, 200) + " was made on " +
                                    shown(o.calibrated->device, 80) + ", NEW ran on " + shown(device, 80) +
                                    ": a calibration holds for its device (wavebench calibrate SUITE on this one, or "
                                    "--allow-device-change)");
}

namespace {

/// The rows a calibration judged above the threshold asked, "reduce/tree n=1024 (1.3%)".
std::vector<std::string> raised_rows(const json& rows)
{
    std::vector<std::string> out;
    for (const json& e : rows)
        if (e.contains("calibration") && e["calibration"]["least_threshold"].is_number() &&
            e["calibration"]["gated_at"].get<double>() > e["calibration"]["asked"].get<double>())
            out.push_back(e["family"].get<std::string>() + "/" + e["variant"].get<std::string>() + " " +
                          params_text(e["params"]) + " (" + percent_text(e["calibration"]["gated_at"], false) + ")");
    return out;
}

} // namespace

json calibration_summary(const json& rows, const compare_options& o)
{
    if (!o.calibrated) return nullptr;
    size_t uncalibrated = 0;
    for (const json& e : rows)
        uncalibrated += e.contains("calibration") && e["calibration"]["least_threshold"].is_null();
    return {{"file", o.calibrated->label},
            {"device", o.calibrated->device},
            {"judged_above_threshold", raised_rows(rows)},
            {"not_calibrated", uncalibrated}};
}

json calibration_warnings(json warnings, const json& rows, const compare_options& o)
{
    if (!o.calibrated) return warnings;
    const auto raised = raised_rows(rows);
    if (raised.empty()) return warnings;
    std::string list;
    for (size_t i = 0; i < raised.size() && i < 8; ++i) list += (i ? ", " : "") + shown(raised[i], 160);
    if (raised.size() > 8) list += " and " + std::to_string(raised.size() - 8) + " more";
    warnings.push_back(std::to_string(raised.size()) + " configurations cannot be gated at " +
                       percent_text(o.threshold, false) + " on this device (" + shown(o.calibrated->label, 200) +
                       "): judged at calibrate's least threshold for each: " + list);
    return warnings;
}

} // namespace wb
