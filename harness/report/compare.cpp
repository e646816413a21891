#include "harness/report/compare.h"

#include "core/stats.h"
#include "harness/common/files.h"
#include "harness/report/results_json.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

namespace wb {

namespace {

using json = nlohmann::json;

/// What a results document must hold to be compared; what it holds comes from a file and is
/// checked as it is read.
struct reader {
    std::string who; // "BASE (results.json)"

    [[noreturn]] void fail(const std::string& what) const { throw std::invalid_argument(who + ": " + what); }

    const json& at(const json& j, const char* key) const
    {
        if (!j.is_object() || !j.contains(key)) fail(std::string("no '") + key + "'");
        return j.at(key);
    }
    std::string text(const json& j, const char* key) const
    {
        const json& v = at(j, key);
        if (!v.is_string()) fail(std::string("'") + key + "' is not a string");
        return v.get<std::string>();
    }
    /// Times in ms: finite and not negative.
    std::vector<double> samples(const json& r) const
    {
        const json& v = at(r, "samples_ms");
        if (!v.is_array()) fail("'samples_ms' is not an array");
        std::vector<double> x;
        for (const json& s : v) {
            if (!s.is_number() || !std::isfinite(s.get<double>()) || s.get<double>() < 0)
                fail("'samples_ms' holds something that is no time");
            x.push_back(s.get<double>());
        }
        return x;
    }
};

std::string value_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

/// "n=1000 block=256"
/// "n=1000 block=256", without the parameters named in `leave_out`.
std::string params_text(const json& params, const std::set<std::string>& leave_out = {})
{
    std::string s;
    if (params.is_object())
        for (const auto& [k, v] : params.items())
            if (!leave_out.count(k)) s += (s.empty() ? "" : " ") + k + "=" + value_text(v);
    return s;
}

/// Per family, the parameters with one value wherever they appear ("block_size=256"; a tunable
/// only some variants have counts too): said once under the console table, so the column keeps
/// what tells the rows apart.
std::map<std::string, json> common_params(const json& rows)
{
    std::map<std::string, std::map<std::string, std::set<std::string>>> values; // family, key: values
    std::map<std::string, json> first;                                          // family, key: a value
    for (const auto& e : rows)
        if (e["params"].is_object())
            for (const auto& [k, v] : e["params"].items()) {
                values[e["family"]][k].insert(v.dump());
                first[e["family"]][k] = v;
            }
    std::map<std::string, json> common;
    for (const auto& e : rows) common[e["family"]] = json::object();
    for (const auto& [family, keys] : values)
        for (const auto& [k, v] : keys)
            if (v.size() == 1) common[family][k] = first[family][k];
    return common;
}

std::string status_of(const json& r) { return r.contains("status") && r["status"].is_string() ? r["status"].get<std::string>() : "?"; }

double median_of(std::vector<double> x) { return summarize(std::move(x)).median; }

/// The ways BASE and NEW differ in where they ran; compared only when asked.
std::vector<std::string> differences(const json& base, const json& now, const reader& rb, const reader& rn)
{
    std::vector<std::string> d;
    auto same = [&](const std::string& what, const std::string& b, const std::string& n) {
        if (b != n) d.push_back(what + " '" + shorten(b) + "' in BASE, '" + shorten(n) + "' in NEW");
    };
    same("platform", rb.text(base, "platform"), rn.text(now, "platform"));
    // The device models a run used: its devices (a run on several, schema 4), else its device.
    auto models = [](const json& doc, const reader& r, const char* field) {
        std::set<std::string> m;
        if (doc.contains("devices") && doc["devices"].is_array() && !doc["devices"].empty())
            for (const json& dev : doc["devices"]) m.insert(r.text(dev, field));
        else
            m.insert(r.text(r.at(doc, "device"), field));
        std::string out;
        for (const auto& x : m) out += (out.empty() ? "" : ", ") + x;
        return out;
    };
    same("device", models(base, rb, "name"), models(now, rn, "name"));
    same("architecture", models(base, rb, "arch"), models(now, rn, "arch"));
    auto warp = [](const json& doc) { return doc.value("platform_options", json::object()).value("warp_size", json()).dump(); };
    same("wavefront width", warp(base), warp(now));
    same("toolchain", base.value("toolchain", ""), now.value("toolchain", ""));
    return d;
}

/// One kernel figure in BASE and NEW, and whether the change is for the worse.
void compare_figure(json& out, const std::string& kernel, const json& target, const char* field, const json& b,
                    const json& n, bool more_is_worse)
{
    if (!b.is_number() || !n.is_number() || b == n) return;
    const bool worse = more_is_worse ? n.get<double>() > b.get<double>() : n.get<double>() < b.get<double>();
    out.push_back({{"kernel", kernel}, {"target", target}, {"field", field}, {"base", b}, {"new", n}, {"worse", worse}});
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
        const auto b = std::find_if(kb.begin(), kb.end(), [&](const json& x) { return x.is_object() && x.value("name", json()) == k["name"]; });
        if (b == kb.end()) continue;
        for (const char* f : {"registers", "sgprs", "agprs", "lds_bytes", "scratch_bytes"})
            compare_figure(out, name, nullptr, f, b->value(f, json()), k.value(f, json()), true);
        auto occ = [](const json& x) { return x.value("occupancy", json()).is_object() ? x["occupancy"].value("value", json()) : json(); };
        compare_figure(out, name, nullptr, "occupancy", occ(*b), occ(k), false);
        const json ab = b->value("amd_static", json()), an = k.value("amd_static", json());
        if (!ab.is_array() || !an.is_array()) continue;
        for (const json& t : an) {
            if (!t.is_object()) continue;
            const auto tb = std::find_if(ab.begin(), ab.end(), [&](const json& x) { return x.is_object() && x.value("target", json()) == t.value("target", json()); });
            if (tb == ab.end()) continue;
            for (const char* f : {"vgprs", "agprs", "sgprs", "lds_bytes", "scratch_bytes", "vgpr_spills", "sgpr_spills"})
                compare_figure(out, name, t.value("target", json()), f, tb->value(f, json()), t.value(f, json()), true);
            auto waves = [](const json& x) { return x.value("occupancy", json()).is_object() ? x["occupancy"].value("waves_per_simd", json()) : json(); };
            compare_figure(out, name, t.value("target", json()), "waves_per_simd", waves(*tb), waves(t), false);
        }
    }
    return out;
}

/// "+12.3%"; `whole`: no decimals from 10% on ("+146%"), for the narrow interval column.
std::string percent(double x, bool sign = true, bool whole = false)
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
    // The interval of the change, from the Hodges-Lehmann interval of the shift of log times.
    const bool positive = std::all_of(x.begin(), x.end(), [](double v) { return v > 0; }) &&
                          std::all_of(y.begin(), y.end(), [](double v) { return v > 0; });
    if (positive) {
        std::vector<double> lx(x.size()), ly(y.size());
        std::transform(x.begin(), x.end(), lx.begin(), [](double v) { return std::log(v); });
        std::transform(y.begin(), y.end(), ly.begin(), [](double v) { return std::log(v); });
        const shift_estimate s = hodges_lehmann(lx, ly, 1 - o.alpha);
        if (std::isfinite(s.lo)) e["ci"] = {std::exp(s.lo) - 1, std::exp(s.hi) - 1};
    }
    const bool significant = t.p < o.alpha, large = std::abs(change) >= o.threshold;
    if (significant && large) {
        e["verdict"] = change > 0 ? "slower" : "faster";
        e["reason"] = percent(change) + " at p = " + p_text(t.p) + " < " + p_text(o.alpha);
    } else if (!large) {
        e["verdict"] = "same";
        e["reason"] = "the medians differ by " + percent(change) + ", less than " + percent(o.threshold, false);
    } else if (smallest_p(x.size(), y.size()) >= o.alpha) {
        e["verdict"] = "noisy";
        e["reason"] = percent(change) + ", but " + std::to_string(x.size()) + " and " + std::to_string(y.size()) +
                      " samples are too few for the test to reach p < " + p_text(o.alpha);
    } else {
        e["verdict"] = "noisy";
        e["reason"] = percent(change) + ", but p = " + p_text(t.p) + ": the samples are too scattered to tell";
    }
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

json brief(const json& r, const reader& rd)
{
    const auto x = rd.samples(r);
    return {{"status", status_of(r)}, {"samples", x.size()}, {"median_ms", x.empty() ? json() : json(median_of(x))}};
}

} // namespace

