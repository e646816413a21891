// `wavebench merge`: the shards of one suite (`run --shard I/N`) joined into the results document
// of the whole run. Shards of different suites, settings, seeds, tool versions, platforms or plans
// are refused, as are missing and repeated shards, each with the files and values that differ.
#include "harness/commands/cli.h"
#include "harness/commands/commands.h"
#include "harness/common/files.h"
#include "harness/common/json.h"
#include "harness/history/db_url.h"
#include "harness/history/history.h"
#include "harness/report/results_json.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

namespace wb {

namespace {

using json = nlohmann::json;

struct merge_options {
    std::vector<std::string> inputs;
    std::string out, db;
    bool no_history = false;
};

/// doc[a][b]..., or null where a key is missing.
json field(const json& doc, const std::vector<const char*>& path)
{
    const json* j = &doc;
    for (const char* k : path) {
        if (!j->is_object() || !j->contains(k)) return json();
        j = &(*j)[k];
    }
    return *j;
}

std::string path_text(const std::vector<const char*>& path)
{
    std::string s;
    for (const char* k : path) s += (s.empty() ? "" : ".") + std::string(k);
    return s;
}

/// What every shard of one run shares; the suite's `file` and `description` may differ (the same
/// suite checked out in different places), the rest may not.
const std::vector<std::vector<const char*>> must_match = {{"schema_version"},
                                                          {"tool_version"},
                                                          {"platform"},
                                                          {"platform_options"},
                                                          {"toolchain"},
                                                          {"suite", "name"},
                                                          {"suite", "seed"},
                                                          {"suite", "repetitions"},
                                                          {"suite", "warmup"},
                                                          {"suite", "min_time_s"},
                                                          {"suite", "max_samples"},
                                                          {"suite", "max_time_s"},
                                                          {"suite", "verify_every"},
                                                          {"suite", "timeout_s"},
                                                          {"shard", "count"},
                                                          {"shard", "plan_configs"},
                                                          {"shard", "plan_digest"}};

std::string shown_value(const json& v) { return shown(v.dump(), 120); }

/// A shard's document checked for what merge reads, before anything is written.
void check_shard(const run_input& r)
{
    if (!r.doc.contains("shard") || !r.doc["shard"].is_object())
        throw std::invalid_argument(shown(r.label, 200) +
                                    " is not a shard: it was not run with --shard I/N (merge joins the "
                                    "shards of one suite; a whole run needs no merging)");
    const json& sh = r.doc["shard"];
    for (const char* k : {"index", "count", "plan_configs"})
        if (!sh.contains(k) || !sh[k].is_number_unsigned())
            throw std::invalid_argument(shown(r.label, 200) + ": its shard." + k + " is not a count");
    if (sh["count"].get<uint64_t>() > max_shards || sh["index"].get<uint64_t>() > sh["count"].get<uint64_t>() ||
        sh["index"].get<uint64_t>() < 1)
        throw std::invalid_argument(shown(r.label, 200) + ": shard " + sh["index"].dump() + " of " +
                                    sh["count"].dump() +
                                    " is no shard --shard makes (1 <= I <= N <= " + std::to_string(max_shards) + ")");
    if (!sh.contains("plan_digest") || !sh["plan_digest"].is_string())
        throw std::invalid_argument(shown(r.label, 200) + ": its shard has no plan_digest");
    // What every reader of the merged document needs of a result.
    const results_reader rd{r.label};
    const json& results = rd.results(r.doc);
    for (size_t i = 0; i < results.size(); ++i) {
        if (!results[i].is_object()) rd.fail(result_place(i), " is not an object");
        rd.name(results[i], "family", result_place(i));
        rd.name(results[i], "variant", result_place(i));
        if (!rd.field(results[i], "params").is_object()) rd.fail(result_place(i), ": no 'params' object");
    }
    if (r.doc.contains("devices") && !r.doc["devices"].is_array())
        throw std::invalid_argument(shown(r.label, 200) + ": devices is not an array");
    for (const json& d : r.doc.value("devices", json::array()))
        if (!d.is_object()) throw std::invalid_argument(shown(r.label, 200) + ": a device is not an object");
    if (!r.doc.value("complete", json()).is_boolean())
        throw std::invalid_argument(shown(r.label, 200) + ": complete is not true or false");
    if (!r.doc.value("started", json()).is_string())
        throw std::invalid_argument(shown(r.label, 200) + ": started is not a time");
    if (!r.doc.value("suite", json()).is_object() || !r.doc["suite"].value("name", json()).is_string())
        throw std::invalid_argument(shown(r.label, 200) + ": no suite name");
    if (!r.doc.value("plugins_rejected", json::array()).is_array())
        throw std::invalid_argument(shown(r.label, 200) + ": plugins_rejected is not an array");
}

/// Refuses shards of different runs (a must_match field differs), and repeated or missing shards.
void check_one_run(const std::vector<run_input>& in)
{
    const run_input& first = in.front();
    for (const run_input& r : in)
        for (const auto& path : must_match)
            if (field(r.doc, path) != field(first.doc, path))
                throw std::invalid_argument(
                    shown(first.label, 200) + " and " + shown(r.label, 200) +
                    " are not shards of one run: " + path_text(path) + " is " + shown_value(field(first.doc, path)) +
                    " in one and " + shown_value(field(r.doc, path)) + " in the other" +
                    (path_text(path) == "shard.plan_digest"
                         ? " (the suites expand to different configurations: another suite file, or other plugins)"
                         : ""));
    // Each shard once.
    const uint64_t count = first.doc["shard"]["count"];
    std::map<uint64_t, std::string> seen;
    for (const run_input& r : in) {
        const uint64_t i = r.doc["shard"]["index"];
        if (auto [it, fresh] = seen.emplace(i, r.label); !fresh)
            throw std::invalid_argument(shown(it->second, 200) + " and " + shown(r.label, 200) + " are both shard " +
                                        std::to_string(i) + " of " + std::to_string(count));
    }
    std::string missing;
    for (uint64_t i = 1; i <= count; ++i)
        if (!seen.count(i)) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
    if (!missing.empty())
        throw std::invalid_argument("shard" + std::string(missing.find(',') == std::string::npos ? " " : "s ") +
                                    missing + " of " + std::to_string(count) +
                                    " missing: give every shard's results file");
}

/// A shard's devices added to `devices` (the same device once); where each of its own went.
std::vector<size_t> add_devices(json& devices, const json& own)
{
    std::vector<size_t> device_at;
    for (const json& d : own) {
        // One device: the same host and PCI bus ID where both have one (shards of one node see
        // their GPUs under *_VISIBLE_DEVICES' indices), else the same host, index, name and
        // architecture (clocks vary).
        auto same = [&d](const json& x) {
            const json a = x.value("pci_bus_id", json()), b = d.value("pci_bus_id", json());
            if (a.is_string() && b.is_string()) return x.value("host", json()) == d.value("host", json()) && a == b;
            for (const char* k : {"host", "ordinal", "name", "arch"})
                if (x.value(k, json()) != d.value(k, json())) return false;
            return true;
        };
        auto it = std::find_if(devices.begin(), devices.end(), same);
        device_at.push_back(size_t(it - devices.begin()));
        if (it == devices.end()) devices.push_back(d);
    }
    return device_at;
}

/// A shard's results added to `m`, each pointed at its device in the merged list; a configuration
/// of the plan in two shards is refused.
void add_results(merged_run& m, const run_input& r, const std::vector<size_t>& device_at, uint64_t plan_configs,
                 std::set<uint64_t>& indices)
{
    for (json res : r.doc["results"]) {
        const json pi = res.value("plan_index", json());
        const json di = res.value("device_index", json());
        if (!pi.is_number_unsigned() || !di.is_number_unsigned() || di.get<uint64_t>() >= device_at.size())
            throw std::invalid_argument(shown(r.label, 200) +
                                        ": a result without a plan_index or a device_index of its devices");
        if (pi.get<uint64_t>() >= plan_configs)
            throw std::invalid_argument(shown(r.label, 200) + ": a result's plan_index " + pi.dump() +
                                        " is beyond the plan's " + std::to_string(plan_configs) + " configurations");
        if (!indices.insert(pi.get<uint64_t>()).second)
            throw std::invalid_argument(shown(r.label, 200) + ": configuration " + pi.dump() +
                                        " of the plan is in two shards");
        res["device_index"] = device_at[di.get<size_t>()];
        m.results.push_back(std::move(res));
    }
}

/// The shards (checked, in order) joined: their devices, results, start, completeness.
merged_run join(const std::vector<run_input>& in)
{
    merged_run m{.devices = json::array(),
                 .results = json::array(),
                 .merged_from = json::array(),
                 .plugins_rejected = json::array()};
    const uint64_t plan_configs = in.front().doc["shard"]["plan_configs"];
    std::set<uint64_t> indices;
    for (const run_input& r : in) {
        const json own = r.doc.contains("devices") && r.doc["devices"].is_array() ? r.doc["devices"] : json::array();
        add_results(m, r, add_devices(m.devices, own), plan_configs, indices);
        m.complete = m.complete && r.doc.value("complete", false);
        const std::string s = r.doc.value("started", "");
        if (m.started.empty() || (!s.empty() && s < m.started)) m.started = s;
        for (const json& x : r.doc.value("plugins_rejected", json::array()))
            if (std::find(m.plugins_rejected.begin(), m.plugins_rejected.end(), x) == m.plugins_rejected.end())
                m.plugins_rejected.push_back(x);
        m.merged_from.push_back({{"input", r.label},
                                 {"shard", r.doc["shard"]["index"]},
                                 {"started", r.doc.value("started", json())},
                                 {"complete", r.doc.value("complete", json())},
                                 {"stopped_by", r.doc.value("stopped_by", json())},
                                 {"host", own.empty() ? json() : own[0].value("host", json())},
                                 {"configs", r.doc["results"].size()},
                                 {"isolation", r.doc.value("isolation", json())}});
    }
    std::sort(m.results.begin(), m.results.end(), [](const json& a, const json& b) {
        return a["plan_index"].get<uint64_t>() < b["plan_index"].get<uint64_t>();
    });
    if (m.complete && m.results.size() != plan_configs)
        throw std::invalid_argument("the shards hold " + std::to_string(m.results.size()) +
                                    " configurations, the plan " + std::to_string(plan_configs) +
                                    ": they are not the shards of one run");
    return m;
}

int merge_command(const merge_options& o)
{
    if (!o.no_history) check_history(o.db);                      // refused or hostile: before anything is written
    std::vector<run_input> in = load_run_inputs(o.inputs, o.db); // invalid_argument: names the input
    for (const run_input& r : in) check_shard(r);
    std::stable_sort(in.begin(), in.end(), [](const run_input& a, const run_input& b) {
        return a.doc["shard"]["index"] < b.doc["shard"]["index"];
    });
    check_one_run(in);
    merged_run m = join(in);
    std::vector<std::string> line{"wavebench", "merge"};
    line.insert(line.end(), o.inputs.begin(), o.inputs.end());
    line.insert(line.end(), {"-o", o.out});
    m.command = redact_command_line(line); // an input may be any argument: no password recorded
    const json doc = merged_document(in.front().doc, m);

    // A status merge does not know (not a string, or none) counts as not verified.
    size_t verified = 0, skipped = 0;
    for (const json& r : m.results) {
        const auto st = status_of(r);
        verified += st == status::verified;
        skipped += st == status::skipped;
    }
    std::vector<std::filesystem::path> inputs(o.inputs.begin(), o.inputs.end());
    check_output(o.out, "-o", inputs);
    const std::string text = json_text(doc);
    if (text.size() > results_file_limit)
        throw std::invalid_argument("the merged results would be " + std::to_string(text.size() >> 20) +
                                    " MiB, more than the " + std::to_string(results_file_limit >> 20) +
                                    " MiB that compare, report and merge read: nothing written (merge fewer "
                                    "shards, or run fewer configurations or repetitions)");
    write_output(o.out, text);
    const uint64_t count = in.front().doc["shard"]["count"], planned = in.front().doc["shard"]["plan_configs"];
    const size_t n = m.results.size(), devices = m.devices.size();
    std::cout << "merged " << count << " shards of suite " << shown(doc["suite"]["name"].get<std::string>(), 80) << ": "
              << n << " of " << planned << " configurations, " << verified << " verified, " << skipped << " skipped, "
              << n - verified - skipped << " not verified; " << devices << (devices == 1 ? " device" : " devices")
              << "\nresults: " << o.out << "\n";
    if (!m.complete) std::cerr << "warning: a shard was interrupted: the merged run is incomplete\n";
    if (!o.no_history)
        if (const auto id = record_run(o.db, doc, o.out)) std::cout << "history: run " << *id << "\n";
    return m.complete && verified + skipped == n ? exit_ok : exit_failures;
}

} // namespace

void add_merge_command(CLI::App& app, command_list& commands)
{
    auto o = std::make_shared<merge_options>();
    auto* cmd =
        app.add_subcommand("merge", "Join the shards of a suite (run --shard I/N) into the results of the whole "
                                    "run; record it in the history");
    cmd->add_option("inputs", o->inputs, "every shard's results file (run --shard I/N --out FILE), in any order")
        ->required()
        ->check(a_path)
        ->type_name("FILE");
    cmd->add_option("-o,--out", o->out, "the merged results JSON to write (never one of the inputs)")
        ->required()
        ->check(a_path);
    add_db_option(cmd, o->db, "record the merged run in");
    cmd->add_flag("--no-history", o->no_history, "do not record the merged run in the history");
    cmd->footer("Exit status: 0 merged and every configuration verified (or skipped), 1 merged with failures or "
                "an interrupted shard, 2 shards that do not belong together (the reason names the files and "
                "values), missing or repeated shards, unreadable files, a result without family, variant or "
                "params, a merged document over 256 MiB.");
    commands.push_back({cmd, [o] { return merge_command(*o); }});
}

} // namespace wb
