// `wavebench inspect`: the AMD static figures of hipcc-built .so files, with occupancy, as a table
// or JSON; the resource baseline; and the command's registration (commands/inspect_command.h).
#include "harness/commands/inspect_command.h"
#include "harness/amd/amd_static.h"
#include "harness/amd/isa_mix.h"
#include "harness/commands/commands.h"
#include "harness/common/files.h"
#include "harness/common/json.h"
#include "harness/platform/platform.h"
#include "harness/report/results_json.h"
#include "harness/worker/worker.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <set>

namespace wb {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

const char* const amd = to_string(platform_kind::amd); // the amd platform's folder

struct inspected {
    fs::path path;
    std::string plugin; // "reduce/atomic", or "" for a .so that is not a wavebench plugin
    std::vector<amd_kernel_report> kernels;
    size_t errors = 0; // its parts that failed the reader's checks
};

/// JSON text; what is not UTF-8 (in a path or a name from a file) becomes U+FFFD rather than an
/// exception.
std::string text(const json& j, int indent) { return j.dump(indent, ' ', false, json::error_handler_t::replace); }

/// The baseline at `path`, read and checked before anything is inspected: errors name the file.
json read_baseline(const std::string& path)
{
    const std::string name = "the baseline '" + shorten(path, 200) + "'";
    const std::string bytes = read_input(path, "baseline", text_input_limit);
    json b;
    try {
        b = parse_json(bytes);
    } catch (const json_too_deep& e) {
        throw std::invalid_argument(name + " is not a resource baseline: " + json_error_text(e));
    } catch (const json::parse_error& e) { // where, as line and column: the library's own text says less
        size_t line = 1, column = 1;
        for (size_t i = 0; i + 1 < e.byte && i < bytes.size(); ++i) { // e.byte: the offending byte, from 1
            column = bytes[i] == '\n' ? 1 : column + 1;
            line += bytes[i] == '\n';
        }
        throw std::invalid_argument(name + " is not valid JSON: at line " + std::to_string(line) + ", column " +
                                    std::to_string(column));
    }
    try {
        check_baseline(b);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(name + " is not a resource baseline: " + e.what());
    }
    return b;
}

/// The declarations of the AMD plugins among `files`, by path: each file's own, or (where
/// libamdhip64 cannot be loaded here) those of the same plugin built for cpu, which declares the
/// same kernels and tunables. Only for files in the amd plugin folders, and loaded in worker
/// processes (loading runs a file's code); any other .so is read as data only.
std::map<fs::path, plugin> declarations_of(const std::vector<fs::path>& files, const std::vector<fs::path>& plugin_dirs)
{
    std::set<fs::path> dirs;
    for (const auto& d : plugin_dirs) {
        std::error_code ec;
        dirs.insert(fs::weakly_canonical(d, ec));
        dirs.insert(fs::weakly_canonical(d / amd, ec));
    }
    std::vector<fs::path> plugins;
    for (const auto& f : files) {
        std::error_code ec;
        if (dirs.count(fs::weakly_canonical(f, ec).parent_path()) && fs::exists(f, ec)) plugins.push_back(f);
    }
    std::map<fs::path, plugin> out;
    if (plugins.empty()) return out;
    platform_options po;
    po.name = amd;
    plugin_registry amd_plugins(platform_kind::amd);
    load_catalog(po, plugins, amd_plugins);
    for (const auto& p : amd_plugins.plugins()) out[p.path] = p;
    std::map<fs::path, fs::path> twins; // cpu build -> amd file
    for (const auto& f : plugins) {
        const fs::path cpu_build = platform::build_dir() / "plugins" / to_string(platform_kind::cpu) / f.filename();
        std::error_code ec;
        if (!out.count(f) && fs::exists(cpu_build, ec)) twins[cpu_build] = f;
    }
    if (twins.empty()) return out;
    po.name = to_string(platform_kind::cpu);
    std::vector<fs::path> cpu_files;
    for (const auto& [cpu_build, f] : twins) cpu_files.push_back(cpu_build);
    plugin_registry cpu_plugins(platform_kind::cpu);
    load_catalog(po, cpu_files, cpu_plugins);
    for (const auto& p : cpu_plugins.plugins()) out[twins.at(p.path)] = p;
    return out;
}

std::vector<fs::path> files_to_inspect(const inspect_options& o)
{
    std::vector<fs::path> files(o.files.begin(), o.files.end());
    if (!files.empty()) return files;
    std::set<fs::path> seen;
    for (const auto& dir : plugin_directories(amd, o.plugin_dirs)) {
        std::error_code ec;
        for (const fs::path& d : {dir, dir / amd}) {
            if (!fs::is_directory(d, ec)) continue;
            for (const auto& e : fs::directory_iterator(d, ec))
                if (e.path().extension() == ".so") seen.insert(e.path());
        }
    }
    if (seen.empty())
        throw std::invalid_argument("no AMD plugins to inspect: " + unbuilt_platform_hint(amd) +
                                    "; or name .so files to inspect them, or give --plugins a folder that holds some");
    return {seen.begin(), seen.end()};
}

std::string cell(long long v) { return std::to_string(v); }

/// "gfx90a" asked for matches "gfx90a:xnack-"; a request with its features must match exactly.
bool same_target(const std::string& asked, const std::string& target)
{
    return asked == target || (asked.find(':') == std::string::npos && target.substr(0, target.find(':')) == asked);
}

void print_table(std::ostream& os, const inspected& f)
{
    os << f.path.string() << (f.plugin.empty() ? "  (not a wavebench plugin)" : "  (" + f.plugin + ")") << "\n";
    if (f.kernels.empty()) {
        os << (f.errors ? "  no code object passed the checks (the errors are on stderr)\n\n"
                        : "  no AMD code objects\n\n");
        return;
    }
    char line[256];
    std::snprintf(line, sizeof line, "  %-9s %-22s %6s %5s %5s %5s %6s %7s %7s %4s %6s %3s %-16s", "target", "kernel",
                  "block", "VGPR", "AGPR", "SGPR", "LDS", "scratch", "spills", "wave", "maxWG", "WGs", "waves/SIMD");
    os << line << "\n";
    for (const auto& r : f.kernels) {
        const auto& k = r.k;
        std::string groups = "?", occ = "? (not modelled)";
        if (r.occupancy) {
            groups = cell(r.occupancy->workgroups);
            occ = cell(r.occupancy->waves) + "/" + cell(r.occupancy->max_waves) + " " + r.occupancy->limiter;
        }
        const std::string block = cell(r.block_size) + (r.block_from.find("max flat") == 0 ? "*" : "");
        const std::string name = k.name.size() <= 22 ? k.name : k.name.substr(0, 21) + "~"; // whole in --json
        std::snprintf(line, sizeof line, "  %-9s %-22s %6s %5d %5d %5d %6lld %7lld %3d/%-3d %4d %6d %3s %s",
                      k.target.c_str(), name.c_str(), block.c_str(), k.vgprs, k.agprs, k.sgprs,
                      (long long)(k.lds_bytes + r.dynamic_lds_bytes), (long long)k.scratch_bytes, k.vgpr_spills,
                      k.sgpr_spills, k.warp_size, k.max_workgroup, groups.c_str(), occ.c_str());
        os << line << "\n";
    }
    os << "\n";
}

void print_mix(std::ostream& os, const inspected& f)
{
    os << "  instruction mix (disassembly; classes by mnemonic, harness/amd/isa_mix.cpp; exec: writes of the exec "
          "mask, "
          "counted in their class too):\n"
       << mix_header("target", "kernel") << "\n";
    std::map<std::string, std::string> by; // target -> what disassembled its kernels
    for (const auto& r : f.kernels)
        if (r.k.instructions_missing.empty()) {
            os << mix_row(r.k.target, r.k.name, count_mix(r.k.instructions)) << "\n";
            by[r.k.target] = r.k.disassembler;
        } else {
            os << "  " << r.k.target << "  " << r.k.name << ": not disassembled: " << r.k.instructions_missing << "\n";
        }
    for (const auto& [target, tool] : by) os << "  " << target << " disassembled by " << tool << "\n";
    os << "\n";
}

/// `--pair A B`: the files of the two plugins, so that only they are read; a name no file
/// declares is refused before anything is read, with the names there are.
std::vector<fs::path> files_of_pair(const inspect_options& o, const std::map<fs::path, plugin>& declared)
{
    std::vector<fs::path> files;
    for (const auto& name : o.pair) {
        const auto it =
            std::find_if(declared.begin(), declared.end(), [&](const auto& d) { return d.second.name() == name; });
        if (it != declared.end()) {
            files.push_back(it->first);
            continue;
        }
        std::string known;
        for (const auto& d : declared) known += (known.empty() ? "" : ", ") + d.second.name();
        throw std::invalid_argument("--pair: no AMD plugin '" + shorten(name) + "' (the amd plugins here: " + known +
                                    ")");
    }
    return files;
}

/// `--pair A B`: each plugin's kernels summed per target, side by side, and B - A.
int print_pair(std::ostream& out, const inspect_options& o, const std::vector<inspected>& all)
{
    std::map<std::string, std::map<std::string, isa_counts>> by; // plugin -> target -> mix
    for (const auto& f : all)
        for (const auto& r : f.kernels)
            if (r.k.instructions_missing.empty()) by[f.plugin][r.k.target] += count_mix(r.k.instructions);
    for (const auto& name : o.pair)
        if (!by.count(name))
            throw std::invalid_argument("--pair: AMD plugin '" + shorten(name) + "' has no disassembled kernel");
    const auto &a = by[o.pair[0]], &b = by[o.pair[1]];
    if (o.json) {
        json rows = json::array();
        for (const auto& [target, ma] : a)
            if (const auto it = b.find(target); it != b.end())
                rows.push_back({{"target", target}, {o.pair[0], mix_json(ma)}, {o.pair[1], mix_json(it->second)}});
        out << text(json{{"pair", o.pair}, {"targets", rows}}, 2) << "\n";
        return 0;
    }
    out << "instruction mix, " << o.pair[0] << " (A) against " << o.pair[1] << " (B), all kernels of each, per target\n"
        << mix_header("target", "") << "\n";
    for (const auto& [target, ma] : a) {
        const auto it = b.find(target);
        if (it == b.end()) continue;
        isa_counts d = it->second;
        for (size_t c = 0; c < isa_classes; ++c) d.by_class[c] -= ma.by_class[c];
        d.exec_writes -= ma.exec_writes;
        d.total -= ma.total;
        out << mix_row(target, "A " + o.pair[0], ma) << "\n"
            << mix_row(target, "B " + o.pair[1], it->second) << "\n"
            << mix_row(target, "B - A", d, true) << "\n\n";
    }
    return 0;
}

/// One file's figures, each kernel judged at the launch its plugin declares (or --block-size, or
/// its max flat workgroup size); none when the file cannot be read. Errors go to `err` and `errors`.
std::optional<inspected> inspect_file(const fs::path& file, const plugin* desc, const inspect_options& o, json& errors,
                                      std::ostream& err, std::set<std::string>& targets_seen)
{
    inspected f{file, "", {}};
    amd_file_figures figures;
    try {
        figures = read_amd_file(file, o.isa || !o.pair.empty());
    } catch (const std::exception& e) {                         // the file as a whole
        const bool named = dynamic_cast<const file_error*>(&e); // its message names the file
        err << "error: " << (named ? "" : file.string() + ": ") << e.what() << "\n";
        errors.push_back({{"file", file.string()}, {"entry", nullptr}, {"field", nullptr}, {"reason", e.what()}});
        return std::nullopt;
    }
    for (const auto& e : figures.errors) { // the file's other entries are still reported
        err << "error: " << file.string() << ": " << to_string(e) << "\n";
        errors.push_back({{"file", file.string()},
                          {"entry", e.entry.empty() ? json(nullptr) : json(e.entry)},
                          {"field", e.field},
                          {"reason", e.reason}});
    }
    f.errors = figures.errors.size();
    if (desc) f.plugin = desc->name();
    for (const auto& k : figures.kernels) {
        targets_seen.insert(k.target);
        if (!o.targets.empty() && std::none_of(o.targets.begin(), o.targets.end(),
                                               [&](const std::string& t) { return same_target(t, k.target); }))
            continue;
        const auto launch = desc ? launch_of(*desc, k.name) : std::nullopt;
        if (launch)
            f.kernels.push_back(judge(k, launch->block_size, launch->dynamic_lds, launch->from));
        else if (o.block_size > 0)
            f.kernels.push_back(judge(k, o.block_size, 0, "--block-size"));
        else
            f.kernels.push_back(
                judge(k, k.max_workgroup, 0, "max flat workgroup size (no plugin declares the launch)"));
    }
    return f;
}

/// Every --target must name a target some file has code for.
void check_targets(const inspect_options& o, const std::set<std::string>& targets_seen)
{
    for (const auto& t : o.targets)
        if (std::none_of(targets_seen.begin(), targets_seen.end(),
                         [&](const std::string& s) { return same_target(t, s); })) {
            std::string seen;
            for (const auto& s : targets_seen) seen += (seen.empty() ? "" : ", ") + s;
            throw std::invalid_argument("--target " + shorten(t) + ": no code object for it (the files have: " + seen +
                                        ")");
        }
}

/// The figures on `out`: JSON, or a table per file (with --isa, its instruction mix).
void print_figures(std::ostream& out, const inspect_options& o, const std::vector<inspected>& all, const json& errors)
{
    if (o.json) {
        json files = json::array();
        for (const auto& f : all) {
            json kernels = json::array();
            for (const auto& r : f.kernels) {
                kernels.push_back(to_json(r));
                if (o.isa && r.k.instructions_missing.empty()) {
                    kernels.back()["isa_mix"] = mix_json(count_mix(r.k.instructions));
                    kernels.back()["isa_mix"]["disassembler"] = r.k.disassembler;
                } else if (o.isa) {
                    kernels.back()["isa_mix"] = json{{"missing", r.k.instructions_missing}};
                }
            }
            files.push_back({{"file", f.path.string()},
                             {"plugin", f.plugin.empty() ? json(nullptr) : json(f.plugin)},
                             {"kernels", kernels}});
        }
        out << text(json{{"files", files}, {"errors", errors}}, 2) << "\n";
    } else {
        for (const auto& f : all) {
            print_table(out, f);
            if (o.isa && !f.kernels.empty()) print_mix(out, f);
        }
        if (std::any_of(all.begin(), all.end(), [](const inspected& f) { return !f.kernels.empty(); }))
            out << "block: the plugin's launch (* : the kernel's max flat workgroup size, no plugin declares it); "
                   "LDS: static + dynamic bytes; WGs: resident work-groups per CU (per WGP on gfx10+ in WGP mode, "
                   "clang's default; per CU where the kernel is built with -mcumode); waves/SIMD: what they put on the "
                   "busiest SIMD, of the maximum, and what caps the "
                   "work-groups "
                   "(core/occupancy.cpp)\n";
    }
}

/// The changes against the baseline on `err`: 1 when a figure got worse, else 0.
int compare_with_baseline(std::ostream& err, const inspect_options& o, const json& baseline,
                          const std::map<std::string, std::vector<amd_kernel_report>>& by_file)
{
    const auto changes = compare_baseline(baseline, baseline_json(by_file));
    size_t worse = 0;
    for (const auto& c : changes) worse += c.worse;
    char line[256];
    for (const bool w : {true, false}) {
        if (std::none_of(changes.begin(), changes.end(), [&](const baseline_change& c) { return c.worse == w; }))
            continue;
        err << (w ? "\nresource regressions" : "\nimprovements") << " against " << o.compare << ":\n";
        std::snprintf(line, sizeof line, "  %-26s %-9s %-22s %-20s %8s %8s", "file", "target", "kernel", "figure",
                      "was", "now");
        err << line << "\n";
        for (const auto& c : changes)
            if (c.worse == w) {
                std::snprintf(line, sizeof line, "  %-26s %-9s %-22s %-20s %8lld %8lld", c.file.c_str(),
                              c.target.c_str(), c.kernel.c_str(), c.figure.c_str(), c.was, c.now);
                err << line << "\n";
            }
    }
    if (worse) {
        err << "\n"
            << worse << " regression(s). If they are intended, refresh the baseline on purpose: make amd-baseline\n";
        return 1;
    }
    err << "no regression against " << o.compare << " (" << changes.size() << " improvement(s))\n";
    return 0;
}

} // namespace