json compare_runs(const run_input& base, const run_input& now, const compare_options& o)
{
    const reader rb{"BASE (" + base.label + ")"}, rn{"NEW (" + now.label + ")"};
    for (const auto& [in, rd] : {std::pair{&base, &rb}, std::pair{&now, &rn}}) {
        const json& v = rd->at(in->doc, "schema_version");
        if (!v.is_number_integer() || v.get<int64_t>() < 3)
            rd->fail("results of schema_version " + v.dump() +
                     ", which keep no samples; compare needs schema 3 or later (run the suite again with this "
                     "wavebench)");
        if (!rd->at(in->doc, "results").is_array()) rd->fail("'results' is not an array");
    }
    const auto diffs = differences(base.doc, now.doc, rb, rn);
    if (!diffs.empty() && !o.allow_device_change) {
        std::string what;
        for (const auto& d : diffs) what += "\n  " + d;
        throw std::invalid_argument("BASE and NEW did not run alike:" + what +
                                    "\ntimes from different machines or toolchains are not comparable; "
                                    "--allow-device-change compares them anyway");
    }

    // Configurations match by family, variant and parameters (the platform is the run's); a key
    // that a suite repeats matches in order.
    auto key = [](const json& r, const reader& rd) {
        return rd.text(r, "family") + "/" + rd.text(r, "variant") + " " + rd.at(r, "params").dump();
    };
    std::multimap<std::string, const json*> in_base;
    for (const json& r : base.doc["results"]) in_base.emplace(key(r, rb), &r);

    json rows = json::array();
    std::set<const json*> matched;
    for (const json& r : now.doc["results"]) {
        json e{{"family", rn.text(r, "family")},
               {"variant", rn.text(r, "variant")},
               {"params", rn.at(r, "params")},
               {"change", nullptr},
               {"ci", nullptr},
               {"p_value", nullptr},
               {"resources", json::array()},
               {"new", brief(r, rn)}};
        const std::string k = key(r, rn);
        const json* b = nullptr;
        for (auto [it, end] = in_base.equal_range(k); it != end && !b; ++it)
            if (!matched.count(it->second)) b = it->second;
        if (!b) {
            e["verdict"] = "new";
            e["reason"] = "not in BASE";
            e["base"] = nullptr;
            rows.push_back(e);
            continue;
        }
        matched.insert(b);
        e["base"] = brief(*b, rb);
        const std::string sb = status_of(*b), sn = status_of(r);
        const bool vb = sb == "verified", vn = sn == "verified";
        auto error_of = [](const json& x) { return x.value("error", json()).is_string() ? ": " + shown(x["error"].get<std::string>(), 300) : std::string(); };
        if (vb && vn) {
            time_verdict(e, rb.samples(*b), rn.samples(r), o);
        } else if (sb == "skipped" || sn == "skipped") {
            e["verdict"] = "skipped";
            e["reason"] = std::string("skipped in ") + (sb == "skipped" ? "BASE" : "NEW");
        } else if (vb) {
            e["verdict"] = "failed";
            e["reason"] = "verified in BASE, " + sn + " in NEW" + error_of(r);
        } else if (vn) {
            e["verdict"] = "fixed";
            e["reason"] = sb + " in BASE, verified in NEW";
        } else {
            e["verdict"] = "not verified";
            e["reason"] = sb + " in BASE, " + sn + " in NEW" + error_of(r);
        }
        e["resources"] = resource_changes(*b, r);
        rows.push_back(e);
    }
    for (const json& r : base.doc["results"])
        if (!matched.count(&r))
            rows.push_back({{"family", rb.text(r, "family")},
                            {"variant", rb.text(r, "variant")},
                            {"params", rb.at(r, "params")},
                            {"verdict", "missing"},
                            {"reason", "in BASE, not in NEW"},
                            {"base", brief(r, rb)},
                            {"new", nullptr},
                            {"change", nullptr},
                            {"ci", nullptr},
                            {"p_value", nullptr},
                            {"resources", json::array()}});

    // What counts, and whether it fails the comparison.
    json counts = json::object();
    size_t worse_resources = 0;
    for (const auto& v : {"faster", "slower", "same", "noisy", "failed", "fixed", "not verified", "skipped", "new", "missing"})
        counts[v] = 0;
    for (auto& e : rows) {
        counts[e["verdict"].get<std::string>()] = counts[e["verdict"].get<std::string>()].get<int>() + 1;
        worse_resources += std::count_if(e["resources"].begin(), e["resources"].end(), [](const json& c) { return c["worse"].get<bool>(); });
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
             {{"alpha", o.alpha}, {"threshold", o.threshold}, {"fail_on", fail_list}, {"allow_device_change", o.allow_device_change}}},
            {"configurations", rows},
            {"counts", counts},
            {"resource_regressions", worse_resources},
            {"regressions", regressions},
            {"regressed", !regressions.empty()}};
}

