#include "harness/amd/amd_build.h"

#include "harness/amd/amd_static.h"
#include "harness/common/files.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace wb {

namespace fs = std::filesystem;

namespace {

bool target_text(std::string_view s)
{
    if (s.empty() || s.size() > 64) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == ':' || c == '+' || c == '_';
    });
}

std::string_view processor_of(std::string_view id) { return id.substr(0, id.find(':')); }

/// The generic targets and the processors each covers (LLVM's AMDGPUUsage, "Generic processors").
bool generic_covers(std::string_view generic, std::string_view p)
{
    auto in = [&](std::initializer_list<std::string_view> list) {
        return std::find(list.begin(), list.end(), p) != list.end();
    };
    if (generic == "gfx9-generic") return in({"gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"});
    if (generic == "gfx9-4-generic") return in({"gfx940", "gfx941", "gfx942", "gfx950"});
    if (generic == "gfx10-1-generic") return in({"gfx1010", "gfx1011", "gfx1012", "gfx1013"});
    if (generic == "gfx10-3-generic")
        return in({"gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036"});
    if (generic == "gfx11-generic")
        return in({"gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152", "gfx1153"});
    if (generic == "gfx12-generic") return in({"gfx1200", "gfx1201"});
    return false;
}

/// The ":feature+"/":feature-" settings of a target ID, by feature name.
std::map<std::string, char> features_of(std::string_view id)
{
    std::map<std::string, char> out;
    for (size_t at = id.find(':'); at != std::string_view::npos;) {
        const size_t next = id.find(':', at + 1);
        const std::string_view f = id.substr(at + 1, next == std::string_view::npos ? id.npos : next - at - 1);
        if (f.size() > 1 && (f.back() == '+' || f.back() == '-'))
            out[std::string(f.substr(0, f.size() - 1))] = f.back();
        at = next;
    }
    return out;
}

} // namespace

std::vector<amd_left_out> read_left_out(const fs::path& plugin_file)
{
    fs::path sidecar = plugin_file;
    sidecar += ".omitted";
    std::error_code ec;
    if (!fs::exists(sidecar, ec)) return {};
    std::vector<amd_left_out> out;
    std::istringstream in(read_input(sidecar, "list of left-out AMD targets", text_input_limit));
    for (std::string line; std::getline(in, line) && out.size() < 256;) {
        const size_t tab = line.find('\t');
        if (tab == std::string::npos || !target_text(std::string_view(line).substr(0, tab))) continue;
        out.push_back({line.substr(0, tab), shown(std::string_view(line).substr(tab + 1), 300)});
    }
    return out;
}

amd_build_info amd_build_of(const fs::path& plugin_file)
{
    amd_build_info b;
    try {
        b.left_out = read_left_out(plugin_file);
        for (const auto& k : read_amd_file(plugin_file).kernels)
            if (std::find(b.targets.begin(), b.targets.end(), k.target) == b.targets.end())
                b.targets.push_back(k.target);
        std::sort(b.targets.begin(), b.targets.end());
    } catch (const std::exception& e) {
        b.problem = shorten(e.what(), 400);
    }
    return b;
}

bool amd_target_loads_on(std::string_view target, std::string_view device)
{
    const std::string_view tp = processor_of(target), dp = processor_of(device);
    if (tp != dp && !generic_covers(tp, dp)) return false;
    const auto want = features_of(target), have = features_of(device);
    for (const auto& [name, setting] : want) {
        const auto it = have.find(name);
        if (it != have.end() && it->second != setting) return false;
    }
    return true;
}

std::string amd_unbuilt_reason(const amd_build_info& b, std::string_view device)
{
    if (!b.problem.empty()) return ""; // unreadable here: the run says what loading it says
    for (const auto& t : b.targets)
        if (amd_target_loads_on(t, device)) return "";
    const std::string dev = shown(processor_of(device), 64);
    std::string built;
    for (const auto& t : b.targets) built += (built.empty() ? "" : ", ") + shown(t, 64);
    std::string why = "no code object for this GPU (" + dev + "); built for " + (built.empty() ? "no target" : built);
    for (const auto& l : b.left_out)
        if (processor_of(l.target) == processor_of(device) ||
            generic_covers(processor_of(l.target), processor_of(device)))
            return why + "; the build left " + dev + " out: " + l.reason;
    return why + "; add it: configure with -DWAVEBENCH_AMD_TARGETS=\"<the list>;" + dev + "\" and build again";
}

size_t skip_unbuilt_targets(std::vector<config>& plan, std::string_view device)
{
    std::map<fs::path, std::string> reason_of;
    size_t marked = 0;
    for (config& c : plan) {
        if (!c.skip.empty() || !c.plug) continue;
        auto it = reason_of.find(c.plug->path);
        if (it == reason_of.end())
            it = reason_of.emplace(c.plug->path, amd_unbuilt_reason(amd_build_of(c.plug->path), device)).first;
        if (!it->second.empty()) {
            c.skip = it->second;
            ++marked;
        }
    }
    return marked;
}

} // namespace wb
