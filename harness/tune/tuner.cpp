// `wavebench tune`'s search of one problem (tune/tuner.h).
#include "harness/tune/tuner.h"

#include "harness/common/json.h"
#include "harness/measure/interrupt.h"
#include "harness/report/compare.h"
#include "harness/report/results_json.h"
#include "harness/telemetry/record.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>

namespace wb {

uint64_t default_budget(uint64_t allowed) { return std::min<uint64_t>(std::max<uint64_t>(1, (allowed + 3) / 4), 100); }

std::optional<uint64_t> allowed_points(const tune_problem& pb)
{
    if (pb.space.size() > tune::max_enumerated) return std::nullopt;
    return pb.space.enumerate().size();
}

namespace {

/// The plugin's build: a digest of its file, computed once per file.
const std::string& build_of(const plugin& p)
{
    static std::map<std::filesystem::path, std::string> digests;
    auto it = digests.find(p.path);
    if (it == digests.end()) it = digests.emplace(p.path, p.path.empty() ? "" : file_digest(p.path)).first;
    return it->second;
}

/// What makes two measurements the same: the build, the device, the parameters, the inputs and how
/// long it was measured.
std::string cache_key(const config& c, const run_settings& s, const std::string& device)
{
    nlohmann::json key{{"plugin", c.plug->name()},
                       {"build", build_of(*c.plug)},
                       {"device", device},
                       {"params", params_json(c.family_params, c.tunables)},
                       {"seed", s.seed},
                       {"repetitions", s.repetitions},
                       {"warmup", s.warmup},
                       {"min_time_s", s.min_time_s},
                       {"max_samples", s.max_samples},
                       {"verify_every", s.verify_every}};
    if (s.energy) key["energy"] = true; // a row measured without its energy serves only a time tune
    return key.dump();
}

/// A row's joules per run (null where it has none).
const nlohmann::json& energy_per_run(const nlohmann::json& row)
{
    static const nlohmann::json none;
    const nlohmann::json& e = row.contains("energy") ? row["energy"] : none;
    return e.is_object() && e.contains("joules_per_run") ? e["joules_per_run"] : none;
}

/// What the search minimises: a verified row's kernel time, or its joules per run (--objective
/// energy); none for a row that did not verify or has no such figure.
tune::outcome outcome_of(const nlohmann::json& row, const std::string& objective)
{
    if (row.value("status", "") != "verified") return std::nullopt;
    const nlohmann::json& v = objective == "energy" ? energy_per_run(row) : row["time_ms"];
    if (!v.is_number()) return std::nullopt;
    return v.get<double>();
}

/// An objective's value as the console shows it: "93.4 us", "1.2 mJ".
std::string value_text(double v, const std::string& objective)
{
    return objective == "energy" ? joules_text(v) : format_ms(v);
}

/// Why a verified row has no energy figure ("" where it has one, or did not verify).
std::string energy_missing(const nlohmann::json& row)
{
    if (row.value("status", "") != "verified" || energy_per_run(row).is_number()) return "";
    const nlohmann::json e = row.value("energy", nlohmann::json());
    return e.is_object() && e["unavailable"].is_string() ? e["unavailable"].get<std::string>()
                                                         : "the result has no energy figure";
}

/// Measures `tunables` of `pb` (or takes them from the cache) into env.rows, with its `tune` object.
/// None when interrupted.
std::optional<nlohmann::json> measure_row(const tune_problem& pb, const param_map& tunables, const run_settings& s,
                                          nlohmann::json tag, tune_env& env)
{
    const config c = pb.config_with(tunables, env.rows.size());
    const std::string key = cache_key(c, s, env.device_key);
    nlohmann::json row;
    if (auto cached = env.cache.find(key)) {
        row = std::move(*cached);
        tag["cached"] = true;
    } else {
        const std::vector<result> r = env.measure.run({c}, s, [](const std::vector<result>&, size_t) {});
        if (r.empty()) return std::nullopt;
        row = result_row(r[0]);
        if (!s.energy || energy_missing(row).empty()) env.cache.add(key, row); // never a row that lacks its energy
        tag["cached"] = false;
    }
    row["plan_index"] = c.index;
    row["tune"] = std::move(tag);
    env.rows.push_back(row);
    return row;
}

std::string tunables_text(const param_map& t) { return params_text(params_json({}, t), {}); }

/// One line of the search: evaluation, point, its time or status, the best so far.
void print_step(std::ostream& os, uint64_t k, const std::string& point, const nlohmann::json& row,
                std::optional<double> best, const std::string& objective)
{
    char head[32];
    std::snprintf(head, sizeof head, "  %4llu  ", static_cast<unsigned long long>(k));
    os << head << point;
    if (const auto t = outcome_of(row, objective))
        os << "   " << value_text(*t, objective);
    else
        os << "   " << row.value("status", "?")
           << (row["error"].is_string() ? ": " + shown(row["error"].get<std::string>(), 60) : "");
    if (row["tune"].value("cached", false)) os << " (cached)";
    if (best) os << "   best " << value_text(*best, objective);
    os << "\n";
}

/// BASE (the default) against NEW (the tuned best) as `compare` tests two runs' samples: the
/// configuration's verdict, change, interval and p-value.
nlohmann::json compare_rows(const nlohmann::json& header, nlohmann::json base, nlohmann::json now)
{
    auto doc = [&](nlohmann::json row) {
        row["params"] = nlohmann::json::object(); // the same configuration, whatever its tunables
        nlohmann::json d = header;
        d["complete"] = true;
        d["results"] = nlohmann::json::array({row});
        return d;
    };
    compare_options o;
    o.fail_on = {"none"};
    o.ignore_code_digest = true; // one plugin at two points: the same code, yet another configuration
    const nlohmann::json cmp = compare_runs(results_input(doc(base), "default", std::nullopt),
                                            results_input(doc(now), "tuned", std::nullopt), o);
    const nlohmann::json& c = cmp.at("configurations").at(0);
    return {{"verdict", c.at("verdict")}, {"reason", c.value("reason", "")}, {"change", c.at("change")},
            {"ci", c.at("ci")},           {"p_value", c.at("p_value")},      {"test", c.value("test", "")}};
}

} // namespace

namespace {

/// The final measurements: the best point and the plugin's default with the suite's settings, and
/// their comparison. Fills `j` (the problem's search).
void measure_finals(const tune_problem& pb, const param_map& best, nlohmann::json& j, tune_env& env)
{
    const param_map def = pb.defaults();
    const auto b = measure_row(pb, best, env.settings, {{"problem", j["index"]}, {"role", "best"}}, env);
    const auto d =
        b ? measure_row(pb, def, env.settings, {{"problem", j["index"]}, {"role", "default"}}, env) : std::nullopt;
    if (!b || !d) return; // interrupted
    auto final_of = [&](const param_map& t, const nlohmann::json& row) {
        nlohmann::json f{{"tunables", params_json({}, t)}, {"status", row["status"]}, {"time_ms", row["time_ms"]}};
        if (env.settings.energy) f["joules_per_run"] = energy_per_run(row);
        return f;
    };
    j["final"] = {{"best", final_of(best, *b)}, {"default", final_of(def, *d)}};
    std::ostream& os = env.out;
    if (!outcome_of(*b, "time") || !outcome_of(*d, "time")) {
        os << "  re-measured: best " << (*b)["status"].get<std::string>() << ", default "
           << (*d)["status"].get<std::string>() << ": not compared\n";
        return;
    }
    // The kernel times' samples are compared as `compare` compares two runs; an energy figure is one
    // loop's, with no samples to test, so its change is only stated.
    const nlohmann::json cmp = compare_rows(env.header, *d, *b);
    j["final"]["comparison"] = cmp;
    os << "  re-measured with " << env.settings.repetitions << " samples: tuned " << format_ms(*outcome_of(*b, "time"))
       << ", default (" << tunables_text(def) << ") " << format_ms(*outcome_of(*d, "time")) << ": "
       << cmp["verdict"].get<std::string>();
    if (cmp["change"].is_number()) os << ", change " << percent_text(cmp["change"].get<double>());
    if (cmp["ci"].is_array())
        os << " [" << percent_text(cmp["ci"][0].get<double>()) << ", " << percent_text(cmp["ci"][1].get<double>())
           << "]";
    if (cmp["p_value"].is_number()) os << ", p " << p_text(cmp["p_value"].get<double>());
    const auto eb = outcome_of(*b, "energy"), ed = outcome_of(*d, "energy");
    if (eb && ed && *ed > 0) {
        j["final"]["energy_change"] = *eb / *ed - 1;
        os << "; energy per run " << joules_text(*eb) << " against " << joules_text(*ed) << " ("
           << percent_text(*eb / *ed - 1) << ")";
    }
    os << "\n";
}

} // namespace

nlohmann::json tune_problem_search(const tune_problem& pb, size_t k, const tune_options& o, tune_env& env)
{
    const std::optional<uint64_t> allowed = allowed_points(pb);
    const uint64_t budget = o.budget                     ? o.budget
                            : o.strategy == "exhaustive" ? allowed.value_or(tune::max_enumerated)
                                                         : default_budget(allowed.value_or(400));
    nlohmann::json j = {{"index", k},
                        {"family", pb.plug->fam->name},
                        {"variant", pb.plug->variant},
                        {"params", params_json(pb.family_params, {})},
                        {"strategy", o.strategy},
                        {"objective", o.objective},
                        {"seed", o.seed},
                        {"budget", budget},
                        {"allowed_points", or_null(allowed)},
                        {"space", nlohmann::json::array()},
                        {"steps", nlohmann::json::array()}};
    for (const auto& d : pb.space.dims) j["space"].push_back({{"name", d.name}, {"values", d.values}});
    std::ostream& os = env.out;
    os << pb.plug->name() << " " << params_text(params_json(pb.family_params, {}), {}) << ": "
       << (allowed ? std::to_string(*allowed) : std::string("many")) << " points, " << o.strategy << ", budget "
       << budget << (o.time_s > 0 ? " or " + std::to_string(o.time_s) + " s" : std::string())
       << (o.objective == "energy" ? ", lowest energy per run" : "") << "\n";

    const bool energy = o.objective == "energy";
    run_settings cand = env.settings;
    cand.repetitions = std::min(cand.repetitions, o.candidate_repetitions);
    const auto strategy = tune::make_strategy(o.strategy, pb.space, o.seed);
    const auto start = std::chrono::steady_clock::now();
    std::optional<double> best;
    std::optional<param_map> best_tunables;
    for (uint64_t n = 1; n <= budget && !interrupted(); ++n) {
        if (o.time_s > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > o.time_s)
            break;
        const std::optional<tune::point> p = strategy->ask();
        if (!p) break;
        const param_map t = pb.tunables_at(*p);
        const auto row = measure_row(pb, t, cand, {{"problem", k}, {"role", "candidate"}, {"evaluation", n}}, env);
        if (!row) break;
        if (const std::string why = energy ? energy_missing(*row) : ""; !why.empty()) {
            j["unavailable"] = "--objective energy: " + why;
            os << "  " << shown(j["unavailable"].get<std::string>(), 400) << ": the search stops\n";
            break;
        }
        const tune::outcome out = outcome_of(*row, o.objective);
        strategy->tell(*p, out);
        if (out && (!best || *out < *best)) best = out, best_tunables = t;
        nlohmann::json step{{"evaluation", n},
                            {"point", *p},
                            {"tunables", params_json({}, t)},
                            {"status", (*row)["status"]},
                            {"time_ms", (*row)["time_ms"]},
                            {"cached", (*row)["tune"]["cached"]}};
        if (energy) step["joules_per_run"] = energy_per_run(*row);
        step[energy ? "best_so_far_j" : "best_so_far_ms"] = or_null(best);
        j["steps"].push_back(std::move(step));
        print_step(os, n, tunables_text(t), *row, best, o.objective);
    }
    j["evaluations"] = j["steps"].size();
    if (!best_tunables) {
        os << "  no candidate verified: nothing to choose\n";
        j["best"] = nullptr;
        return j;
    }
    j["best"] = {{"tunables", params_json({}, *best_tunables)}, {energy ? "joules_per_run" : "time_ms", *best}};
    os << "  best " << tunables_text(*best_tunables) << " at " << value_text(*best, o.objective) << "\n";
    if (!interrupted()) measure_finals(pb, *best_tunables, j, env);
    return j;
}

} // namespace wb