namespace {

std::string ms_or_dash(const json& side)
{
    return side.is_object() && side["median_ms"].is_number() ? format_ms(side["median_ms"].get<double>()) : "-";
}

std::string ci_text(const json& e)
{
    return e["ci"].is_array()
               ? "[" + percent(e["ci"][0].get<double>(), true, true) + ", " + percent(e["ci"][1].get<double>(), true, true) + "]"
               : "-";
}

std::string resource_text(const json& c)
{
    std::string s = c["kernel"].get<std::string>();
    if (c["target"].is_string()) s += " " + c["target"].get<std::string>();
    return s + " " + c["field"].get<std::string>() + " " + value_text(c["base"]) + " -> " + value_text(c["new"]) +
           (c["worse"].get<bool>() ? " (worse)" : "");
}

std::string summary_line(const json& cmp)
{
    std::string s;
    for (const auto& [k, v] : cmp["counts"].items())
        if (v.get<int>() > 0) s += (s.empty() ? "" : ", ") + std::to_string(v.get<int>()) + " " + k;
    if (cmp["resource_regressions"].get<size_t>() > 0)
        s += "; " + std::to_string(cmp["resource_regressions"].get<size_t>()) + " resource regressions";
    std::string r;
    for (const auto& x : cmp["regressions"]) r += (r.empty() ? "" : ", ") + x.get<std::string>();
    return (s.empty() ? "nothing to compare" : s) + (r.empty() ? "; no regression" : "; regressed: " + r);
}

} // namespace

