// Planning: a suite expanded into configurations against the loaded plugins (plan/plan.h).
#include "harness/plan/plan.h"

#include "harness/common/files.h"

#include <algorithm>
#include <cstdio>
#include <fnmatch.h>
#include <map>
#include <set>
#include <stdexcept>

namespace wb {

namespace {

/// Calls f(values) for every combination of the axes' values (the cartesian product).
template <class F> void for_each_combination(const std::vector<const axis*>& axes, F&& f)
{
    std::vector<size_t> idx(axes.size(), 0);
    for (;;) {
        param_map m;
        for (size_t i = 0; i < axes.size(); ++i) m[axes[i]->name] = axes[i]->values[idx[i]].v;
        f(m);
        size_t k = 0;
        for (; k < axes.size(); ++k) {
            if (++idx[k] < axes[k]->values.size()) break;
            idx[k] = 0;
        }
        if (k == axes.size()) return;
    }
}

std::string names(const std::vector<const plugin*>& ps)
{
    std::string s;
    for (const auto* p : ps) s += (s.empty() ? "" : ", ") + p->variant;
    return s.empty() ? "none" : s;
}

/// The plugins a benchmark's variant globs select (every glob must match a loaded plugin), the
/// family's baseline and library first, so that every later result can show its speedups at once.
std::vector<const plugin*> chosen_variants(const benchmark_spec& b, const plugin_registry& plugins)
{
    const family& fam = *b.fam;
    std::vector<const plugin*> chosen;
    for (size_t i = 0; i < b.variants.size(); ++i) {
        auto m = plugins.match(fam.name, b.variants[i]);
        if (m.empty())
            throw suite_error(b.variant_pos[i], std::string("no ") + to_string(plugins.platform()) +
                                                    " plugin of family " + fam.name + " matches '" + b.variants[i] +
                                                    "' (loaded: " + names(plugins.of_family(fam.name)) + ")");
        for (const auto* p : m)
            if (std::find(chosen.begin(), chosen.end(), p) == chosen.end()) chosen.push_back(p);
    }
    auto rank = [&](const plugin* p) { return p->variant == fam.baseline ? 0 : p->variant == fam.library ? 1 : 2; };
    std::stable_sort(chosen.begin(), chosen.end(), [&](const plugin* x, const plugin* y) { return rank(x) < rank(y); });
    return chosen;
}

/// The error of a tunable axis that no chosen variant has.
suite_error no_such_tunable(const axis& a, const family& fam, const std::vector<const plugin*>& chosen)
{
    std::set<std::string> known;
    for (const auto* p : chosen)
        for (const auto& t : p->tunables) known.insert(t.name);
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    std::string params;
    for (const auto& p : fam.params) params += (params.empty() ? "" : ", ") + p.name;
    return suite_error(a.pos, "'" + a.name + "' is neither a parameter of family " + fam.name + " (" + params +
                                  ") nor a tunable of the selected variants (" + (list.empty() ? "none" : list) + ")");
}

/// Tunable axes: each must be a tunable of a chosen variant, and each value allowed by one.
void check_tunable_axes(const benchmark_spec& b, const std::vector<const plugin*>& chosen)
{
    for (const axis& a : b.tunable_axes) {
        std::vector<const plugin*> having;
        for (const auto* p : chosen)
            if (p->tunable(a.name)) having.push_back(p);
        if (having.empty()) throw no_such_tunable(a, *b.fam, chosen);
        for (const axis_value& v : a.values) {
            const int64_t* i = std::get_if<int64_t>(&v.v);
            if (!i) throw suite_error(v.pos, "tunable '" + a.name + "' takes integers");
            std::string why;
            bool anyone = false;
            for (const auto* p : having) {
                const std::string w = check_tunable(*p->tunable(a.name), *i);
                anyone |= w.empty();
                if (!w.empty()) why += "; " + p->name() + ": " + w;
            }
            if (!anyone)
                throw suite_error(v.pos,
                                  a.name + " = " + std::to_string(*i) + " is allowed by no selected variant" + why);
        }
    }
}

} // namespace

std::string skip_reason(const plugin& p, const param_map& tunables)
{
    for (const tunable_decl& t : p.tunables)
        if (const auto it = tunables.find(t.name); it != tunables.end())
            if (std::string w = check_tunable(t, std::get<int64_t>(it->second)); !w.empty())
                return t.name + " = " + std::to_string(std::get<int64_t>(it->second)) + " is not allowed: " + w;
    return violated_constraint(p, tunables);
}

std::vector<const plugin*> plan_variants(const benchmark_spec& b, const plugin_registry& plugins)
{
    std::vector<const plugin*> chosen = chosen_variants(b, plugins);
    check_tunable_axes(b, chosen);
    return chosen;
}

namespace {

/// Saturating: a suite's axes may multiply past 2^64.
uint64_t times(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }
uint64_t plus(uint64_t a, uint64_t b) { return std::min(UINT64_MAX - b, a) + b; }

/// How many configurations a benchmark makes with these variants (those that pass the filter).
template <class Passes>
uint64_t count_configs(const benchmark_spec& b, const std::vector<const plugin*>& chosen, Passes&& passes)
{
    uint64_t per_problem = 0;
    for (const plugin* p : chosen) {
        if (!passes(p)) continue;
        uint64_t n = 1;
        for (const auto& a : b.tunable_axes)
            if (p->tunable(a.name)) n = times(n, a.values.size());
        per_problem = plus(per_problem, n);
    }
    uint64_t problems = 1;
    for (const auto& a : b.family_axes) problems = times(problems, a.values.size());
    return times(problems, per_problem);
}

/// The configurations of plugin `p` at family parameters `fp`: every combination of its tunable
/// axes, the rest of its tunables at their defaults; a value it does not allow, or a combination
/// its constraints rule out, is a skip.
void add_configs(std::vector<config>& out, const benchmark_spec& b, size_t bi, size_t group, const plugin* p,
                 const param_map& fp)
{
    std::vector<const axis*> tun_axes;
    for (const auto& a : b.tunable_axes)
        if (p->tunable(a.name)) tun_axes.push_back(&a);
    for_each_combination(tun_axes, [&](const param_map& given) {
        config c{out.size(), bi, group, p, fp, {}, ""};
        for (const tunable_decl& t : p->tunables) {
            auto it = given.find(t.name);
            c.tunables[t.name] = it != given.end() ? std::get<int64_t>(it->second) : t.default_value;
        }
        c.skip = skip_reason(*p, c.tunables);
        out.push_back(std::move(c));
    });
}

} // namespace

std::vector<config> plan_suite(const suite& s, const plugin_registry& plugins, const std::string& filter,
                               uint64_t max_configs)
{
    // First the variants of each benchmark, checked, and how many configurations they make; then,
    // within the limit, the configurations.
    std::vector<std::vector<const plugin*>> chosen_of(s.benchmarks.size());
    uint64_t total = 0;
    auto passes = [&](const plugin* p) { return filter.empty() || fnmatch(filter.c_str(), p->name().c_str(), 0) == 0; };
    for (size_t bi = 0; bi < s.benchmarks.size(); ++bi) {
        chosen_of[bi] = plan_variants(s.benchmarks[bi], plugins);
        total = plus(total, count_configs(s.benchmarks[bi], chosen_of[bi], passes));
    }
    if (total > max_configs)
        throw suite_error(
            {s.file.string(), 0, 0},
            "the suite expands to " + (total == UINT64_MAX ? std::string("more than 2^64") : std::to_string(total)) +
                " configurations" + (filter.empty() ? "" : " (with --filter)") + ", more than the limit of " +
                std::to_string(max_configs) + ": shorten its lists, or raise the limit with --max-configs N");

    std::vector<config> out;
    size_t group = 0;
    for (size_t bi = 0; bi < s.benchmarks.size(); ++bi) {
        const benchmark_spec& b = s.benchmarks[bi];
        std::vector<const axis*> fam_axes;
        for (const auto& a : b.family_axes) fam_axes.push_back(&a);
        for_each_combination(fam_axes, [&](const param_map& fp) {
            if (std::string why = b.fam->check(fp); !why.empty())
                throw suite_error(b.pos, "impossible parameters (" + params_text(fp, {}) + "): " + why);
            for (const plugin* p : chosen_of[bi])
                if (passes(p)) add_configs(out, b, bi, group, p, fp);
            ++group;
        });
    }
    if (!filter.empty() && out.empty())
        throw std::runtime_error("--filter '" + shorten(filter) + "' matches no configuration of the suite");
    return out;
}

shard_spec parse_shard(const std::string& text)
{
    unsigned i = 0, n = 0;
    int used = 0;
    if (std::sscanf(text.c_str(), "%u/%u%n", &i, &n, &used) != 2 || size_t(used) != text.size() || text[0] == '+' ||
        text[0] == '-')
        throw std::invalid_argument("'" + shorten(text) + "' is not I/N (shard I of N, e.g. 2/4)");
    if (n < 1 || n > max_shards)
        throw std::invalid_argument("N in I/N is between 1 and " + std::to_string(max_shards) + ", not " +
                                    std::to_string(n));
    if (i < 1 || i > n)
        throw std::invalid_argument("I in I/N counts from 1 to N (" + std::to_string(n) + "), not " +
                                    std::to_string(i));
    return {i, n};
}

std::vector<config> shard_of(const std::vector<config>& plan, shard_spec s)
{
    if (s.count == 0) return plan;
    // The groups, in plan order, and their sizes.
    std::map<size_t, size_t> size_of;
    for (const config& c : plan) ++size_of[c.group];
    std::vector<std::pair<size_t, size_t>> groups(size_of.begin(), size_of.end()); // (group, size)
    std::stable_sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::vector<size_t> load(s.count, 0);
    std::set<size_t> mine;
    for (const auto& [g, n] : groups) {
        const size_t k = size_t(std::min_element(load.begin(), load.end()) - load.begin());
        load[k] += n;
        if (k + 1 == s.index) mine.insert(g);
    }
    std::vector<config> out;
    for (const config& c : plan)
        if (mine.count(c.group)) out.push_back(c);
    return out;
}

std::string plan_digest(const std::vector<config>& plan)
{
    uint64_t h = 1469598103934665603ull; // FNV-1a, 64 bits: the same in every build
    auto add = [&](const std::string& s) {
        for (unsigned char ch : s) h = (h ^ ch) * 1099511628211ull;
        h = (h ^ 0xff) * 1099511628211ull; // a separator no name contains
    };
    for (const config& c : plan) {
        add(c.plug->name());
        add(params_text(c.family_params, c.tunables));
        add(std::to_string(c.group));
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

} // namespace wb