int inspect_command(const inspect_options& o, std::ostream& out, std::ostream& err)
{
    std::vector<inspected> all;
    json errors = json::array();
    const auto dirs = plugin_directories(amd, o.plugin_dirs);
    std::set<std::string> targets_seen;
    const auto files = files_to_inspect(o);
    // What is to be read and written is checked before anything is: a bad baseline, or an output
    // that is one of the inputs, stops the command before the files are read.
    const json baseline = o.compare.empty() ? json() : read_baseline(o.compare);
    if (!o.write_baseline.empty()) {
        std::vector<fs::path> inputs(files.begin(), files.end());
        if (!o.compare.empty()) inputs.push_back(o.compare);
        check_output(o.write_baseline, "--write-baseline", inputs);
    }
    const auto declared = declarations_of(files, dirs);
    for (const fs::path& file : o.pair.empty() ? files : files_of_pair(o, declared)) {
        const plugin* desc = declared.count(file) ? &declared.at(file) : nullptr;
        if (auto f = inspect_file(file, desc, o, errors, err, targets_seen)) all.push_back(std::move(*f));
    }
    check_targets(o, targets_seen);

    if (!o.pair.empty()) return print_pair(out, o, all);

    std::map<std::string, std::vector<amd_kernel_report>> by_file;
    for (const auto& f : all) by_file[f.path.filename().string()] = f.kernels;

    if (!o.write_baseline.empty() && !errors.empty()) {
        err << "baseline not written: " << errors.size() << " error(s) above; it would leave their kernels out\n";
    } else if (!o.write_baseline.empty()) {
        json b = baseline_json(by_file);
        b["note"] = "generated by `make amd-baseline` (wavebench inspect --platform amd --write-baseline); do not edit";
        write_json(o.write_baseline, b);
        err << "baseline written: " << o.write_baseline << " (" << b["kernels"].size() << " kernels)\n";
    }

    print_figures(out, o, all, errors);

    int status = errors.empty() ? 0 : 2;
    if (!o.compare.empty() && compare_with_baseline(err, o, baseline, by_file) == 1) status = 1;
    return status;
}