void print_comparison(std::ostream& os, const json& cmp, bool markdown)
{
    const json& rows = cmp["configurations"];
    const std::string interval = std::to_string(int(std::round(100 * (1 - cmp["options"]["alpha"].get<double>())))) + "% CI";
    const auto common = common_params(rows);
    auto keys_of = [&](const json& e) {
        std::set<std::string> k;
        if (!markdown)
            for (const auto& [key, v] : common.at(e["family"].get<std::string>()).items()) k.insert(key);
        return k;
    };
    std::vector<std::array<std::string, 8>> cells;
    for (const auto& e : rows)
        cells.push_back({e["verdict"].get<std::string>(),
                         shown(e["family"].get<std::string>() + "/" + e["variant"].get<std::string>(), 80),
                         shown(params_text(e["params"], keys_of(e)), 400), ms_or_dash(e["base"]), ms_or_dash(e["new"]),
                         e["change"].is_number() ? percent(e["change"].get<double>()) : "-", ci_text(e),
                         e["p_value"].is_number() ? p_text(e["p_value"].get<double>()) : "-"});
    const std::array<std::string, 8> head{"verdict", "benchmark", "params", "base", "new", "change", interval, "p"};
    const std::string base = cmp["base"]["label"], now = cmp["new"]["label"];
    if (markdown) {
        os << "### wavebench compare: " << base << " → " << now << "\n\n" << summary_line(cmp) << "\n\n";
        auto line = [&](const std::array<std::string, 8>& c) {
            os << "|";
            for (const auto& x : c) {
                std::string cell; // a '|' from a results file must not end the cell
                for (char ch : x) cell += ch == '|' ? "\\|" : std::string(1, ch);
                os << " " << cell << " |";
            }
            os << "\n";
        };
        auto table = [&](bool all) {
            line(head);
            os << "|---|---|---|--:|--:|--:|--:|--:|\n";
            for (size_t i = 0; i < rows.size(); ++i)
                if (all || rows[i]["verdict"] != "same") line(cells[i]);
        };
        const bool changes = std::any_of(rows.begin(), rows.end(), [](const json& e) { return e["verdict"] != "same"; });
        if (changes) table(false);
        else os << "Every configuration is the same.\n";
        os << "\n<details><summary>all " << rows.size() << " configurations</summary>\n\n";
        table(true);
        os << "\n</details>\n";
    } else {
        std::array<size_t, 8> w{};
        for (size_t c = 0; c < 8; ++c) {
            w[c] = head[c].size();
            for (const auto& r : cells) w[c] = std::max(w[c], r[c].size());
        }
        // The parameters take what 120 columns leave (at least 12).
        size_t others = 2 * 7;
        for (size_t c = 0; c < 8; ++c) others += c == 2 ? 0 : w[c];
        w[2] = std::min(w[2], std::max<size_t>(12, 120 - std::min<size_t>(others, 108)));
        os << "BASE " << base << "\nNEW  " << now << "\n\n";
        auto line = [&](const std::array<std::string, 8>& c) {
            std::string s;
            for (size_t i = 0; i < 8; ++i) {
                const std::string x = i == 2 && c[i].size() > w[i] ? c[i].substr(0, w[i] - 3) + "..." : c[i];
                const bool right = i >= 3;
                s += (i ? "  " : "") + (right ? std::string(w[i] - x.size(), ' ') + x : x + std::string(w[i] - x.size(), ' '));
            }
            while (!s.empty() && s.back() == ' ') s.pop_back();
            os << s << "\n";
        };
        line(head);
        size_t total = 0;
        for (size_t c : w) total += c + 2;
        os << std::string(total - 2, '-') << "\n";
        for (const auto& r : cells) line(r);
        std::string same_everywhere;
        for (const auto& [family, params] : common)
            if (!params.empty()) same_everywhere += "  " + shown(family, 80) + ": " + shown(params_text(params), 400) + "\n";
        if (!same_everywhere.empty()) os << "\nin every row of the family:\n" << same_everywhere;
    }
    // Why a configuration is noisy, failed, new, missing..., and each resource change.
    std::string notes;
    for (size_t i = 0; i < rows.size(); ++i) {
        const json& e = rows[i];
        const std::string v = e["verdict"];
        std::string what = v != "same" && v != "slower" && v != "faster" ? e["reason"].get<std::string>() : ""; // those: in the table
        for (const auto& c : e["resources"]) what += (what.empty() ? "" : "; ") + resource_text(c);
        if (!what.empty())
            notes += (markdown ? "- " : "  ") + cells[i][1] + " " + cells[i][2] + ": " + cells[i][0] + ": " + what + "\n";
    }
    for (const auto& d : cmp["differences"]) notes += std::string(markdown ? "- " : "  ") + "ran differently: " + d.get<std::string>() + "\n";
    if (!notes.empty()) os << "\n" << (markdown ? "" : "notes:\n") << notes;
    if (!markdown) os << "\n" << summary_line(cmp) << "\n";
}

