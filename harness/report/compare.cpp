// Comparing two runs (report/compare.h): the inputs checked as comparable, configurations
// matched, each pair given its verdict, and what counts and what fails the comparison.
#include "harness/report/compare.h"

#include "core/stats.h"
#include "harness/common/files.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

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
    auto warp = [](const json& doc) {
        return doc.value("platform_options", json::object()).value("warp_size", json()).dump();
    };
    same("wavefront width", warp(base), warp(now));
    same("toolchain", base.value("toolchain", ""), now.value("toolchain", ""));
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

/// One kernel figure in BASE and NEW, and whether the change is for the worse.
void compare_figure(json& out, const std::string& kernel, const json& target, const char* field, const json& b,
                    const json& n, bool more_is_worse)
{
    if (!b.is_number() || !n.is_number() || b == n) return;
    const bool worse = more_is_worse ? n.get<double>() > b.get<double>() : n.get<double>() < b.get<double>();
    out.push_back(
        {{"kernel", kernel}, {"target", target}, {"field", field}, {"base", b}, {"new", n}, {"worse", worse}});
}

/// An entry of `list` (an array) whose `key` is `value`.
const json* find_by(const json& list, const char* key, const json& value)
{
    const auto it = std::find_if(list.begin(), list.end(),
                                 [&](const json& x) { return x.is_object() && x.value(key, json()) == value; });
    return it == list.end() ? nullptr : &*it;
}

/// The AMD figures of one kernel on each target both runs have.
void amd_changes(json& out, const std::string& name, const json& ab, const json& an)
{
    if (!ab.is_array() || !an.is_array()) return;
    for (const json& t : an) {
        if (!t.is_object()) continue;
        const json* tb = find_by(ab, "target", t.value("target", json()));
        if (!tb) continue;
        for (const char* f : {"vgprs", "agprs", "sgprs", "lds_bytes", "scratch_bytes", "vgpr_spills", "sgpr_spills"})
            compare_figure(out, name, t.value("target", json()), f, tb->value(f, json()), t.value(f, json()), true);
        auto waves = [](const json& x) {
            return x.value("occupancy", json()).is_object() ? x["occupancy"].value("waves_per_simd", json()) : json();
        };
        compare_figure(out, name, t.value("target", json()), "waves_per_simd", waves(*tb), waves(t), false);
    }
}

/// The kernels' resources of two results, kernel by kernel (by name), AMD targets included.
json resource_changes(const json& base, const json& now)
{
    json out = json::array();
    const json kb = base.value("kernels", json::array()), kn = now.value("kernels", json::array());
    if (!kb.is_array() || !kn.is_array()) return out;
    for (const json& k : kn) {
        if (!k.is_object() || !k.contains("name") || !k["name"].is_string()) continue;
        const std::string name = k["name"];
        const json* b = find_by(kb, "name", k["name"]);
        if (!b) continue;
        for (const char* f : {"registers", "sgprs", "agprs", "lds_bytes", "scratch_bytes"})
            compare_figure(out, name, nullptr, f, b->value(f, json()), k.value(f, json()), true);
        auto occ = [](const json& x) {
            return x.value("occupancy", json()).is_object() ? x["occupancy"].value("value", json()) : json();
        };
        compare_figure(out, name, nullptr, "occupancy", occ(*b), occ(k), false);
        amd_changes(out, name, b->value("amd_static", json()), k.value("amd_static", json()));
    }
    return out;
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

/// The verdict of two verified results from their kernel-time samples.
void time_verdict(json& e, const std::vector<double>& x, const std::vector<double>& y, const compare_options& o)
{
    const double mb = median_of(x), mn = median_of(y);
    e["base"]["median_ms"] = mb;
    e["new"]["median_ms"] = mn;
    if (x.empty() || y.empty() || mb <= 0) {
        e["verdict"] = "noisy";
        e["reason"] = x.empty() || y.empty() ? "no samples to compare" : "a median of 0 ms";
        return;
    }
    const double change = mn / mb - 1;
    const rank_test t = mann_whitney(x, y);
    e["change"] = change;
    e["p_value"] = t.p;
    e["test"] = t.exact ? "exact" : "normal approximation";
    change_interval(e, x, y, o);
    const bool significant = t.p < o.alpha, large = std::abs(change) >= o.threshold;
    if (significant && large) {
        e["verdict"] = change > 0 ? "slower" : "faster";
        e["reason"] = percent_text(change) + " at p = " + p_text(t.p) + " < " + p_text(o.alpha);
    } else if (!large) {
        e["verdict"] = "same";
        e["reason"] =
            "the medians differ by " + percent_text(change) + ", less than " + percent_text(o.threshold, false);
    } else if (smallest_p(x.size(), y.size()) >= o.alpha) {
        e["verdict"] = "noisy";
        e["reason"] = percent_text(change) + ", but " + std::to_string(x.size()) + " and " + std::to_string(y.size()) +
                      " samples are too few for the test to reach p < " + p_text(o.alpha);
    } else {
        e["verdict"] = "noisy";
        e["reason"] = percent_text(change) + ", but p = " + p_text(t.p) + ": the samples are too scattered to tell";
    }
}

/// The verdict of a configuration in both runs: from the times where both verified, else from
/// the statuses.
void pair_verdict(json& e, const json& b, const json& n, const results_reader& rb, const results_reader& rn,
                  const compare_options& o)
{
    const auto sb = status_of(b), sn = status_of(n);
    const bool vb = sb == status::verified, vn = sn == status::verified;
    auto error_of = [](const json& x) {
        return x.value("error", json()).is_string() ? ": " + shown(x["error"].get<std::string>(), 300) : std::string();
    };
    if (vb && vn) {
        time_verdict(e, samples(b, rb), samples(n, rn), o);
    } else if (sb == status::skipped || sn == status::skipped) {
        e["verdict"] = "skipped";
        e["reason"] = std::string("skipped in ") + (sb == status::skipped ? "BASE" : "NEW");
    } else if (vb) {
        e["verdict"] = "failed";
        e["reason"] = "verified in BASE, " + status_text(n) + " in NEW" + error_of(n);
    } else if (vn) {
        e["verdict"] = "fixed";
        e["reason"] = status_text(b) + " in BASE, verified in NEW";
    } else {
        e["verdict"] = "not verified";
        e["reason"] = status_text(b) + " in BASE, " + status_text(n) + " in NEW" + error_of(n);
    }
    e["resources"] = resource_changes(b, n);
}

/// A result's status, samples and median, as a row of the comparison shows it.
json brief(const json& r, const results_reader& rd)
{
    const auto x = samples(r, rd);
    return {{"status", status_text(r)}, {"samples", x.size()}, {"median_ms", x.empty() ? json() : json(median_of(x))}};
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
            {"resources", json::array()}};
}

