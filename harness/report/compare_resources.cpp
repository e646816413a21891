// The kernels' resources of two results compared (report/compare.h): kernel by kernel, by name,
// each AMD target both runs have too; every change listed, those for the worse marked.
#include "harness/report/compare.h"

#include <algorithm>

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
    return out;
}

} // namespace wb
