// `wavebench tune`: each variant's tunables searched for the lowest kernel time within a budget,
// every candidate measured and verified in a worker as `run` measures it (harness/tune/), and
// `--replay`, the strategies benchmarked on spaces measured in full. docs/tune.md describes it.
#include "harness/commands/commands.h"
#include "harness/common/files.h"
#include "harness/common/json.h"
#include "harness/common/json_parse.h"
#include "harness/common/utc_time.h"
#include "harness/history/history.h"
#include "harness/measure/interrupt.h"
#include "harness/report/results_json.h"
#include "harness/tune/replay.h"
#include "harness/tune/tuner.h"
#include "harness/worker/worker.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

namespace wb {

namespace {

struct tune_cli {
    platform_options platform;
    std::string suite_file, filter, out, tuned_out, cache, db, replay;
    bool no_history = false;
    settings_overrides overrides;
    tune_options t;
    replay_options r;
};

/// The tuned suite: one benchmark per problem, at its family parameters with its best tunables, for
/// `wavebench run`.
std::string tuned_suite(const suite& s, const run_settings& st, const nlohmann::json& doc)
{
    std::ostringstream os;
    os << "# The best tunables `wavebench tune` found (" << doc["tune"].value("strategy", "") << ", seed "
       << doc["tune"].value("seed", 0) << ") on " << doc["device"].value("name", "?") << ", "
       << doc.value("started", "") << ", for each variant and problem of " << s.file.string()
       << ".\n# Run it: wavebench run FILE\n";
    os << "[suite]\nname = " << nlohmann::json(s.name + "-tuned").dump()
       << "\ndescription = " << nlohmann::json("tuned: " + s.description).dump() << "\nrepetitions = " << st.repetitions
       << "\nwarmup = " << st.warmup << "\nseed = " << st.seed << "\n";
    for (const auto& pb : doc["tune"]["problems"]) {
        if (!pb["best"].is_object()) continue;
        os << "\n[[benchmark]]\nfamily = " << pb["family"].dump() << "\nvariants = [" << pb["variant"].dump() << "]\n";
        for (const auto& [k, v] : pb["params"].items()) os << k << " = " << v.dump() << "\n";
        for (const auto& [k, v] : pb["best"]["tunables"].items()) os << k << " = " << v.dump() << "\n";
    }
    return os.str();
}

int replay_command(const tune_cli& o)
{
    const nlohmann::json doc = parse_json(read_input(o.replay, "tune results", text_input_limit));
    const nlohmann::json out = replay_tune(doc, o.r, std::cout);
    if (!o.out.empty()) write_json(o.out, out), std::cout << "written to " << o.out << "\n";
    return exit_ok;
}

/// The problems to tune, each with a point to measure: an empty space is bad input, before anything runs.
void check_spaces(const suite& s, const std::vector<tune_problem>& problems)
{
    for (const tune_problem& pb : problems)
        if (allowed_points(pb) == uint64_t(0))
            throw suite_error(s.benchmarks.at(pb.benchmark).pos,
                              pb.plug->name() + " " + params_text(params_json(pb.family_params, {}), {}) +
                                  ": no point of its space is allowed (the suite's values of its tunables "
                                  "break the constraints the plugin declares): list other values");
}

int tune_command(const tune_cli& o)
{
    if (!o.replay.empty()) return replay_command(o);
    if (o.suite_file.empty()) throw std::invalid_argument("give a SUITE to tune, or --replay RESULTS to replay one");
    const auto names = tune::strategy_names();
    if (std::find(names.begin(), names.end(), o.t.strategy) == names.end())
        (void)tune::make_strategy(o.t.strategy, {}, 0); // throws, naming the strategies
    const suite s = parse_suite_file(o.suite_file);
    if (!o.no_history) check_history(o.db);
    auto p = open_platform(o.platform);
    plugin_registry reg(p->kind());
    const auto files = find_plugin_files(reg, o.platform.plugin_dirs);
    const std::unique_ptr<executor> exec = open_executor(o.platform, p, o.platform.device, files, reg);
    warn_rejections(reg);
    const std::vector<tune_problem> problems = tune_problems(s, reg, o.filter);
    check_spaces(s, problems);

    settings_overrides so = o.overrides;
    if (o.t.objective == "energy") so.energy = true; // every candidate's energy loop, on top of its samples
    run_context ctx = context_of_run(s, o.suite_file, *p, {{o.platform.device, p->device()}}, so, reg);
    ctx.isolation = exec->describe();
    const std::filesystem::path out = o.out.empty() ? default_out(s.name + "-tune", p->name()) : o.out;
    check_output(out, "--out", {o.suite_file});
    if (!o.tuned_out.empty()) check_output(o.tuned_out, "--tuned-out", {o.suite_file, out});

    candidate_cache cache(o.cache.empty() ? cache_dir() / "tune-candidates.jsonl" : std::filesystem::path(o.cache));
    runner measure(*exec, ceilings{});
    tune_env env{measure,
                 ctx.settings,
                 p->name() + "/" + p->device().name + "/" + p->device().arch + "/warp" +
                     std::to_string(p->device().warp_size),
                 cache,
                 std::cout,
                 results_document(ctx, {}, true)};
    std::cout << "tuning " << problems.size() << " problem(s) of " << o.suite_file << " on " << device_line(*p)
              << "\ncandidates: " << std::min(ctx.settings.repetitions, o.t.candidate_repetitions)
              << " samples each, cached in " << cache.path().string() << " (" << cache.size() << " known)\n\n";
    install_interrupt_handlers();
    nlohmann::json tuned = {{"strategy", o.t.strategy},
                            {"objective", o.t.objective},
                            {"seed", o.t.seed},
                            {"budget", o.t.budget},
                            {"time_s", o.t.time_s},
                            {"candidate_repetitions", o.t.candidate_repetitions},
                            {"problems", nlohmann::json::array()}};
    nlohmann::json doc;
    size_t unsolved = 0;
    for (size_t k = 0; k < problems.size() && !interrupted(); ++k) {
        tuned["problems"].push_back(tune_problem_search(problems[k], k, o.t, env));
        unsolved += !tuned["problems"].back()["best"].is_object();
        if (tuned["problems"].back().contains("unavailable")) {
            std::cout << "the other problems are not tuned: their energy cannot be measured either\n";
            break;
        }
        std::cout << "\n";
        doc = results_document(ctx, {}, false);
        doc["results"] = env.rows;
        doc["tune"] = tuned;
        write_json(out, doc); // a killed tune leaves what it found
    }
    const int sig = interrupted();
    if (sig) ctx.stopped_by = signal_name(sig);
    doc = results_document(ctx, {}, !sig);
    doc["results"] = env.rows;
    doc["tune"] = tuned;
    write_json(out, doc);
    std::cout << "results: " << out.string() << "\n";
    if (!o.tuned_out.empty()) {
        write_output(o.tuned_out, tuned_suite(s, ctx.settings, doc));
        std::cout << "tuned suite: " << o.tuned_out << " (wavebench run " << o.tuned_out << ")\n";
    }
    if (!o.no_history)
        if (auto id = record_run(o.db, doc, out.string()))
            std::cout << "history: run " << *id << " (wavebench history lists the runs)\n";
    return sig ? 128 + sig : unsolved ? exit_failures : exit_ok;
}

} // namespace

void add_tune_command(CLI::App& app, command_list& commands)
{
    auto o = std::make_shared<tune_cli>();
    tune_cli& to = *o;
    auto* tune = app.add_subcommand(
        "tune", "Search each variant's tunables for the lowest kernel time (or energy) within a budget, every "
                "candidate verified");
    tune->add_option("suite", to.suite_file,
                     "suite file: its benchmarks' variants and problems; a tunable it lists is searched over its "
                     "values, one it leaves out over every value the plugin allows")
        ->check(a_path);
    add_platform_options(tune, to.platform);
    add_in_process(tune, to.platform);
    tune->add_option("--strategy", to.t.strategy, "how to search:\n" + tune::strategy_help())
        ->capture_default_str()
        ->check(CLI::IsMember(tune::strategy_names()));
    tune->add_option("--objective", to.t.objective,
                     "what to minimise: the kernel time, or the energy per run (the device's energy counter as "
                     "--energy reads it, for every candidate; where it cannot be read the tune stops and says why)")
        ->capture_default_str()
        ->check(CLI::IsMember({"time", "energy"}));
    tune->add_option("--budget", to.t.budget,
                     "candidates measured per problem, at most (default: a quarter of its allowed points, at most 100; "
                     "exhaustive: all)")
        ->check(integer(1, 1000000));
    tune->add_option("--time", to.t.time_s,
                     "seconds of search per problem, at most (with --budget: whichever ends first)")
        ->check(real(0.001, 604800));
    tune->add_option("--seed", to.t.seed, "the strategy's random choices (the inputs' seed is the suite's)")
        ->capture_default_str();
    tune->add_option("--candidate-repetitions", to.t.candidate_repetitions,
                     "samples per candidate (at most the suite's repetitions); the best and the default are measured "
                     "again with the suite's")
        ->capture_default_str()
        ->check(integer(1, 1000000));
    tune->add_option("--filter", to.filter,
                     "tune only family/variant names matching this glob, e.g. 'reduce/unrolled'");
    tune->add_option("--out", to.out,
                     "results JSON: every candidate as a result, the search of each problem under `tune`; default "
                     "wavebench-results/<suite>-tune-<platform>-<time>.json (with --replay: the replay's JSON)")
        ->check(a_path);
    tune->add_option("--tuned-out", to.tuned_out, "write a suite of the best tunables found, for wavebench run")
        ->check(a_path);
    tune->add_option("--cache", to.cache,
                     "the measured candidates, kept so that a repeated or resumed tune measures nothing twice "
                     "(same plugin build, device, parameters, inputs and samples); default "
                     "$WAVEBENCH_CACHE_DIR/tune-candidates.jsonl")
        ->check(a_path);
    add_settings_overrides(tune, to.overrides);
    add_db_option(tune, to.db, "record the tune in");
    tune->add_flag("--no-history", to.no_history, "do not record the tune in the history");
    tune->add_option("--replay", to.replay,
                     "benchmark the strategies without a device on the spaces a tune measured in full (its results "
                     "JSON, e.g. of --strategy exhaustive): each strategy's search replayed for --seeds seeds")
        ->check(a_path);
    tune->add_option("--replay-strategies", to.r.strategies, "with --replay: these strategies (default: all)")
        ->check(CLI::IsMember(tune::strategy_names()));
    tune->add_option("--seeds", to.r.seeds, "with --replay: seeds per strategy")
        ->capture_default_str()
        ->check(integer(1, 10000));
    tune->add_option("--budget-share", to.r.budget_share, "with --replay: each search's budget, a share of the space")
        ->capture_default_str()
        ->check(real(0.0001, 1));
    tune->add_option("--target", to.r.target,
                     "with --replay: a search has reached the optimum once its best time is within this share of the "
                     "optimum's performance")
        ->capture_default_str()
        ->check(real(0.01, 1));
    commands.push_back({tune, [o] { return tune_command(*o); }});
}

} // namespace wb