/// Every configuration of NEW with its match in BASE, then those only BASE has. Configurations
/// match by family, variant and parameters (the platform is the run's); a key that a suite
/// repeats matches in order.
json matched_rows(const run_input& base, const run_input& now, const results_reader& rb, const results_reader& rn,
                  const compare_options& o)
{
    auto key = [](const json& r, const results_reader& rd) {
        return rd.name(r, "family", "") + "/" + rd.name(r, "variant", "") + " " + params_of(r, rd).dump();
    };
    std::multimap<std::string, const json*> in_base;
    for (const json& r : rb.results(base.doc)) in_base.emplace(key(r, rb), &r);
    json rows = json::array();
    std::set<const json*> matched;
    for (const json& r : rn.results(now.doc)) {
        json e = row_of(r, rn);
        e["new"] = brief(r, rn);
        const json* b = nullptr;
        for (auto [it, end] = in_base.equal_range(key(r, rn)); it != end && !b; ++it)
            if (!matched.count(it->second)) b = it->second;
        if (b) {
            matched.insert(b);
            e["base"] = brief(*b, rb);
            pair_verdict(e, *b, r, rb, rn, o);
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
    return rows;
}

json side_json(const run_input& in, const json& doc)
{
    return {{"label", in.label},
            {"id", in.id ? json(*in.id) : json()},
            {"suite", doc.value("suite", json::object()).value("name", json())},
            {"platform", doc.value("platform", json())},
            {"device", doc.value("device", json::object()).value("name", json())},
            {"toolchain", doc.value("toolchain", json())},
            {"tool_version", doc.value("tool_version", json())},
            {"started", doc.value("started", json())}};
}

} // namespace

json compare_runs(const run_input& base, const run_input& now, const compare_options& o)
{
    const results_reader rb{"BASE (" + base.label + ")"}, rn{"NEW (" + now.label + ")"};
    const auto diffs = check_comparable(base, now, rb, rn, o);
    const json rows = matched_rows(base, now, rb, rn, o);

    // What counts, and whether it fails the comparison.
    json counts = json::object();
    size_t worse_resources = 0;
    for (const auto& v :
         {"faster", "slower", "same", "noisy", "failed", "fixed", "not verified", "skipped", "new", "missing"})
        counts[v] = 0;
    for (const auto& e : rows) {
        counts[e["verdict"].get<std::string>()] = counts[e["verdict"].get<std::string>()].get<int>() + 1;
        worse_resources += std::count_if(e["resources"].begin(), e["resources"].end(),
                                         [](const json& c) { return c["worse"].get<bool>(); });
    }
    std::set<std::string> fail_on = o.fail_on;
    if (fail_on.count("any")) fail_on.insert({"slower", "failed", "resources", "missing"});
    json regressions = json::array();
    for (const char* what : {"slower", "failed", "missing"})
        if (fail_on.count(what) && counts[what].get<int>() > 0) regressions.push_back(what);
    if (fail_on.count("resources") && worse_resources > 0) regressions.push_back("resources");

    json fail_list = json::array();
    for (const auto& f : fail_on)
        if (f != "any") fail_list.push_back(f);
    return {{"base", side_json(base, base.doc)},
            {"new", side_json(now, now.doc)},
            {"differences", diffs},
            {"options",
             {{"alpha", o.alpha},
              {"threshold", o.threshold},
              {"fail_on", fail_list},
              {"allow_device_change", o.allow_device_change}}},
            {"configurations", rows},
            {"counts", counts},
            {"resource_regressions", worse_resources},
            {"regressions", regressions},
            {"regressed", !regressions.empty()}};
}

std::string percent_text(double x, bool sign, bool whole)
{
    std::ostringstream o;
    o << std::fixed << std::setprecision(whole && std::abs(x) >= 0.1 ? 0 : 1) << (sign && x >= 0 ? "+" : "") << 100 * x
      << "%";
    return o.str();
}

std::string p_text(double p)
{
    std::ostringstream o;
    o << std::setprecision(2) << p;
    return o.str();
}

} // namespace wb
