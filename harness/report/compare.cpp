// Comparing two runs (report/compare.h): the inputs checked as comparable, configurations
// matched, each pair given its verdict, and what counts and what fails the comparison.
#include "harness/report/compare.h"

#include "core/stats.h"
#include "harness/common/files.h"
#include "harness/common/json.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace wb {

namespace {

using json = nlohmann::json;

double median_of(std::vector<double> x) { return summarize(std::move(x)).median; }

/// A result's kernel times, which compare needs in every result.
std::vector<double> samples(const json& r, const results_reader& rd)
{
    if (!rd.field(r, "samples_ms").is_array()) rd.fail("", "'samples_ms' is not an array");
    return *rd.samples(r, "");
}

/// The ways BASE and NEW differ in where they ran; compared only when asked.
std::vector<std::string> differences(const json& base, const json& now, const results_reader& rb,
                                     const results_reader& rn)
{
    std::vector<std::string> d;
    auto same = [&](const std::string& what, const std::string& b, const std::string& n) {
        if (b != n) d.push_back(what + " '" + shorten(b) + "' in BASE, '" + shorten(n) + "' in NEW");
    };
    same("platform", rb.name(base, "platform", ""), rn.name(now, "platform", ""));
    // The device models a run used: its devices (a run on several, schema 4), else its device.
    auto models = [](const json& doc, const results_reader& r, const char* field) {
        std::set<std::string> m;
        if (doc.contains("devices") && doc["devices"].is_array() && !doc["devices"].empty())
            for (const json& dev : doc["devices"]) m.insert(r.name(dev, field, "devices"));
        else
            m.insert(r.name(r.field(doc, "device"), field, "device"));
        std::string out;
        for (const auto& x : m) out += (out.empty() ? "" : ", ") + x;
        return out;
    };
    same("device", models(base, rb, "name"), models(now, rn, "name"));
    same("architecture", models(base, rb, "arch"), models(now, rn, "arch"));
    auto warp = [](const json& doc, const results_reader& r) {
        return r.field(r.object(doc, "platform_options", ""), "warp_size").dump();
    };
    same("wavefront width", warp(base, rb), warp(now, rn));
    auto toolchain = [](const json& doc, const results_reader& r) {
        const json t = r.text(doc, "toolchain", "");
        return t.is_string() ? t.get<std::string>() : std::string();
    };
    same("toolchain", toolchain(base, rb), toolchain(now, rn));
    return d;
}

/// Refuses inputs without samples, and inputs that ran differently unless that is allowed.
std::vector<std::string> check_comparable(const run_input& base, const run_input& now, const results_reader& rb,
                                          const results_reader& rn, const compare_options& o)
{
    for (const auto& [in, rd] : {std::pair{&base, &rb}, std::pair{&now, &rn}}) {
        const json& v = rd->field(in->doc, "schema_version");
        if (!v.is_number_integer() || v.get<int64_t>() < 3)
            rd->fail("", "results of schema_version " + v.dump() +
                             ", which keep no samples; compare needs schema 3 or later (run the suite again with "
                             "this wavebench)");
        rd->results(in->doc);
    }
    auto diffs = differences(base.doc, now.doc, rb, rn);
    if (!diffs.empty() && !o.allow_device_change) {
        std::string what;
        for (const auto& d : diffs) what += "\n  " + d;
        throw std::invalid_argument("BASE and NEW did not run alike:" + what +
                                    "\ntimes from different machines or toolchains are not comparable; "
                                    "--allow-device-change compares them anyway");
    }
    return diffs;
}

/// The interval of the change, from the Hodges-Lehmann interval of the shift of log times.
void change_interval(json& e, const std::vector<double>& x, const std::vector<double>& y, const compare_options& o)
{
    auto positive = [](const std::vector<double>& v) {
        return std::all_of(v.begin(), v.end(), [](double t) { return t > 0; });
    };
    if (!positive(x) || !positive(y)) return;
    std::vector<double> lx(x.size()), ly(y.size());
    std::transform(x.begin(), x.end(), lx.begin(), [](double v) { return std::log(v); });
    std::transform(y.begin(), y.end(), ly.begin(), [](double v) { return std::log(v); });
    const shift_estimate s = hodges_lehmann(lx, ly, 1 - o.alpha);
    if (std::isfinite(s.lo)) e["ci"] = {std::exp(s.lo) - 1, std::exp(s.hi) - 1};
}

/// The test of two verified results' kernel-time samples, recorded in the row, for decide_verdicts;
/// none where they cannot be tested (the verdict `untested`, decided here).
std::optional<tested_pair> time_test(json& e, const std::vector<double>& x, const std::vector<double>& y,
                                     const compare_options& o)
{
    const double mb = median_of(x), mn = median_of(y);
    e["base"]["median_ms"] = mb;
    e["new"]["median_ms"] = mn;
    if (x.empty() || y.empty() || mb <= 0) { // a verified result the gate cannot judge: never a pass
        e["verdict"] = "untested";
        e["reason"] = x.empty() || y.empty() ? "no samples to compare" : "a median of 0 ms in BASE";
        return std::nullopt;
    }
    const bool paired = o.paired && x.size() == y.size();
    const rank_test t = paired ? rank_test{} : mann_whitney(x, y);
    double change = mn / mb - 1, p = t.p, least_p = smallest_p(x.size(), y.size());
    if (paired) { // an A/B run: the log ratio of each pair, its centre and interval
        std::vector<double> d(x.size());
        for (size_t i = 0; i < d.size(); ++i) d[i] = std::log(y[i] / x[i]);
        const signed_rank_test w = wilcoxon_signed_rank(d);
        const shift_estimate s = walsh_estimate(d, 1 - o.alpha);
        change = std::isfinite(s.estimate) ? std::exp(s.estimate) - 1 : change;
        p = w.p;
        least_p = smallest_signed_rank_p(w.pairs);
        e["test"] = w.exact ? "paired, exact" : "paired, normal approximation";
        if (std::isfinite(s.lo)) e["ci"] = {std::exp(s.lo) - 1, std::exp(s.hi) - 1};
    } else {
        e["test"] = t.exact ? "exact" : "normal approximation";
        change_interval(e, x, y, o);
    }
    e["change"] = change;
    e["p_value"] = p;
    return tested_pair{0, change, p, least_p, x.size(), y.size()};
}

/// The verdict of a configuration in both runs: from the times where both verified (what their
/// test left, returned for decide_verdicts), else from the statuses.
std::optional<tested_pair> pair_verdict(json& e, const json& b, const json& n, const results_reader& rb,
                                        const results_reader& rn, const compare_options& o)
{
    const auto sb = status_of(b), sn = status_of(n);
    const bool vb = sb == status::verified, vn = sn == status::verified;
    auto error_of = [](const json& x) {
        return x.value("error", json()).is_string() ? ": " + shown(x["error"].get<std::string>(), 300) : std::string();
    };
    std::optional<tested_pair> tested;
    if (vb && vn) {
        tested = time_test(e, samples(b, rb), samples(n, rn), o);
    } else if (vb) { // skipped in NEW too: what BASE verified is not verified any more
        e["verdict"] = "failed";
        e["reason"] = "verified in BASE, " + shown(status_text(n), 40) + " in NEW" + error_of(n);
    } else if (sb == status::skipped || sn == status::skipped) {
        e["verdict"] = "skipped";
        e["reason"] = std::string("skipped in ") + (sb == status::skipped ? "BASE" : "NEW");
    } else if (vn) {
        e["verdict"] = "fixed";
        e["reason"] = shown(status_text(b), 40) + " in BASE, verified in NEW";
    } else {
        e["verdict"] = "not verified";
        e["reason"] = shown(status_text(b), 40) + " in BASE, " + shown(status_text(n), 40) + " in NEW" + error_of(n);
    }
    e["resources"] = resource_changes(b, n);
    e["conditions"] = run_conditions(b, n, o.threshold);
    return tested;
}

/// A result's status, samples and median, as a row of the comparison shows it.
json brief(const json& r, const results_reader& rd)
{
    const auto x = samples(r, rd);
    return {{"status", status_text(r)},
            {"samples", x.size()},
            {"median_ms", x.empty() ? json() : json(median_of(x))},
            {"code_digest", code_digest_field(r)}};
}

/// A result's parameters, which compare needs in every result (of any type: they only match).
const json& params_of(const json& r, const results_reader& rd)
{
    if (!r.is_object() || !r.contains("params")) rd.fail("", "no 'params'");
    return r["params"];
}

/// A row of the comparison without its verdict yet: `now` (or `base` alone, when it is missing).
json row_of(const json& r, const results_reader& rd)
{
    return {{"family", rd.name(r, "family", "")},
            {"variant", rd.name(r, "variant", "")},
            {"params", params_of(r, rd)},
            {"change", nullptr},
            {"ci", nullptr},
            {"p_value", nullptr},
            {"resources", json::array()},
            {"conditions", json::object()}};
}

/// A parameter's value as compare matches it: a number by its value (1000.0 is 1000), anything else
/// as it is written.
json match_value(const json& v)
{
    if (!v.is_number_float()) return v;
    const double d = v.get<double>();
    return std::isfinite(d) && std::trunc(d) == d && std::abs(d) < 0x1p63 ? json(int64_t(d)) : v;
}

/// "reduce/tree": a result's family and variant.
std::string benchmark_of(const json& r, const results_reader& rd)
{
    return rd.name(r, "family", "") + "/" + rd.name(r, "variant", "");
}

} // namespace

