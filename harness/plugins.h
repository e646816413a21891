// The plugins of one platform: found in directories, loaded with Boost.DLL, checked, and kept
// loaded for as long as anything from them is in use. Plugins that cannot be used are listed
// with their path and the reason; the others load.
#pragma once

#include "core/family.h"
#include "harness/platform_kind.h"
#include "wavebench/plugin_abi.h"

#ifndef BOOST_DLL_USE_STD_FS
#define BOOST_DLL_USE_STD_FS // Boost.DLL on std::filesystem (also set by CMake)
#endif
#include <boost/dll/shared_library.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

struct plugin {
    std::shared_ptr<boost::dll::shared_library> library; // keeps `desc` and its functions alive
    const wb_plugin* desc = nullptr;
    const family* fam = nullptr;
    std::filesystem::path path;

    std::string name() const { return std::string(desc->family) + "/" + desc->variant; }
    std::string_view variant() const { return desc->variant; }
    const wb_tunable* tunable(std::string_view name) const;
};

struct rejection {
    std::filesystem::path path;
    std::string reason;
};

/// Checks a tunable value; returns "" when allowed, else why not ("must be a power of two ...").
std::string check_tunable(const wb_tunable& t, int64_t v);
/// "32..1024, powers of two" / "1, 2, 4" / "0..67108864".
std::string describe_allowed(const wb_tunable& t);

class plugin_registry {
public:
    explicit plugin_registry(platform_kind platform) : platform_(platform) {}
    /// By name ("cpu"); throws std::invalid_argument for a name that is no platform.
    explicit plugin_registry(std::string_view platform);

    /// Loads every *.so in `dir` (and in dir/<platform>/ when that exists), sorted by name.
    void add_directory(const std::filesystem::path& dir);
    /// Loads one plugin file.
    void add_file(const std::filesystem::path& file);

    const std::vector<plugin>& plugins() const { return plugins_; }
    const std::vector<rejection>& rejections() const { return rejections_; }
    platform_kind platform() const { return platform_; }

    /// The plugins of `family` whose variant name matches the glob (fnmatch), in name order.
    std::vector<const plugin*> match(std::string_view family, const std::string& glob) const;
    std::vector<const plugin*> of_family(std::string_view family) const { return match(family, "*"); }

private:
    void reject(const std::filesystem::path& p, std::string why) { rejections_.push_back({p, std::move(why)}); }
    platform_kind platform_;
    std::vector<plugin> plugins_;
    std::vector<rejection> rejections_;
};

/// The directories plugins are searched in: the build's plugins/<platform>, then each --plugins
/// DIR, then each entry of WAVEBENCH_PLUGIN_PATH (colon-separated).
std::vector<std::filesystem::path> plugin_directories(const std::string& platform,
                                                      const std::vector<std::string>& extra);

} // namespace wb
