// The messages between the harness and its workers (worker/wire.h).
#include "harness/worker/wire.h"

#include "harness/common/json.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace wb::wire {

using json = nlohmann::json;

json to_json(const plugin& p)
{
    json kernels = json::array(), tunables = json::array();
    for (const auto& k : p.kernels)
        kernels.push_back(
            {k.name, k.block_size_param, k.fixed_block_size, k.lds_bytes_per_thread, k.when_param, k.when_value});
    for (const auto& t : p.tunables)
        tunables.push_back({t.name, t.help, t.default_value, t.min, t.max, t.power_of_two, t.allowed});
    json constraints = json::array();
    for (const auto& c : p.constraints) constraints.push_back({c.kind, c.a, c.b, c.c, c.limit, c.help});
    return {{"family", p.fam->name}, {"variant", p.variant},       {"summary", p.summary},
            {"seed", p.seed},        {"path", p.path.string()},    {"kernels", kernels},
            {"tunables", tunables},  {"constraints", constraints}, {"sdk_version", p.sdk_version}};
}

namespace {

/// An integer a worker sent, as T: a JSON integer within T's range (a real converted out of range
/// would be undefined behaviour).
template <class T> T integer(const json& v)
{
    const bool fits = v.is_number_integer() && !(v.is_number_unsigned() && v.get<uint64_t>() > INT64_MAX) &&
                      v.get<int64_t>() >= std::numeric_limits<T>::min() &&
                      v.get<int64_t>() <= std::numeric_limits<T>::max();
    if (!fits)
        throw std::runtime_error(
            std::string("a worker sent a plugin with ") +
            (v.is_number_integer() ? "an integer out of range" : std::string("a ") + v.type_name()) +
            " where an integer belongs");
    return T(v.get<int64_t>());
}

} // namespace

plugin plugin_from(const json& j)
{
    // A worker runs plugin code: what it sends is read with at() (a missing field throws) and
    // checked for its type, and the family is named only once it is a name. What the fields say
    // is check_declaration's (add_declared), as for a plugin loaded here.
    plugin p;
    const std::string fam = j.at("family");
    if (const std::string why = check_name("family name", fam); !why.empty())
        throw std::runtime_error("a worker sent a plugin that is refused: " + why);
    p.fam = find_family(fam);
    if (!p.fam) throw std::runtime_error("a worker sent a plugin of unknown family '" + fam + "'");
    p.variant = j.at("variant");
    p.summary = j.at("summary");
    p.seed = j.at("seed");
    p.path = j.at("path").get<std::string>();
    p.sdk_version = integer<uint32_t>(j.value("sdk_version", json(0)));
    for (const auto& k : j.at("kernels"))
        p.kernels.push_back(
            {k.at(0), k.at(1), integer<int>(k.at(2)), integer<int>(k.at(3)), k.at(4), integer<int64_t>(k.at(5))});
    for (const auto& t : j.at("tunables")) {
        std::vector<int64_t> allowed;
        for (const auto& v : t.at(6)) allowed.push_back(integer<int64_t>(v));
        p.tunables.push_back({t.at(0), t.at(1), integer<int64_t>(t.at(2)), integer<int64_t>(t.at(3)),
                              integer<int64_t>(t.at(4)), t.at(5), std::move(allowed)});
    }
    for (const auto& c : j.at("constraints"))
        p.constraints.push_back(
            {integer<int32_t>(c.at(0)), c.at(1), c.at(2), c.at(3), integer<int64_t>(c.at(4)), c.at(5)});
    return p;
}

json to_json(const param_map& m)
{
    json j = json::object();
    for (const auto& [k, v] : m) std::visit([&, &k = k](const auto& x) { j[k] = x; }, v);
    return j;
}

param_map params_from(const json& j)
{
    param_map m;
    for (const auto& [k, v] : j.items()) {
        if (v.is_number_integer())
            m[k] = v.get<int64_t>();
        else if (v.is_number())
            m[k] = v.get<double>();
        else
            m[k] = v.get<std::string>();
    }
    return m;
}

