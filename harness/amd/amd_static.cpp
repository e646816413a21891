#include "harness/amd/amd_static.h"
#include "harness/platform/platform_kind.h"

#include "core/amd/inspect_abi.h"
#include "harness/common/files.h"
#include "harness/common/json.h"
#include "harness/platform/platform.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <tuple>

namespace wb {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

/// libwavebench_amd_inspect.so, loaded on first use.
struct reader {
    boost::dll::shared_library lib;
    char* (*inspect)(const char*, size_t, int, char**) = nullptr;
    void (*release)(char*) = nullptr;
};

const reader& the_reader()
{
    static const reader r = [] {
        reader x;
        x.lib = load_build_library("libwavebench_amd_inspect.so", "AMD inspection",
                                   "it needs libamd-comgr-dev and libelf-dev");
        x.inspect = &x.lib.get<char*(const char*, size_t, int, char**)>(WB_AMD_INSPECT_ENTRY);
        x.release = &x.lib.get<void(char*)>(WB_AMD_FREE_ENTRY);
        return x;
    }();
    return r;
}

/// A figure of a kernel in the reader's answer: it checked each; a missing or mistyped one is a
/// broken reader, said as such rather than read as 0.
int figure(const json& k, const char* key)
{
    const auto it = k.find(key);
    if (it == k.end() || !it->is_number_integer() || *it < 0 || *it > INT32_MAX)
        throw std::runtime_error(std::string("the code-object reader gave no whole number for ") + key);
    return it->get<int>();
}

/// The kernels and errors in the reader's answer `doc`, as the harness keeps them.
amd_file_figures figures_of(const json& doc)
{
    amd_file_figures out;
    for (const auto& co : doc.at("code_objects"))
        for (const auto& k : co.at("kernels")) {
            amd_kernel_figures f;
            f.target = co.at("target").get<std::string>();
            f.symbol = k.at("name").get<std::string>();
            f.name = kernel_base_name(f.symbol);
            f.vgprs = figure(k, "vgpr_count");
            f.agprs = k.at("agpr_count").is_null() ? 0 : figure(k, "agpr_count"); // none on targets without AGPRs
            f.sgprs = figure(k, "sgpr_count");
            f.vgpr_spills = figure(k, "vgpr_spill_count");
            f.sgpr_spills = figure(k, "sgpr_spill_count");
            f.warp_size = figure(k, "wavefront_size");
            f.max_workgroup = figure(k, "max_flat_workgroup_size");
            f.lds_bytes = figure(k, "group_segment_fixed_size");
            f.scratch_bytes = figure(k, "private_segment_fixed_size");
            if (const auto it = k.find("wgp_mode"); it != k.end() && it->is_boolean()) f.wgp_mode = it->get<bool>();
            if (const auto it = k.find("instructions"); it != k.end() && it->is_array())
                f.instructions = it->get<std::vector<std::string>>();
            f.instructions_missing = k.value("instructions_missing", std::string());
            if (const auto it = k.find("disassembler"); it != k.end() && it->is_string())
                f.disassembler = shorten(it->get<std::string>(), 300);
            out.kernels.push_back(std::move(f));
        }
    std::sort(out.kernels.begin(), out.kernels.end(), [](const amd_kernel_figures& a, const amd_kernel_figures& b) {
        return std::tie(a.target, a.name, a.symbol) < std::tie(b.target, b.name, b.symbol);
    });
    // An entry's ID is the file's bytes: escaped, and bounded, for messages and JSON.
    for (const auto& e : doc.at("errors"))
        out.errors.push_back({e.at("entry").is_null() ? "" : shorten(e.at("entry").get<std::string>(), 200),
                              shorten(e.at("field").get<std::string>(), 80),
                              shorten(e.at("reason").get<std::string>(), 2000)});
    return out;
}

} // namespace

std::string to_string(const amd_read_error& e)
{
    return (e.entry.empty() ? "" : "bundle entry '" + e.entry + "', ") + e.field + ": " + e.reason;
}

