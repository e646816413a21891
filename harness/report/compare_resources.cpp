// The kernels' resources of two results compared (report/compare.h): kernel by kernel, by name,
// each AMD target both runs have too, and the measured SIMT efficiency and occupancy where both
// runs read counters; every change listed, those for the worse marked.
#include "harness/report/compare.h"

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

using json = nlohmann::json;

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

/// Measured SIMT efficiency and achieved occupancy (run --counters) of each launch both runs
/// counted (by position, the same kernel), in percent, where they moved by more than their margin:
/// the SIMT efficiency follows from the instructions, which a run repeats exactly; occupancy moves
/// a little from run to run.
void counter_changes(json& out, const json& base, const json& now)
{
    const json cb = base.value("counters", json()), cn = now.value("counters", json());
    if (!cb.is_object() || !cn.is_object()) return;
    const json lb = cb.value("launches", json()), ln = cn.value("launches", json());
    if (!lb.is_array() || !ln.is_array()) return;
    for (size_t i = 0; i < std::min(lb.size(), ln.size()); ++i) {
        if (!lb[i].is_object() || !ln[i].is_object() || lb[i].value("kernel", json()) != ln[i].value("kernel", json()))
            continue;
        const json kernel = ln[i].value("kernel", json());
        const std::string name = kernel.is_string() ? kernel.get<std::string>() : "?";
        for (const auto& [field, margin] : {std::pair{"simt_efficiency", 1.0}, std::pair{"achieved_occupancy", 5.0}}) {
            const auto value = [&](const json& l) {
                const json v = l.value("values", json());
                return v.is_object() ? v.value(field, json()) : json();
            };
            const json b = value(lb[i]), n = value(ln[i]);
            if (!b.is_number() || !n.is_number()) continue;
            const double pb = std::round(1000 * b.get<double>()) / 10, pn = std::round(1000 * n.get<double>()) / 10;
            if (std::abs(pn - pb) > margin)
                compare_figure(out, name, nullptr, (std::string(field) + "_pct").c_str(), pb, pn, false);
        }
    }
}

} // namespace

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
    counter_changes(out, base, now);
    return out;
}

} // namespace wb