json to_json(const run_settings& s)
{
    return {s.repetitions, s.warmup,       s.seed,      s.min_time_s, s.max_samples,
            s.max_time_s,  s.verify_every, s.timeout_s, s.energy,     s.counters};
}

run_settings settings_from(const json& j)
{
    auto flag = [&](size_t i) { return j.size() > i && j[i].is_boolean() && j[i].get<bool>(); };
    return {j[0], j[1], j[2], j[3], j[4], j[5], j[6], j[7], flag(8), flag(9)};
}

namespace {

json to_json(const summary& s) { return {s.min, s.median, s.max, s.mean, s.rel_stddev, s.samples}; }
summary summary_from(const json& j) { return {j[0], j[1], j[2], j[3], j[4], j[5]}; }

/// A worker's samples: one finite, non-negative time per measured run, no more than the runs made.
std::vector<double> samples_from(const json& j, const result& r)
{
    auto v = j.get<std::vector<double>>();
    if (v.size() > size_t(std::max(r.runs, 0)))
        throw std::runtime_error("a worker sent " + std::to_string(v.size()) + " samples for " +
                                 std::to_string(r.runs) + " runs");
    for (double x : v)
        if (!std::isfinite(x) || x < 0) throw std::runtime_error("a worker sent a sample that is no time");
    return v;
}

std::optional<double> opt_from(const json& j)
{
    return j.is_null() ? std::nullopt : std::optional<double>(j.get<double>());
}

json to_json(const kernel_report& k)
{
    const wb_kernel_resources& r = k.resources;
    json occ;
    if (k.occ) occ = {k.occ->value, k.occ->max, k.occ->unit, k.occ->blocks, k.occ->limiter};
    return {k.name,
            k.block_size,
            k.dynamic_lds_bytes,
            {r.registers, r.static_shared_bytes, r.local_bytes, r.max_threads_per_block, r.active_blocks},
            occ};
}

kernel_report kernel_from(const json& j)
{
    kernel_report k;
    k.name = j[0];
    k.block_size = j[1];
    k.dynamic_lds_bytes = j[2];
    const json& r = j[3];
    k.resources = {r[0], r[1], r[2], r[3], r[4]};
    if (const json& o = j[4]; !o.is_null()) k.occ = occupancy{o[0], o[1], o[2], o[3], o[4]};
    return k;
}

} // namespace

json to_json(const result& r)
{
    json kernels = json::array();
    for (const auto& k : r.kernels) kernels.push_back(to_json(k));
    json wall = json::array();
    for (const auto& [name, part] : wall_time_parts) wall.push_back(r.wall.*part);
    return {{"family", r.family},
            {"variant", r.variant},
            {"family_params", to_json(r.family_params)},
            {"tunables", to_json(r.tunables)},
            {"status", int(r.st)},
            {"message", r.message},
            {"stage", int(r.where)},
            {"note", r.note},
            {"seeds", r.seeds},
            {"input_sets", r.input_sets},
            {"working_set_bytes", r.working_set_bytes},
            {"runs", {r.runs, r.runs_checked}},
            {"time_ms", to_json(r.time_ms)},
            {"wall_ms", to_json(r.wall_ms)},
            {"samples", {r.samples_ms, r.wall_samples_ms}},
            {"prepare_ms", r.prepare_ms},
            {"metric_value", r.metric_value},
            {"model_speedup", or_null(r.model_speedup)},
            {"model_issue_speedup", or_null(r.model_issue_speedup)},
            {"model_simt", or_null(r.model_simt)},
            {"noisy", r.noisy},
            {"kernels", kernels},
            {"telemetry", telemetry_wire(r.telemetry)},
            {"counters", r.counters ? counters_json(*r.counters) : json()},
            {"wall_time", wall},
            {"ab", r.ab_base ? json{{"base", to_json(*r.ab_base)}, {"order", r.ab_order}} : json()}};
}