amd_file_figures read_amd_file(const fs::path& file, bool instructions)
{
    // A regular file only, and up to a limit: /dev/zero or a FIFO would be read forever.
    const std::string bytes = read_input(file, "file to inspect", binary_input_limit);
    const reader& r = the_reader();
    char* error = nullptr;
    std::unique_ptr<char, void (*)(char*)> text(r.inspect(bytes.data(), bytes.size(), instructions, &error), r.release);
    if (!text) {
        const std::string why = error ? shorten(error, 2000) : "unknown error";
        r.release(error);
        throw std::runtime_error(why);
    }
    // The reader is ours: an answer not as core/amd/inspect_abi.h promises is a bug in it.
    const std::string broken = "the code-object reader's answer for " + shorten(file.string(), 200) +
                               " is not as core/amd/inspect_abi.h promises";
    try {
        return figures_of(parse_json(text.get()));
    } catch (const json::exception&) {
        throw std::runtime_error(broken);
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(broken + ": " + e.what());
    }
}

std::vector<amd_kernel_figures> read_amd_kernels(const fs::path& file, bool instructions)
{
    amd_file_figures f = read_amd_file(file, instructions);
    if (!f.errors.empty())
        throw std::runtime_error(
            to_string(f.errors.front()) +
            (f.errors.size() > 1 ? " (and " + std::to_string(f.errors.size() - 1) + " more)" : ""));
    return std::move(f.kernels);
}

std::string kernel_base_name(const std::string& symbol)
{
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), std::free);
    if (status != 0 || !d) return symbol;
    std::string s = d.get();
    for (size_t at; (at = s.find("(anonymous namespace)")) != std::string::npos;) // not a parameter list
        s.replace(at, 21, "{anonymous}");
    // The name ends at the parameter list and starts after the last "::" or space (a return
    // type), both outside template arguments.
    size_t end = s.size(), start = 0;
    int depth = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '<')
            ++depth;
        else if (c == '>')
            --depth;
        else if (depth == 0 && c == '(') {
            end = i;
            break;
        } else if (depth == 0 && c == ' ')
            start = i + 1;
        else if (depth == 0 && c == ':' && i + 1 < s.size() && s[i + 1] == ':')
            start = ++i + 1;
    }
    return s.substr(start, end - start);
}

amd_kernel_report judge(const amd_kernel_figures& k, int block_size, int64_t dynamic_lds, std::string from)
{
    amd_kernel_report r{k, block_size, std::move(from), dynamic_lds, std::nullopt};
    // The registers the kernel uses, as LLVM counts occupancy (LLVM 22's descriptors may allocate
    // more, up to what keeps that occupancy: the resident work-groups stay as they are). gfx10+: WGP
    // mode (clang's default) unless the descriptor says CU mode (-mcumode).
    if (const amd_target* t = find_amd_target(k.target))
        r.occupancy = amd_occupancy(
            *t, {k.vgprs, k.agprs, k.sgprs, k.lds_bytes + dynamic_lds, block_size, k.warp_size, k.wgp_mode == false});
    return r;
}

std::optional<kernel_launch> launch_of(const plugin& d, const std::string& kernel, const param_map& tunables)
{
    for (size_t i = 0; i < d.kernels.size(); ++i)
        if (kernel == d.kernels[i].name) return resolve_launch(d, i, tunables);
    return std::nullopt;
}

json to_json(const amd_kernel_report& r)
{
    const amd_kernel_figures& k = r.k;
    json occ = nullptr;
    if (const auto& e = r.occupancy) {
        auto groups = [](int n) { return n == amd_occupancy_estimate::unlimited ? json(nullptr) : json(n); };
        occ = {{"waves_per_simd", e->waves},
               {"max", e->max_waves},
               {"limiter", e->limiter},
               {"workgroups_per_cu", e->workgroups},
               {"waves_per_workgroup", e->group_waves},
               {"simds", e->simds},
               {"workgroups_by",
                {{"waves", groups(e->groups_by_waves)},
                 {"vgprs", groups(e->groups_by_vgprs)},
                 {"sgprs", groups(e->groups_by_sgprs)},
                 {"lds", groups(e->groups_by_lds)},
                 {"workgroup_slots", groups(e->groups_by_slots)}}},
               {"register_waves_per_simd", {{"vgprs", e->vgpr_waves}, {"sgprs", e->sgpr_waves}}}};
    }
    return {{"target", k.target},
            {"kernel", k.name},
            {"symbol", k.symbol},
            {"block_size", r.block_size},
            {"block_from", r.block_from},
            {"vgprs", k.vgprs},
            {"agprs", k.agprs},
            {"sgprs", k.sgprs},
            {"lds_bytes", k.lds_bytes + r.dynamic_lds_bytes},
            {"static_lds_bytes", k.lds_bytes},
            {"dynamic_lds_bytes", r.dynamic_lds_bytes},
            {"scratch_bytes", k.scratch_bytes},
            {"vgpr_spills", k.vgpr_spills},
            {"sgpr_spills", k.sgpr_spills},
            {"wavefront_size", k.warp_size},
            {"max_workgroup_size", k.max_workgroup},
            {"wgp_mode", k.wgp_mode ? json(*k.wgp_mode) : json(nullptr)},
            {"occupancy", occ}};
}

