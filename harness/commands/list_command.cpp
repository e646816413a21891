// `wavebench list`: the plugins of a platform with their tunables, and every plugin file that
// could not be used with the reason; as a table or JSON.
#include "harness/amd/amd_build.h"
#include "harness/commands/commands.h"
#include "harness/report/results_json.h"
#include "harness/worker/worker.h"

#include <algorithm>
#include <array>
#include <iostream>
#include <string_view>

namespace wb {

namespace {

nlohmann::json plugin_json(const plugin& pl, platform_kind platform)
{
    nlohmann::json kernels = nlohmann::json::array(), tunables = nlohmann::json::array();
    for (const auto& k : pl.kernels) kernels.push_back(k.name);
    for (const auto& t : pl.tunables)
        tunables.push_back(
            {{"name", t.name}, {"default", t.default_value}, {"allowed", describe_allowed(t)}, {"help", t.help}});
    nlohmann::json constraints = nlohmann::json::array();
    for (const auto& c : pl.constraints)
        constraints.push_back({{"requires", describe_constraint(c)}, {"help", c.help}});
    return {{"family", pl.fam->name},
            {"variant", pl.variant},
            {"summary", pl.summary},
            {"seed", pl.seed},
            {"platform", to_string(platform)},
            {"path", pl.path.string()},
            {"code_digest", pl.code_digest.empty() ? nlohmann::json() : nlohmann::json(pl.code_digest)},
            {"device_code_digest",
             pl.device_code_digest.empty() ? nlohmann::json() : nlohmann::json(pl.device_code_digest)},
            {"baseline", pl.fam->baseline == pl.variant},
            {"kernels", kernels},
            {"tunables", tunables},
            {"constraints", constraints}};
}

/// An AMD plugin's targets: those built and those the build left out, with the compiler's reason.
nlohmann::json amd_targets_json(const amd_build_info& b)
{
    nlohmann::json left = nlohmann::json::array();
    for (const auto& l : b.left_out) left.push_back({{"target", l.target}, {"reason", l.reason}});
    return {{"built", b.targets},
            {"left_out", left},
            {"problem", b.problem.empty() ? nlohmann::json() : nlohmann::json(b.problem)}};
}

/// The AMD targets the plugins were built for, and each target a plugin was built without.
void print_amd_targets(const std::vector<std::pair<const plugin*, amd_build_info>>& builds)
{
    std::vector<std::string> all;
    for (const auto& [pl, b] : builds)
        for (const auto& t : b.targets)
            if (std::find(all.begin(), all.end(), t) == all.end()) all.push_back(t);
    std::sort(all.begin(), all.end());
    std::cout << "\nAMD targets built:";
    for (const auto& t : all) std::cout << " " << t;
    std::cout << (all.empty() ? " none" : "") << "\n";
    for (const auto& [pl, b] : builds) {
        if (!b.problem.empty()) std::cout << "  " << pl->name() << ": code objects not read: " << b.problem << "\n";
        for (const auto& l : b.left_out)
            std::cout << "  " << pl->name() << " left out for " << l.target << ": " << l.reason << "\n";
    }
}

/// Characters on the screen: UTF-8 continuation bytes take none ("×" is one).
size_t width_of(std::string_view s)
{
    return size_t(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

/// Variant, tunables with their defaults and constraints, summary; then the files not loaded.
void print_table(const plugin_registry& reg)
{
    std::vector<std::array<std::string, 3>> rows{{"variant", "tunables (defaults; constraints)", "summary"}};
    for (const auto& pl : reg.plugins()) {
        std::string tunables;
        for (const auto& t : pl.tunables)
            tunables.append(tunables.empty() ? "" : " ")
                .append(t.name)
                .append("=")
                .append(std::to_string(t.default_value));
        for (size_t i = 0; i < pl.constraints.size(); ++i)
            tunables.append(i ? ", " : "; ").append(describe_constraint(pl.constraints[i]));
        rows.push_back({pl.name() + (pl.fam->baseline == pl.variant ? " *" : ""), tunables, pl.summary});
    }
    size_t w0 = 0, w1 = 0;
    for (const auto& r : rows) {
        w0 = std::max(w0, width_of(r[0]));
        w1 = std::max(w1, width_of(r[1]));
    }
    for (const auto& r : rows)
        std::cout << r[0] << std::string(w0 + 2 - width_of(r[0]), ' ') << r[1]
                  << std::string(w1 + 2 - width_of(r[1]), ' ') << r[2] << "\n";
    if (!reg.plugins().empty())
        std::cout << "\n* the family's baseline. --json shows each tunable's allowed values, the seed sections, "
                     "kernels and files.\n";
    if (reg.plugins().empty()) std::cout << "no plugins loaded\n";
    if (!reg.rejections().empty()) {
        std::cout << "\nnot loaded:\n";
        for (const auto& r : reg.rejections())
            std::cout << "  " << shown(r.path.string(), 400) << " " << r.reason << "\n";
    }
}

int list_command(const platform_options& o, bool json)
{
    std::shared_ptr<platform> p;
    std::string device_problem;
    platform_kind kind = platform_kind::cpu; // with auto and no platform started: the cpu plugins
    try {
        p = open_platform(o);
        kind = p->kind();
    } catch (const platform_unavailable& e) {
        device_problem = e.what();
        if (o.name != auto_platform) {
            const auto asked = parse_platform(o.name);
            if (!asked) throw; // an unknown platform has no plugins to list
            kind = *asked;
        }
    }
    plugin_registry reg(kind);
    const auto files = find_plugin_files(reg, o.plugin_dirs);
    platform_options po = o;
    po.name = to_string(kind);
    load_catalog(po, files, reg);
    const std::string not_built = unbuilt_platform_hint(to_string(kind));
    if (json) {
        nlohmann::json plugins = nlohmann::json::array();
        for (const auto& pl : reg.plugins()) {
            plugins.push_back(plugin_json(pl, kind));
            if (kind == platform_kind::amd) plugins.back()["amd_targets"] = amd_targets_json(amd_build_of(pl.path));
        }
        nlohmann::json doc{
            {"platform", to_string(kind)},
            {"device", p ? device_json(p->device()) : nlohmann::json()},
            {"device_problem", device_problem.empty() ? nlohmann::json() : nlohmann::json(device_problem)},
            {"plugins", plugins},
            {"rejected", rejections_json(reg.rejections())},
            {"not_built", not_built.empty() ? nlohmann::json() : nlohmann::json(not_built)}};
        std::cout << doc.dump(2) << "\n";
        return exit_ok;
    }
    const std::string no_device = std::string(to_string(kind)) + ": no device (" + device_problem + ")";
    std::cout << "platform " << (p ? device_line(*p) : no_device) << "\n\n";
    print_table(reg);
    if (!not_built.empty()) std::cout << "\nnote: " << not_built << "\n";
    if (kind == platform_kind::amd && !reg.plugins().empty()) {
        std::vector<std::pair<const plugin*, amd_build_info>> builds;
        for (const auto& pl : reg.plugins()) builds.emplace_back(&pl, amd_build_of(pl.path));
        print_amd_targets(builds);
    }
    return exit_ok;
}

} // namespace

void add_list_command(CLI::App& app, command_list& commands)
{
    struct options {
        platform_options platform;
        bool json = false;
    };
    auto o = std::make_shared<options>();
    auto* cmd = app.add_subcommand("list", "List the plugins of a platform, and those that could not be loaded");
    add_platform_options(cmd, o->platform);
    add_in_process(cmd, o->platform);
    cmd->add_flag("--json", o->json, "print JSON");
    commands.push_back({cmd, [o] { return list_command(o->platform, o->json); }});
}

} // namespace wb