void add_inspect_command(CLI::App& app, command_list& commands)
{
    struct options {
        inspect_options inspect;
        std::string platform = auto_platform;
    };
    auto o = std::make_shared<options>();
    inspect_options& io = o->inspect;
    auto* cmd = app.add_subcommand(
        "inspect", "AMD static figures of hipcc-built .so files, no GPU needed: registers, LDS, scratch, spills, "
                   "occupancy per target");
    cmd->add_option("files", io.files, "plugin or any HIP .so files (default: every plugin of the amd platform)")
        ->check(a_path);
    cmd->add_option("--platform", o->platform, "amd: every plugin of the amd platform (the default without files)");
    cmd->add_option("--plugins", io.plugin_dirs, "another plugin directory (repeatable)");
    cmd->add_option("--target", io.targets, "only these targets, e.g. gfx90a (repeatable)");
    cmd->add_flag("--json", io.json, "print JSON");
    cmd->add_option("--block-size", io.block_size,
                    "block size for kernels no plugin declares (default: their max flat workgroup size)")
        ->check(integer(1, 1024));
    cmd->add_option("--compare", io.compare,
                    "compare with a resource baseline; exit status 1 on a regression (more registers, LDS, "
                    "scratch or spills, fewer waves)")
        ->check(a_path);
    cmd->add_option("--write-baseline", io.write_baseline, "write the figures as a baseline (make amd-baseline)")
        ->check(a_path);
    cmd->add_flag("--isa", io.isa,
                  "also disassemble each kernel and count its instructions by class (VALU, SALU, VMEM, SMEM, LDS, "
                  "branch, waitcnt, other; exec-mask writes; total)");
    cmd->add_option("--pair", io.pair,
                    "two plugins, e.g. --pair reduce/atomic reduce/tree: their instruction mixes "
                    "per target side by side, with the difference")
        ->expected(2);
    commands.push_back({cmd, [o] {
                            if (o->platform != auto_platform && parse_platform(o->platform) != platform_kind::amd)
                                throw std::invalid_argument(
                                    "inspect reads AMD code objects: --platform amd, or name .so files");
                            return inspect_command(o->inspect, std::cout, std::cerr);
                        }});
}

} // namespace wb
