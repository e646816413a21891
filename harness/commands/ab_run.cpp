// `run --baseline-plugins DIR`: the A/B mode's options, the base build loaded and paired with the
// change, and the run compared with itself at the end (commands/ab_run.h).
#include "harness/commands/ab_run.h"

#include "harness/commands/compare_command.h"
#include "harness/common/files.h"
#include "harness/common/json.h"
#include "harness/measure/ab.h"
#include "harness/worker/worker.h"

#include <iostream>
#include <map>
#include <set>

namespace wb {

namespace fs = std::filesystem;
using json = nlohmann::json;

void add_ab_options(CLI::App* run, ab_options& o)
{
    auto* base =
        run->add_option("--baseline-plugins", o.baseline_plugins,
                        "an A/B run: each configuration measured with the same variant of the base build in DIR (its "
                        "plugin files, e.g. the merge-base's build/plugins/<platform> copied away) and of this build, "
                        "interleaved in the same worker with the same inputs; then compared as `compare` does, with "
                        "paired samples (exit 1 on a regression under --fail-on)")
            ->type_name("DIR")
            ->check(a_path);
    add_verdict_options(run, o.compare);
    add_fail_on_option(run, o.fail_on);
    for (const char* name : {"--alpha", "--threshold", "--fdr", "--calibration", "--fail-on"})
        run->get_option(name)->needs(base);
    run->get_option("--ignore-code-digest")->needs(base);
    run->add_flag("--skip-same-code", o.skip_same_code,
                  "measure neither build of a variant whose base build has the same code as this one (the plugin "
                  "files' code digests): its results are skipped, its verdict same-code; a change to one plugin "
                  "then measures only that one")
        ->needs(base)
        ->excludes("--ignore-code-digest");
}

namespace {

/// "block_size 256 (32..1024, powers of two)"; the tunables a plugin declares, and their
/// constraints, as the builds compare them.
std::string tunables_text(const plugin& p)
{
    std::string out;
    for (const auto& t : p.tunables)
        out += (out.empty() ? "" : ", ") + t.name + " " + std::to_string(t.default_value) + " (" + describe_allowed(t) +
               ")";
    for (const auto& c : p.constraints) out += "; " + describe_constraint(c);
    return out.empty() ? "none" : out;
}

/// Why `base` and `now` (one variant in two builds) cannot be A/B compared, or "".
std::string mismatch(const plugin& base, const plugin& now)
{
    const std::string a = tunables_text(base), b = tunables_text(now);
    if (a != b)
        return "its tunables differ: " + shown(a, 400) + " in the base build, " + shown(b, 400) + " in this one";
    if (base.sdk_version != now.sdk_version)
        return "it was built with SDK " + std::to_string(base.sdk_version) + " in the base build and SDK " +
               std::to_string(now.sdk_version) + " in this one";
    std::error_code ec;
    if (fs::equivalent(base.path, now.path, ec))
        return "the base build's file is this build's own (" + shown(base.path.string(), 200) +
               "): copy the base build's plugins into a folder of their own (cp -r), even to compare a build with "
               "itself";
    return "";
}

} // namespace

ab_run::ab_run(const ab_options& o, platform_kind platform) : o_(o), base_(platform)
{
    o_.compare = with_fail_on(o.compare, o.fail_on);
    if (!on()) return;
    const fs::path dir = o.baseline_plugins;
    const std::string named = "--baseline-plugins '" + shorten(dir.string(), 200) + "'";
    std::error_code ec;
    if (!fs::exists(dir, ec)) throw std::invalid_argument(named + ": no such folder (give the base build's plugins)");
    if (!fs::is_directory(dir, ec))
        throw std::invalid_argument(named + ": not a folder (give the folder of the base build's plugin files)");
    files_ = plugin_files(dir, base_);
    if (files_.empty())
        throw std::invalid_argument(named + " holds no plugin files of platform " + to_string(platform) + " (*.so in " +
                                    "it or in its " + to_string(platform) + "/ folder): give a build's plugins folder");
}

void ab_run::load(executor& first, bool in_process)
{
    if (!on()) return;
    if (in_process)
        for (const auto& f : files_) base_.add_file(f);
    else
        dynamic_cast<worker_executor&>(first).load_base(files_, base_);
    for (const auto& r : base_.rejections())
        std::cerr << "warning: base build's plugin " << shown(r.path.string(), 400) << " " << r.reason << "\n";
    if (base_.plugins().empty())
        throw std::invalid_argument("--baseline-plugins '" + shorten(o_.baseline_plugins, 200) + "'" +
                                    ": none of its plugin files loads (the warnings above say why)");
}

void ab_run::pair(std::vector<config>& plan, const suite& s, const plugin_registry& now, const std::string& filter)
{
    if (!on()) return;
    std::map<std::string, const plugin*> base;
    for (const auto& p : base_.plugins()) base.emplace(p.name(), &p);
    std::set<std::string> checked;
    for (auto& c : plan) {
        const auto it = base.find(c.plug->name());
        if (it == base.end()) continue; // `new`: only in this build
        if (checked.insert(c.plug->name()).second)
            if (const std::string why = mismatch(*it->second, *c.plug); !why.empty())
                throw std::invalid_argument("A/B run refused: " + c.plug->name() +
                                            " cannot be compared between the "
                                            "builds: " +
                                            why + " (--filter can leave it out)");
        c.base_plug = it->second;
        if (o_.skip_same_code && c.skip.empty() && !c.plug->code_digest.empty() &&
            c.plug->code_digest == c.base_plug->code_digest) {
            c.same_code = true; // the runner makes its results (measure/runner.cpp)
            c.skip = same_code_skip;
        }
    }
    // `missing`: the configurations the suite makes of the base build's variants this build lacks.
    std::set<std::string> here;
    for (const auto& p : now.plugins()) here.insert(p.name());
    try {
        for (const config& c : plan_suite(s, base_, filter))
            if (!here.count(c.plug->name()))
                missing_.push_back({{"family", c.plug->fam->name},
                                    {"variant", c.plug->variant},
                                    {"params", params_json(c.family_params, c.tunables)},
                                    {"status", "skipped"},
                                    {"skip_reason", "only in the base build: not measured"},
                                    {"samples_ms", json::array()}});
    } catch (const std::exception& e) { // the suite does not fit the base build: nothing known missing
        std::cerr << "warning: the suite does not plan on the base build, so no configuration is reported missing: "
                  << e.what() << "\n";
    }
}

json ab_run::describe() const
{
    if (!on()) return nullptr;
    return {{"baseline_plugins", o_.baseline_plugins}, {"missing", missing_}, {"block", ab_block}};
}

int ab_run::finish(json& doc, const std::string& label, std::ostream& os, table_format format) const
{
    if (!on()) return exit_ok;
    const json cmp = compare_ab(results_input(doc, label, std::nullopt), o_.compare);
    doc["ab"]["comparison"] = cmp;
    os << "\nA/B: this build (NEW) against the base build in " << shown(o_.baseline_plugins, 400) << " (BASE)\n";
    print_comparison(os, cmp, format == table_format::markdown);
    return cmp["regressed"].get<bool>() ? exit_failures : exit_ok;
}

} // namespace wb