std::optional<fs::path> amd_twin(const fs::path& plugin_file)
{
    const fs::path dir = plugin_file.parent_path(), name = plugin_file.filename();
    const std::string platform_dir = dir.filename().string();
    std::vector<fs::path> candidates;
    const char* amd = to_string(platform_kind::amd);
    if (parse_platform(platform_dir)) candidates.push_back(dir.parent_path() / amd / name); // <dir>/<platform>/x.so
    candidates.push_back(platform::build_dir() / "plugins" / amd / name);
    for (const auto& c : candidates)
        if (fs::exists(c)) return c;
    return std::nullopt;
}

// ---- baseline -------------------------------------------------------------------------------------

namespace {
const char* const figures[] = {"vgprs", "agprs", "sgprs", "lds_bytes", "scratch_bytes", "vgpr_spills", "sgpr_spills"};

std::string key(const json& k)
{
    return k.at("file").get<std::string>() + "|" + k.at("target").get<std::string>() + "|" +
           k.at("symbol").get<std::string>();
}
} // namespace

json baseline_json(const std::map<std::string, std::vector<amd_kernel_report>>& by_file)
{
    json kernels = json::array();
    for (const auto& [file, reports] : by_file)
        for (const auto& r : reports) {
            json k{{"file", file},
                   {"target", r.k.target},
                   {"kernel", r.k.name},
                   {"symbol", r.k.symbol},
                   {"block_size", r.block_size},
                   {"waves_per_simd", r.occupancy ? json(r.occupancy->waves) : json(nullptr)}};
            const json full = to_json(r);
            for (const char* f : figures) k[f] = full.at(f);
            kernels.push_back(k);
        }
    return {{"schema", 1}, {"kernels", kernels}};
}

void check_baseline(const json& b)
{
    if (!b.is_object() || !b.contains("kernels") || !b["kernels"].is_array())
        throw std::invalid_argument("it has no \"kernels\" array");
    size_t i = 0;
    for (const auto& k : b["kernels"]) {
        const std::string which = "kernel " + std::to_string(i++);
        if (!k.is_object()) throw std::invalid_argument(which + " is not an object");
        for (const char* s : {"file", "target", "kernel", "symbol"})
            if (!k.contains(s) || !k[s].is_string())
                throw std::invalid_argument(which + " has no string \"" + s + "\"");
        for (const char* f : figures)
            if (!k.contains(f) || !k[f].is_number_integer())
                throw std::invalid_argument(which + " has no whole number \"" + f + "\"");
        if (!k.contains("waves_per_simd") ||
            !(k["waves_per_simd"].is_number_integer() || k["waves_per_simd"].is_null()))
            throw std::invalid_argument(which + " has no \"waves_per_simd\" (a whole number or null)");
    }
}

std::vector<baseline_change> compare_baseline(const json& baseline, const json& now)
{
    check_baseline(baseline);
    std::map<std::string, json> was, is;
    for (const auto& k : baseline.at("kernels")) was[key(k)] = k;
    for (const auto& k : now.at("kernels")) is[key(k)] = k;
    std::vector<baseline_change> out;
    auto change = [&](const json& k, const std::string& figure, long long a, long long b, bool worse) {
        out.push_back({k.at("file"), k.at("target"), k.at("kernel"), figure, a, b, worse});
    };
    for (const auto& [id, k] : is) {
        const auto it = was.find(id);
        if (it == was.end()) {
            change(k, "not in the baseline", 0, 0, true);
            continue;
        }
        const json& b = it->second;
        for (const char* f : figures) {
            const long long x = b.at(f), y = k.at(f);
            if (x != y) change(k, f, x, y, y > x); // more registers, LDS, scratch or spills: worse
        }
        if (b.at("waves_per_simd").is_number() && k.at("waves_per_simd").is_number()) {
            const long long x = b.at("waves_per_simd"), y = k.at("waves_per_simd");
            if (x != y) change(k, "waves_per_simd", x, y, y < x);
        }
    }
    for (const auto& [id, k] : was)
        if (!is.count(id)) change(k, "no longer built", 0, 0, true);
    return out;
}

} // namespace wb