result result_from(const json& j)
{
    result r;
    r.family = j.at("family");
    r.variant = j.at("variant");
    r.family_params = params_from(j.at("family_params"));
    r.tunables = params_from(j.at("tunables"));
    const int st = j.at("status");
    if (st < 0 || st >= status_count) throw std::runtime_error("a worker sent an unknown status " + std::to_string(st));
    r.st = status(st);
    r.message = j.at("message");
    r.where = stage(j.at("stage").get<int32_t>());
    r.note = j.at("note");
    r.seeds = j.at("seeds").get<std::vector<uint64_t>>();
    r.input_sets = j.at("input_sets");
    r.working_set_bytes = j.at("working_set_bytes");
    r.runs = j.at("runs")[0];
    r.runs_checked = j.at("runs")[1];
    r.time_ms = summary_from(j.at("time_ms"));
    r.wall_ms = summary_from(j.at("wall_ms"));
    r.samples_ms = samples_from(j.at("samples").at(0), r);
    r.wall_samples_ms = samples_from(j.at("samples").at(1), r);
    r.prepare_ms = j.at("prepare_ms");
    r.metric_value = j.at("metric_value");
    r.model_speedup = opt_from(j.at("model_speedup"));
    r.model_issue_speedup = opt_from(j.at("model_issue_speedup"));
    r.model_simt = opt_from(j.value("model_simt", json()));
    r.noisy = j.at("noisy");
    r.telemetry = telemetry_from_wire(j.value("telemetry", json()));
    if (const json& c = j.value("counters", json()); c.is_object()) r.counters = counters_from_json(c);
    for (const auto& k : j.at("kernels")) r.kernels.push_back(kernel_from(k));
    if (const json& ab = j.value("ab", json()); ab.is_object()) { // an A/B run's base result
        r.ab_base = std::make_shared<result>(result_from(ab.at("base")));
        r.ab_order = ab.at("order");
    }
    const json& wall = j.at("wall_time");
    if (!wall.is_array() || wall.size() != std::size(wall_time_parts))
        throw std::runtime_error("a worker sent a wall_time that is not " + std::to_string(std::size(wall_time_parts)) +
                                 " numbers");
    for (size_t i = 0; i < wall.size(); ++i) r.wall.*wall_time_parts[i].second = std::max(wall[i].get<double>(), 0.0);
    return r;
}

request_kind kind_of(const json& request)
{
    if (request.contains("load")) return request_kind::load;
    if (request.contains("lane_costs")) return request_kind::lane_costs;
    (void)request.at("measure");
    return request_kind::measure;
}

json load_request(const std::vector<std::filesystem::path>& files, bool base)
{
    json request{{"load", json::array()}};
    if (base) request["base"] = true;
    for (const auto& f : files) request["load"].push_back(f.string());
    return request;
}

std::vector<std::string> files_of_load(const json& request)
{
    return request.at("load").get<std::vector<std::string>>();
}

json lane_costs_request() { return {{"lane_costs", true}}; }

json measure_request(const config& c, const run_settings& s)
{
    return {{"measure",
             {{"plugin", c.plug->name()},
              {"group", c.group},
              {"family_params", to_json(c.family_params)},
              {"tunables", to_json(c.tunables)},
              {"skip", c.skip},
              {"ab", c.base_plug != nullptr}}},
            {"settings", to_json(s)}};
}

measure_order measure_order_from(const json& request)
{
    const json& m = request.at("measure");
    measure_order o;
    o.plugin = m.at("plugin");
    o.c.group = m.at("group");
    o.c.family_params = params_from(m.at("family_params"));
    o.c.tunables = params_from(m.at("tunables"));
    o.c.skip = m.at("skip");
    o.ab = m.value("ab", false);
    o.settings = settings_from(request.at("settings"));
    return o;
}

json catalog_answer(const plugin_registry& reg)
{
    json plugins = json::array();
    for (const auto& p : reg.plugins()) plugins.push_back(to_json(p));
    return {{"plugins", plugins}, {"rejected", rejections_json(reg.rejections())}};
}

json result_answer(const result& r, double busy_ms) { return {{"result", to_json(r)}, {"busy_ms", busy_ms}}; }

json lane_costs_answer(const json& costs) { return {{"lane_costs", costs}}; }

json fatal_answer(const std::string& why) { return {{"fatal", why}}; }

} // namespace wb::wire