std::string match_key(const json& r, const results_reader& rd)
{
    const json& params = params_of(r, rd);
    json p = params;
    if (params.is_object())
        for (const auto& [k, v] : params.items()) p[k] = match_value(v);
    return benchmark_of(r, rd) + " " + p.dump(-1, ' ', false, json::error_handler_t::replace);
}

namespace {

/// Every configuration of NEW with its match in BASE, then those only BASE has; a key that a suite
/// repeats matches in order.
json matched_rows(const run_input& base, const run_input& now, const results_reader& rb, const results_reader& rn,
                  const compare_options& o)
{
    auto key = match_key;
    std::multimap<std::string, const json*> in_base;
    for (const json& r : rb.results(base.doc)) in_base.emplace(key(r, rb), &r);
    json rows = json::array();
    std::set<const json*> matched;
    std::vector<tested_pair> tested; // decided once all are tested: with --fdr, each depends on all
    for (const json& r : rn.results(now.doc)) {
        json e = row_of(r, rn);
        e["new"] = brief(r, rn);
        const json* b = nullptr;
        for (auto [it, end] = in_base.equal_range(key(r, rn)); it != end && !b; ++it)
            if (!matched.count(it->second)) b = it->second;
        if (b) {
            matched.insert(b);
            e["base"] = brief(*b, rb);
            if (auto t = pair_verdict(e, *b, r, rb, rn, o)) {
                t->row = rows.size();
                tested.push_back(*t);
            }
        } else {
            e.update(json{{"verdict", "new"}, {"reason", "not in BASE"}, {"base", nullptr}});
        }
        rows.push_back(e);
    }
    for (const json& r : rb.results(base.doc))
        if (!matched.count(&r)) {
            json e = row_of(r, rb);
            e.update(json{
                {"verdict", "missing"}, {"reason", "in BASE, not in NEW"}, {"base", brief(r, rb)}, {"new", nullptr}});
            rows.push_back(e);
        }
    decide_verdicts(rows, tested, o);
    same_code_verdicts(rows, o); // once the times have their verdicts: kept as `would_be`
    return rows;
}

/// Whether a run reached its end, which every results document says (`complete`).
bool complete_of(const json& doc, const results_reader& rd)
{
    const json& c = rd.field(doc, "complete");
    if (!c.is_boolean()) rd.fail("", "'complete' is not true or false");
    return c.get<bool>();
}

json side_json(const run_input& in, const json& doc, const results_reader& rd)
{
    return {{"label", in.label},
            {"id", in.id ? json(*in.id) : json()},
            {"suite", doc.value("suite", json::object()).value("name", json())},
            {"platform", doc.value("platform", json())},
            {"device", doc.value("device", json::object()).value("name", json())},
            {"toolchain", doc.value("toolchain", json())},
            {"tool_version", doc.value("tool_version", json())},
            {"started", doc.value("started", json())},
            {"complete", complete_of(doc, rd)}};
}

/// How the parameters of two configurations of one benchmark differ (at most three of them).
std::string params_difference(const json& b, const json& n)
{
    auto value = [](const json& v) { return shown(v.dump(-1, ' ', false, json::error_handler_t::replace), 40); };
    if (!b.is_object() || !n.is_object()) return "parameters " + value(b) + " in BASE, " + value(n) + " in NEW";
    std::vector<std::string> d;
    for (const auto& [k, v] : b.items())
        if (!n.contains(k))
            d.push_back(shown(k, 40) + " only in BASE");
        else if (match_value(v) != match_value(n[k]))
            d.push_back(shown(k, 40) + " " + value(v) + " in BASE, " + value(n[k]) + " in NEW");
    for (const auto& [k, v] : n.items())
        if (!b.contains(k)) d.push_back(shown(k, 40) + " only in NEW");
    std::string out;
    for (size_t i = 0; i < d.size() && i < 3; ++i) out += (i ? ", " : "") + d[i];
    return d.size() > 3 ? out + " (and " + std::to_string(d.size() - 3) + " more)" : out;
}

/// Why no configuration matched: what NEW has in place of the first ones of BASE.
std::string why_nothing_matched(const json& base, const json& now, const results_reader& rb, const results_reader& rn)
{
    if (base.empty() || now.empty()) return std::string(base.empty() ? "BASE" : "NEW") + " has no results";
    std::map<std::string, const json*> in_new; // the first configuration of each benchmark of NEW
    for (const json& r : now) in_new.emplace(benchmark_of(r, rn), &r);
    std::string why;
    for (size_t i = 0; i < base.size() && i < 3; ++i) {
        const std::string bench = benchmark_of(base[i], rb);
        const auto it = in_new.find(bench);
        why += "; BASE's " + shown(bench, 80) + " " + shown(params_text(params_of(base[i], rb)), 120) +
               " is not in NEW, " +
               (it == in_new.end() ? "which has no " + shown(bench, 80)
                                   : "whose " + shown(bench, 80) + " differs: " +
                                         params_difference(params_of(base[i], rb), params_of(*it->second, rn)));
    }
    std::string names;
    size_t named = 0;
    for (auto it = in_new.begin(); it != in_new.end() && named < 5; ++it, ++named)
        names += (named ? ", " : "") + shown(it->first, 80);
    return why.substr(2) + "; NEW's benchmarks: " + names +
           (in_new.size() > named ? " (and " + std::to_string(in_new.size() - named) + " more)" : "");
}

/// What a comparison warns of: an input that stopped early (NEW: no evidence for what it did not
/// reach; BASE: a weaker baseline), and nothing matched (with why).
json warnings_of(const run_input& base, const run_input& now, const results_reader& rb, const results_reader& rn,
                 size_t matched)
{
    json w = json::array();
    auto incomplete = [](const char* side, const run_input& in, const results_reader& rd) {
        const json& by = rd.field(in.doc, "stopped_by");
        return side + (" (" + shown(in.label, 200) + ") is incomplete: its run stopped early") +
               (by.is_string() ? " (" + shown(by.get<std::string>(), 20) + ")" : std::string()) + " after " +
               std::to_string(rd.results(in.doc).size()) + " configurations";
    };
    if (!complete_of(now.doc, rn))
        w.push_back(incomplete("NEW", now, rn) + ": it shows no regression of what it did not reach");
    if (!complete_of(base.doc, rb))
        w.push_back(incomplete("BASE", base, rb) +
                    ": a weaker baseline; what it did not reach is `new` in NEW, compared with nothing");
    if (matched == 0)
        w.push_back("nothing matched: no configuration of NEW has the family, variant and parameters of one of BASE (" +
                    why_nothing_matched(rb.results(base.doc), rn.results(now.doc), rb, rn) + ")");
    return w;
}

/// What fails the comparison under `fail_on`, the gate's own verdicts first.
json regressions_of(const std::set<std::string>& fail_on, const json& counts, size_t worse_resources, bool complete,
                    size_t matched)
{
    json regressions = json::array();
    auto fails = [&](const char* what, bool happened) {
        if (happened && fail_on.count(what)) regressions.push_back(what);
    };
    fails("incomplete", !complete);
    fails("unmatched", matched == 0);
    for (const char* what : {"slower", "failed", "untested", "missing"}) fails(what, counts[what].get<int>() > 0);
    fails("resources", worse_resources > 0);
    return regressions;
}

} // namespace