void add_compare_options(CLI::App* cmd, compare_options& o)
{
    cmd->add_option("--alpha", o.alpha, "significance level of the two-sided Mann-Whitney U test")
        ->capture_default_str()
        ->check(real(1e-9, 0.5));
    cmd->add_option_function<double>(
           "--threshold", [&o](double pct) { o.threshold = pct / 100; },
           "the smallest change of the median kernel time that counts, in %")
        ->default_str(std::to_string(int(std::round(100 * o.threshold))))
        ->check(real(0, 1000));
    cmd->add_flag("--allow-device-change", o.allow_device_change,
                  "compare runs from different devices, platforms, wavefront widths or toolchains (refused otherwise)");
}

void add_compare_command(CLI::App& app, command_list& commands)
{
    struct options {
        std::string base, now, db, format = "table";
        compare_options compare;
        std::vector<std::string> fail_on;
    };
    auto o = std::make_shared<options>();
    auto* cmd = app.add_subcommand(
        "compare", "Compare two runs configuration by configuration: faster, slower, same or noisy (Mann-Whitney U "
                   "test and a minimum change), verification and resource changes; exit 1 on a regression");
    cmd->add_option("base", o->base, "BASE: a results file, or a run of the history: an id, latest, previous, baseline")
        ->required()
        ->check(a_path);
    cmd->add_option("new", o->now, "NEW: as BASE")->required()->check(a_path);
    add_compare_options(cmd, o->compare);
    cmd->add_option("--fail-on", o->fail_on,
                    "what makes the exit status 1: slower, failed (verified in BASE, not in NEW), resources (more "
                    "registers, LDS, scratch or spills, less occupancy), missing (in BASE, not in NEW), any, none; "
                    "repeatable or comma-separated (default: slower,failed,resources)")
        ->delimiter(',')
        ->check([](const std::string& s) -> std::string {
            return fail_on_names.count(s) ? "" : "'" + shorten(s) + "' is not one of slower, failed, resources, missing, any, none";
        });
    cmd->add_option("--format", o->format, "table, markdown (a pull-request comment) or json")
        ->capture_default_str()
        ->check(CLI::IsMember({"table", "markdown", "json"}));
    add_db_option(cmd, o->db, "take run ids and names from");
    commands.push_back({cmd, [o] {
                            compare_options co = o->compare;
                            if (!o->fail_on.empty()) co.fail_on = {o->fail_on.begin(), o->fail_on.end()};
                            if (co.fail_on.count("none") && co.fail_on.size() > 1)
                                throw std::invalid_argument("--fail-on none cannot be combined with anything else");
                            const auto runs = load_run_inputs({o->base, o->now}, o->db);
                            const json cmp = compare_runs(runs.at(0), runs.at(1), co);
                            if (o->format == "json") std::cout << cmp.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
                            else print_comparison(std::cout, cmp, o->format == "markdown");
                            return cmp["regressed"].get<bool>() ? 1 : 0;
                        }});
}

} // namespace wb
