#include "harness/plugins/plugins.h"

#include "harness/common/build_info.h"
#include "harness/common/files.h"
#include "harness/platform/platform.h"
#include "harness/plugins/code_digest.h"
#include "harness/plugins/plugin_file.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fnmatch.h>
#include <set>
#include <sstream>
#include <stdexcept>

namespace wb {

namespace fs = std::filesystem;

plugin_registry::plugin_registry(std::string_view platform)
{
    const auto kind = parse_platform(platform);
    if (!kind) throw std::invalid_argument(unknown_platform(platform));
    platform_ = *kind;
}

const tunable_decl* plugin::tunable(std::string_view name) const
{
    for (const auto& t : tunables)
        if (name == t.name) return &t;
    return nullptr;
}

std::string describe_allowed(const tunable_decl& t)
{
    std::ostringstream s;
    if (!t.allowed.empty()) {
        for (size_t i = 0; i < t.allowed.size(); ++i) s << (i ? ", " : "") << t.allowed[i];
        return s.str();
    }
    s << t.min << ".." << t.max;
    if (t.power_of_two) s << ", powers of two";
    return s.str();
}

std::string check_tunable(const tunable_decl& t, int64_t v)
{
    bool ok;
    if (!t.allowed.empty())
        ok = std::find(t.allowed.begin(), t.allowed.end(), v) != t.allowed.end();
    else
        ok = v >= t.min && v <= t.max && (!t.power_of_two || (v > 0 && (v & (v - 1)) == 0));
    return ok ? "" : "must be " + describe_allowed(t);
}

std::vector<fs::path> plugin_files(const fs::path& dir, plugin_registry& reg)
{
    std::error_code ec;
    std::vector<fs::path> files;
    if (!fs::is_directory(dir, ec)) {
        reg.reject(dir, "is not a directory");
        return files;
    }
    for (const fs::path& d : {dir, dir / to_string(reg.platform())}) {
        if (!fs::is_directory(d, ec)) continue;
        for (const auto& e : fs::directory_iterator(d, ec))
            if (e.is_regular_file(ec) && e.path().extension() == ".so") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

void plugin_registry::add_directory(const fs::path& dir)
{
    for (const auto& f : plugin_files(dir, *this)) add_file(f);
}

namespace {

namespace limits = declaration_limits;

bool word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// A kernel's name as plugin.h's users write it and kernel_base_name() gives it: an identifier,
/// possibly qualified (ns::k), possibly with template arguments (k<256, float>).
bool kernel_name(std::string_view s)
{
    size_t i = 0;
    for (;;) { // identifier (:: identifier)*
        if (i == s.size() || !word_char(s[i]) || (s[i] >= '0' && s[i] <= '9')) return false;
        while (i < s.size() && word_char(s[i])) ++i;
        if (s.substr(i, 2) != "::") break;
        i += 2;
    }
    if (i == s.size()) return true;
    if (s[i] != '<') return false;
    int depth = 0; // the arguments: anything printable, brackets balanced, the last closing at the end
    for (; i < s.size(); ++i) {
        if (s[i] == '<') ++depth;
        if (s[i] == '>' && --depth == 0) return i + 1 == s.size();
    }
    return false;
}

/// "" when `s` is no longer than `max` bytes, is printable by `ok`, and matches `grammar` (if any);
/// else why not, `what` naming the field and `kind` the grammar ("a name (letters, digits and '_')").
std::string check_string(std::string_view what, std::string_view s, size_t max, bool (*ok)(std::string_view),
                         bool (*grammar)(std::string_view), std::string_view kind)
{
    const std::string its = "its " + std::string(what);
    if (s.size() > max) return its + " is longer than " + std::to_string(max) + " bytes: '" + shorten(s) + "'";
    if (!ok(s)) return its + " is not printable: '" + shorten(s) + "'";
    if (grammar && !grammar(s)) return its + " is not " + std::string(kind) + ": '" + shorten(s) + "'";
    return "";
}

std::string check_text(std::string_view what, std::string_view s)
{
    return check_string(what, s, limits::text, printable_text, nullptr, "");
}

/// A string of the descriptor, copied up to one byte past `max` (check_declaration refuses it
/// then): a garbled pointer to memory without a NUL for long is not read to its end.
std::string bounded(const char* s, size_t max) { return s ? std::string(s, strnlen(s, max + 1)) : ""; }

/// "" when the counts of `d`'s tables are within the limits and every table a count says has
/// entries is there: checked before anything is copied out of them. Else why not.
std::string check_tables(const wb_plugin& d)
{
    const auto table = [](const char* what, const char* count_field, uint64_t n, uint64_t max, const void* t) {
        if (n > max)
            return "declares " + std::to_string(n) + " " + what + " (" + count_field + "), more than the " +
                   std::to_string(max) + " a plugin may have";
        if (n && !t)
            return "declares " + std::to_string(n) + " " + what + " (" + count_field + ") but no table of them";
        return std::string();
    };
    if (auto why = table("kernels", "n_kernels", d.n_kernels, limits::kernels, d.kernels); !why.empty()) return why;
    if (auto why = table("tunables", "n_tunables", d.n_tunables, limits::tunables, d.tunables); !why.empty())
        return why;
    for (uint32_t i = 0; i < d.n_tunables; ++i) {
        const wb_tunable& t = d.tunables[i];
        if (auto why = table("allowed values", "n_allowed", t.n_allowed, limits::allowed, t.allowed); !why.empty())
            return "its tunables[" + std::to_string(i) + "] " + why;
    }
    if (WB_PLUGIN_HAS(&d, n_constraints))
        return table("constraints", "n_constraints", d.n_constraints, limits::constraints, d.constraints);
    return "";
}

/// What the descriptor declares, copied out of the library (after check_tables).
plugin declared(const wb_plugin& d, const family* fam, const fs::path& file)
{
    plugin p;
    p.fam = fam;
    p.variant = bounded(d.variant, limits::name);
    p.summary = bounded(d.summary, limits::text);
    p.seed = bounded(d.seed, limits::text);
    p.path = file;
    p.sdk_version = WB_PLUGIN_HAS(&d, sdk_version) ? d.sdk_version : 200;
    for (uint32_t i = 0; i < d.n_kernels; ++i) {
        const wb_kernel& k = d.kernels[i];
        p.kernels.push_back({bounded(k.name, limits::kernel_name), bounded(k.block_size_param, limits::name),
                             k.fixed_block_size, k.lds_bytes_per_thread, bounded(k.when_param, limits::name),
                             k.when_value});
    }
    for (uint32_t i = 0; i < d.n_tunables; ++i) {
        const wb_tunable& t = d.tunables[i];
        p.tunables.push_back({bounded(t.name, limits::name), bounded(t.help, limits::text), t.default_value, t.min,
                              t.max, t.power_of_two != 0, std::vector<int64_t>(t.allowed, t.allowed + t.n_allowed)});
    }
    const uint32_t n_constraints = WB_PLUGIN_HAS(&d, n_constraints) ? d.n_constraints : 0;
    for (uint32_t i = 0; i < n_constraints; ++i) {
        const wb_constraint& c = d.constraints[i];
        p.constraints.push_back({c.kind, bounded(c.a, limits::name), bounded(c.b, limits::name),
                                 bounded(c.c, limits::name), c.limit, bounded(c.help, limits::text)});
    }
    return p;
}

} // namespace

std::string check_name(std::string_view what, std::string_view s)
{
    if (s.empty()) return "its " + std::string(what) + " is empty";
    return check_string(what, s, limits::name, printable_ascii, is_name, "a name (letters, digits and '_')");
}

std::string check_declaration(const plugin& p)
{
    // The strings first: what follows quotes the names.
    if (auto why = check_name("variant name", p.variant); !why.empty()) return why;
    if (auto why = check_text("summary", p.summary); !why.empty()) return why;
    if (auto why = check_text("seed", p.seed); !why.empty()) return why;
    if (p.kernels.size() > limits::kernels || p.tunables.size() > limits::tunables)
        return "declares " + std::to_string(p.kernels.size()) + " kernels and " + std::to_string(p.tunables.size()) +
               " tunables, more than the " + std::to_string(limits::kernels) + " and " +
               std::to_string(limits::tunables) + " a plugin may have";
    for (size_t i = 0; i < p.tunables.size(); ++i) {
        const tunable_decl& t = p.tunables[i];
        const std::string at = "tunables[" + std::to_string(i) + "]";
        if (auto why = check_name(at + ".name", t.name); !why.empty()) return why;
        if (auto why = check_text(at + ".help", t.help); !why.empty()) return why;
    }
    for (size_t i = 0; i < p.kernels.size(); ++i) {
        const kernel_decl& k = p.kernels[i];
        const std::string at = "kernels[" + std::to_string(i) + "]";
        if (k.name.empty()) return "its " + at + ".name is empty";
        if (auto why = check_string(at + ".name", k.name, limits::kernel_name, printable_ascii, kernel_name,
                                    "a C++ name (an identifier, with template arguments if any)");
            !why.empty())
            return why;
        for (const auto& [field, name] :
             {std::pair{".block_size_param", &k.block_size_param}, std::pair{".when_param", &k.when_param}})
            if (!name->empty())
                if (auto why = check_name(at + field, *name); !why.empty()) return why;
    }

    // Then what the numbers and references say.
    std::set<std::string_view> tunables;
    for (const tunable_decl& t : p.tunables) {
        const std::string its = "its tunable '" + t.name + "'";
        if (!tunables.insert(t.name).second) return "declares tunable '" + t.name + "' twice";
        if (t.allowed.size() > limits::allowed)
            return its + " lists " + std::to_string(t.allowed.size()) + " allowed values, more than the " +
                   std::to_string(limits::allowed) + " a tunable may have";
        if (t.allowed.empty() && t.min > t.max)
            return its + " has min " + std::to_string(t.min) + " greater than max " + std::to_string(t.max);
        if (const std::string why = check_tunable(t, t.default_value); !why.empty())
            return its + " defaults to " + std::to_string(t.default_value) + ", which it does not allow (it " +
                   shorten(why, 200) + ")";
    }
    for (const kernel_decl& k : p.kernels) {
        const std::string its = "its kernel '" + k.name + "'";
        if (!k.block_size_param.empty() && !tunables.count(k.block_size_param))
            return its + " takes its block size from tunable '" + k.block_size_param + "', which it does not declare";
        if (k.block_size_param.empty() && k.fixed_block_size <= 0)
            return its + " has neither a block size tunable nor a fixed block size (fixed_block_size " +
                   std::to_string(k.fixed_block_size) + ")";
        if (k.lds_bytes_per_thread < 0)
            return its + " declares " + std::to_string(k.lds_bytes_per_thread) +
                   " bytes of shared memory per work-item (lds_bytes_per_thread)";
        if (!k.when_param.empty() && !tunables.count(k.when_param))
            return its + " runs only where tunable '" + k.when_param + "' is " + std::to_string(k.when_value) +
                   ", which it does not declare";
    }
    return check_constraints(p);
}

void plugin_registry::add_declared(plugin p)
{
    if (std::string why = check_declaration(p); !why.empty()) return reject(p.path, std::move(why));
    for (const auto& q : plugins_)
        if (q.fam == p.fam && q.variant == p.variant)
            return reject(p.path, "is a second " + q.name() + " (already loaded from " + q.path.string() + ")");
    p.code_digest.clear();
    p.device_code_digest.clear();
    if (code_digests_) try { // once per file; one that cannot be read again is compared by its times
            code_digests d = code_digests_of(p.path);
            p.code_digest = std::move(d.code);
            p.device_code_digest = std::move(d.device);
        } catch (const std::exception&) {
        }
    plugins_.push_back(std::move(p));
    std::sort(plugins_.begin(), plugins_.end(), [](const plugin& a, const plugin& b) { return a.name() < b.name(); });
}

void plugin_registry::add_file(const fs::path& file)
{
    std::error_code fec;
    if (!fs::exists(file, fec)) return reject(file, "does not exist");
    // What its bytes tell, before dlopen runs anything of it.
    if (std::string why = check_plugin_file(file); !why.empty()) return reject(file, std::move(why));
    boost::dll::fs::error_code ec;
    auto lib = std::make_shared<boost::dll::shared_library>(
        file, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
    if (ec) {
        // dlerror() names what it failed on: the plugin (as Boost.DLL passed it to dlopen), or a
        // library it needs, which a garbled file may name wrongly. It may quote what the file
        // holds (a symbol's name): shown bounded.
        const char* error = dlerror();
        std::string why = error ? error : ec.message();
        const std::string self = (file.has_parent_path() ? file : "." / file).string() + ": ";
        const bool itself = !error || why.starts_with(self);
        if (itself && error) why.erase(0, self.size());
        return reject(file, std::string("cannot be loaded: ") + (itself ? "" : "a library it needs fails: ") +
                                shown(why, limits::reason));
    }
    if (!lib->has(WB_PLUGIN_ENTRY))
        return reject(file, "has no '" WB_PLUGIN_ENTRY "' entry point: not a wavebench plugin (see WB_PLUGIN in "
                            "core/include/wavebench/plugin.h)");
    const wb_plugin* d = lib->get<const wb_plugin*(uint32_t)>(WB_PLUGIN_ENTRY)(WB_PLUGIN_ABI_VERSION);
    if (!d)
        return reject(file, "declined plugin ABI version " + std::to_string(WB_PLUGIN_ABI_VERSION) +
                                ": it was built against another wavebench; rebuild it with this one's "
                                "core/include/wavebench");
    // A descriptor of SDK 2.0 ends where 2.1's additions begin (WB_PLUGIN_HAS tells which it has).
    if (d->abi_version != WB_PLUGIN_ABI_VERSION || d->size < offsetof(wb_plugin, sdk_version))
        return reject(file, "describes itself with plugin ABI version " + std::to_string(d->abi_version) +
                                "; this wavebench speaks version " + std::to_string(WB_PLUGIN_ABI_VERSION) +
                                ": rebuild it");
    if (!d->family || !d->variant || !d->platform || !d->run)
        return reject(file, "has an incomplete descriptor (family, variant, platform and run are required)");
    // The family and platform are quoted below: names first.
    const std::string platform = bounded(d->platform, limits::name), family_name = bounded(d->family, limits::name);
    if (std::string why = check_name("platform name", platform); !why.empty()) return reject(file, std::move(why));
    if (std::string why = check_name("family name", family_name); !why.empty()) return reject(file, std::move(why));
    const auto built_for = parse_platform(platform);
    if (!built_for)
        return reject(file, "was built for platform '" + platform + "', which this wavebench does not know");
    if (*built_for != platform_)
        return reject(file, "was built for platform '" + platform + "', not '" + to_string(platform_) +
                                "' (run it with --platform " + platform + ")");
    const family* fam = find_family(family_name);
    if (!fam) return reject(file, "implements family '" + family_name + "', which this wavebench does not know");
    if (std::string why = check_tables(*d); !why.empty()) return reject(file, std::move(why));
    plugin p = declared(*d, fam, file);
    p.library = std::move(lib);
    p.desc = d;
    add_declared(std::move(p));
}

std::vector<const plugin*> plugin_registry::match(std::string_view family, const std::string& glob) const
{
    std::vector<const plugin*> r;
    for (const auto& p : plugins_)
        if (p.fam->name == family && fnmatch(glob.c_str(), p.variant.c_str(), 0) == 0) r.push_back(&p);
    return r;
}

std::vector<fs::path> plugin_directories(const std::string& platform, const std::vector<std::string>& extra)
{
    std::vector<fs::path> dirs;
    for (const auto& e : extra) dirs.emplace_back(e);
    if (const char* env = std::getenv("WAVEBENCH_PLUGIN_PATH")) {
        std::string s = env;
        for (size_t start = 0; start <= s.size();) {
            size_t end = s.find(':', start);
            if (end == std::string::npos) end = s.size();
            if (end > start) dirs.emplace_back(s.substr(start, end - start));
            start = end + 1;
        }
    }
    dirs.push_back(platform::build_dir() / "plugins" / platform);
    return dirs;
}

std::string unbuilt_platform_hint(const std::string& platform)
{
    const fs::path dir = platform::build_dir() / "plugins" / platform;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".so") return "";
    if (*toolchain_of(platform))
        return "this build has the " + platform + " platform but not its plugins (" + dir.string() +
               " holds none): build them with `make all`, `make run PLATFORMS=" + platform +
               "`, or `cmake --build build --target wavebench-" + platform + "` in the source tree";
    return "this wavebench was configured without the " + platform +
           " platform (its compiler was not found): `cmake --build build --target wavebench-" + platform +
           "` says why; install the compiler (docs/platforms.md), then `make all`";
}

nlohmann::json rejections_json(const std::vector<rejection>& rejected)
{
    nlohmann::json j = nlohmann::json::array();
    for (const auto& x : rejected) j.push_back({{"path", x.path.string()}, {"reason", x.reason}});
    return j;
}

} // namespace wb