json compare_runs(const run_input& base, const run_input& now, const compare_options& o)
{
    const results_reader rb{"BASE (" + base.label + ")"}, rn{"NEW (" + now.label + ")"};
    const auto diffs = check_comparable(base, now, rb, rn, o);
    check_calibration(o, now.doc);
    const json rows = matched_rows(base, now, rb, rn, o);

    // What counts, and whether it fails the comparison.
    json counts = json::object();
    size_t worse_resources = 0, matched = 0, other_clocks = 0;
    for (const auto& v : {"faster", "slower", "same", "noisy", "untested", "failed", "fixed", "not verified", "skipped",
                          "new", "missing", "same-code"})
        counts[v] = 0;
    for (const auto& e : rows) {
        counts[e["verdict"].get<std::string>()] = counts[e["verdict"].get<std::string>()].get<int>() + 1;
        if (e["verdict"] != "same-code") // the same code's figures: what moved is a counter's measurement
            worse_resources += std::count_if(e["resources"].begin(), e["resources"].end(),
                                             [](const json& c) { return c["worse"].get<bool>(); });
        matched += e["base"].is_object() && e["new"].is_object();
        other_clocks += e["conditions"].value("clocks_differ", false);
    }
    std::set<std::string> fail_on = o.fail_on;
    if (fail_on.count("any"))
        fail_on = {"slower", "failed", "untested", "resources", "missing", "incomplete", "unmatched"};
    fail_on.erase("none");
    const json regressions = regressions_of(fail_on, counts, worse_resources, complete_of(now.doc, rn), matched);
    return {{"base", side_json(base, base.doc, rb)},
            {"new", side_json(now, now.doc, rn)},
            {"differences", diffs},
            {"options",
             {{"alpha", o.alpha},
              {"threshold", o.threshold},
              {"fail_on", fail_on},
              {"allow_device_change", o.allow_device_change},
              {"ignore_code_digest", o.ignore_code_digest},
              {"paired", o.paired},
              {"fdr", o.fdr ? json(*o.fdr) : json()}}},
            {"configurations", rows},
            {"counts", counts},
            {"matched", matched},
            {"resource_regressions", worse_resources},
            {"other_clocks", other_clocks},
            {"same_code_false_alarms", same_code_false_alarms(rows)},
            {"calibration", calibration_summary(rows, o)},
            {"warnings", calibration_warnings(warnings_of(base, now, rb, rn, matched), rows, o)},
            {"regressions", regressions},
            {"regressed", !regressions.empty()}};
}

} // namespace wb
