#include "harness/plugins.h"

#include "harness/platform.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <fnmatch.h>
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

std::string text(const char* s) { return s ? s : ""; }

/// What the descriptor declares, copied out of the library.
plugin declared(const wb_plugin& d, const family* fam, const fs::path& file)
{
    plugin p;
    p.fam = fam;
    p.variant = d.variant;
    p.summary = text(d.summary);
    p.seed = text(d.seed);
    p.path = file;
    for (uint32_t i = 0; i < d.n_kernels; ++i) {
        const wb_kernel& k = d.kernels[i];
        p.kernels.push_back({text(k.name), text(k.block_size_param), k.fixed_block_size, k.lds_bytes_per_thread,
                             text(k.when_param), k.when_value});
    }
    for (uint32_t i = 0; i < d.n_tunables; ++i) {
        const wb_tunable& t = d.tunables[i];
        p.tunables.push_back({text(t.name), text(t.help), t.default_value, t.min, t.max, t.power_of_two != 0,
                              std::vector<int64_t>(t.allowed, t.allowed + (t.allowed ? t.n_allowed : 0))});
    }
    return p;
}

} // namespace

void plugin_registry::add_declared(plugin p)
{
    for (const auto& q : plugins_)
        if (q.fam == p.fam && q.variant == p.variant)
            return reject(p.path, "is a second " + q.name() + " (already loaded from " + q.path.string() + ")");
    plugins_.push_back(std::move(p));
    std::sort(plugins_.begin(), plugins_.end(), [](const plugin& a, const plugin& b) { return a.name() < b.name(); });
}

void plugin_registry::add_file(const fs::path& file)
{
    std::error_code fec;
    if (!fs::exists(file, fec)) return reject(file, "does not exist");
    boost::dll::fs::error_code ec;
    auto lib = std::make_shared<boost::dll::shared_library>(
        file, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
    if (ec) {
        const char* why = dlerror();
        return reject(file, std::string("cannot be loaded: ") + (why ? why : ec.message()));
    }
    if (!lib->has(WB_PLUGIN_ENTRY))
        return reject(file, "has no '" WB_PLUGIN_ENTRY "' entry point: not a wavebench plugin (see WB_PLUGIN in "
                            "core/include/wavebench/plugin.h)");
    const wb_plugin* d = lib->get<const wb_plugin*(uint32_t)>(WB_PLUGIN_ENTRY)(WB_PLUGIN_ABI_VERSION);
    if (!d)
        return reject(file, "declined plugin ABI version " + std::to_string(WB_PLUGIN_ABI_VERSION) +
                                ": it was built against another wavebench; rebuild it with this one's "
                                "core/include/wavebench");
    if (d->abi_version != WB_PLUGIN_ABI_VERSION || d->size < sizeof(wb_plugin))
        return reject(file, "describes itself with plugin ABI version " + std::to_string(d->abi_version) +
                                "; this wavebench speaks version " + std::to_string(WB_PLUGIN_ABI_VERSION) +
                                ": rebuild it");
    if (!d->family || !d->variant || !d->platform || !d->run)
        return reject(file, "has an incomplete descriptor (family, variant, platform and run are required)");
    if (parse_platform(d->platform) != platform_)
        return reject(file, std::string("was built for platform '") + d->platform + "', not '" + to_string(platform_) +
                                "' (run it with --platform " + d->platform + ")");
    const family* fam = find_family(d->family);
    if (!fam) return reject(file, std::string("implements family '") + d->family + "', which this wavebench does not know");
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
    std::vector<fs::path> dirs{platform::build_dir() / "plugins" / platform};
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
    return dirs;
}

} // namespace wb
