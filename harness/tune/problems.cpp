// A suite turned into the problems `wavebench tune` searches (tune/problems.h).
#include "harness/tune/problems.h"

#include <algorithm>
#include <fnmatch.h>
#include <stdexcept>

namespace wb {

std::vector<int64_t> tunable_values(const tunable_decl& t, size_t limit)
{
    std::vector<int64_t> v = t.allowed;
    if (v.empty()) {
        const auto too_many = [&] {
            return std::invalid_argument("tunable '" + t.name + "' allows " + describe_allowed(t) + ": more than " +
                                         std::to_string(limit) +
                                         " values to search; list the values to try in the "
                                         "suite (" +
                                         t.name + " = [...])");
        };
        if (t.power_of_two) {
            for (int64_t x = 1; x > 0 && x <= t.max; x *= 2)
                if (x >= t.min) v.push_back(x);
        } else {
            if (t.max < t.min || uint64_t(t.max - t.min) >= limit) throw too_many();
            for (int64_t x = t.min; x <= t.max; ++x) v.push_back(x);
        }
    }
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    if (v.size() > limit)
        throw std::invalid_argument("tunable '" + t.name + "' has more than " + std::to_string(limit) +
                                    " values to search");
    return v;
}

param_map tune_problem::tunables_at(const tune::point& p) const
{
    param_map m = defaults();
    for (size_t d = 0; d < space.dims.size(); ++d) m[space.dims[d].name] = space.dims[d].values.at(p.at(d));
    return m;
}

param_map tune_problem::defaults() const
{
    param_map m;
    for (const tunable_decl& t : plug->tunables) m[t.name] = t.default_value;
    return m;
}

config tune_problem::config_with(const param_map& tunables, size_t index) const
{
    return {index, benchmark, group, plug, family_params, tunables, skip_reason(*plug, tunables)};
}

namespace {

/// The space of plugin `p`'s tunables in benchmark `b`: the suite's values where it lists some
/// (those `p` allows), else every value `p` allows; points outside its constraints not allowed.
tune::space space_of(const benchmark_spec& b, const plugin* p)
{
    tune::space s;
    for (const tunable_decl& t : p->tunables) {
        tune::dimension d{t.name, {}};
        const auto axis =
            std::find_if(b.tunable_axes.begin(), b.tunable_axes.end(), [&](const auto& a) { return a.name == t.name; });
        if (axis == b.tunable_axes.end()) {
            d.values = tunable_values(t, max_tunable_values);
        } else {
            for (const axis_value& v : axis->values)
                if (const int64_t* i = std::get_if<int64_t>(&v.v); i && check_tunable(t, *i).empty())
                    d.values.push_back(*i);
            std::sort(d.values.begin(), d.values.end());
            d.values.erase(std::unique(d.values.begin(), d.values.end()), d.values.end());
        }
        s.dims.push_back(std::move(d));
    }
    if (!p->constraints.empty())
        s.allowed = [p, dims = s.dims](const tune::point& x) {
            param_map m;
            for (size_t k = 0; k < dims.size(); ++k) m[dims[k].name] = dims[k].values[x[k]];
            return violated_constraint(*p, m).empty();
        };
    return s;
}

} // namespace

std::vector<tune_problem> tune_problems(const suite& s, const plugin_registry& plugins, const std::string& filter)
{
    std::vector<tune_problem> out;
    size_t group = 0;
    for (size_t bi = 0; bi < s.benchmarks.size(); ++bi) {
        const benchmark_spec& b = s.benchmarks[bi];
        std::vector<const plugin*> chosen;
        for (const plugin* p : plan_variants(b, plugins))
            if (filter.empty() || fnmatch(filter.c_str(), p->name().c_str(), 0) == 0) chosen.push_back(p);
        std::vector<tune::space> spaces;
        for (const plugin* p : chosen) {
            try {
                spaces.push_back(space_of(b, p));
            } catch (const std::invalid_argument& e) {
                throw suite_error(b.pos, p->name() + ": " + e.what());
            }
        }
        // Every combination of the family axes (the cartesian product, as `run` plans it).
        std::vector<size_t> idx(b.family_axes.size(), 0);
        for (bool more = true; more; ++group) {
            param_map fp;
            for (size_t i = 0; i < idx.size(); ++i) fp[b.family_axes[i].name] = b.family_axes[i].values[idx[i]].v;
            if (std::string why = b.fam->check(fp); !why.empty())
                throw suite_error(b.pos, "impossible parameters (" + params_text(fp, {}) + "): " + why);
            for (size_t k = 0; k < chosen.size(); ++k) out.push_back({bi, group, chosen[k], fp, spaces[k]});
            size_t a = 0;
            for (; a < idx.size(); ++a) {
                if (++idx[a] < b.family_axes[a].values.size()) break;
                idx[a] = 0;
            }
            more = a < idx.size();
        }
    }
    if (!filter.empty() && out.empty())
        throw std::runtime_error("--filter '" + shorten(filter) + "' matches no variant of the suite");
    return out;
}

} // namespace wb
