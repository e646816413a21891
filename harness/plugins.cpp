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

const wb_tunable* plugin::tunable(std::string_view name) const
{
    for (uint32_t i = 0; i < desc->n_tunables; ++i)
        if (name == desc->tunables[i].name) return &desc->tunables[i];
    return nullptr;
}

std::string describe_allowed(const wb_tunable& t)
{
    std::ostringstream s;
    if (t.n_allowed > 0) {
        for (uint32_t i = 0; i < t.n_allowed; ++i) s << (i ? ", " : "") << t.allowed[i];
        return s.str();
    }
    s << t.min << ".." << t.max;
    if (t.power_of_two) s << ", powers of two";
    return s.str();
}

std::string check_tunable(const wb_tunable& t, int64_t v)
{
    bool ok;
    if (t.n_allowed > 0)
        ok = std::find(t.allowed, t.allowed + t.n_allowed, v) != t.allowed + t.n_allowed;
    else
        ok = v >= t.min && v <= t.max && (!t.power_of_two || (v > 0 && (v & (v - 1)) == 0));
    return ok ? "" : "must be " + describe_allowed(t);
}

void plugin_registry::add_directory(const fs::path& dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        reject(dir, "is not a directory");
        return;
    }
    std::vector<fs::path> files;
    for (const fs::path& d : {dir, dir / to_string(platform_)}) {
        if (!fs::is_directory(d, ec)) continue;
        for (const auto& e : fs::directory_iterator(d, ec))
            if (e.is_regular_file(ec) && e.path().extension() == ".so") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) add_file(f);
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
    for (const auto& p : plugins_)
        if (std::string_view(p.desc->family) == d->family && p.variant() == d->variant)
            return reject(file, "is a second " + p.name() + " (already loaded from " + p.path.string() + ")");
    plugins_.push_back({std::move(lib), d, fam, file});
    std::sort(plugins_.begin(), plugins_.end(), [](const plugin& a, const plugin& b) { return a.name() < b.name(); });
}

std::vector<const plugin*> plugin_registry::match(std::string_view family, const std::string& glob) const
{
    std::vector<const plugin*> r;
    for (const auto& p : plugins_)
        if (p.desc->family == family && fnmatch(glob.c_str(), p.desc->variant, 0) == 0) r.push_back(&p);
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
