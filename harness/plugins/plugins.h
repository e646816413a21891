// The plugins of one platform: found in directories, loaded with Boost.DLL, checked, and kept
// loaded for as long as anything from them is in use. Plugins that cannot be used are listed
// with their path and the reason; the others load.
#pragma once

#include "core/family.h"
#include "harness/common/files.h"
#include "harness/platform/platform_kind.h"
#include "wavebench/plugin_abi.h"

#ifndef BOOST_DLL_USE_STD_FS
#define BOOST_DLL_USE_STD_FS // Boost.DLL on std::filesystem (also set by CMake)
#endif
#include <boost/dll/shared_library.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// A kernel as its plugin declares it (wb_kernel without the function).
struct kernel_decl {
    std::string name;
    std::string block_size_param; // the tunable that sets its block size, or "" for fixed_block_size
    int fixed_block_size = 0;
    int lds_bytes_per_thread = 0;
    std::string when_param; // runs only where this tunable is when_value; "" always
    int64_t when_value = 0;
};

/// A tunable as its plugin declares it (wb_tunable).
struct tunable_decl {
    std::string name, help;
    int64_t default_value = 0, min = 0, max = 0;
    bool power_of_two = false;
    std::vector<int64_t> allowed; // when not empty, the only values allowed
};

/// A constraint between tunables as its plugin declares it (wb_constraint): `kind` a
/// wb_constraint_kind; `c` "" where the product has two factors.
struct constraint_decl {
    int32_t kind = WB_REQUIRE_PRODUCT_AT_MOST;
    std::string a, b, c;
    int64_t limit = 0;
    std::string help;
};

/// A plugin: what it declares, which is all the harness knows of it (a worker process loads it
/// and sends this back), and, where its code is loaded (in a worker, or with --in-process), the
/// library and its descriptor.
struct plugin {
    const family* fam = nullptr;
    std::string variant, summary, seed;
    std::vector<kernel_decl> kernels;
    std::vector<tunable_decl> tunables;
    std::vector<constraint_decl> constraints; // SDK 2.2; none before
    std::filesystem::path path;
    uint32_t sdk_version = 0; // WAVEBENCH_SDK_VERSION of its build (200: SDK 2.0, which did not say)
    // Its file's code (plugins/code_digest.h), digested by the registry that holds it: the same
    // code in two builds has the same digest. "" where not digested (a worker's registry, a file
    // that could not be read again); device_code_digest "" too where it has no device code.
    std::string code_digest, device_code_digest;

    std::shared_ptr<boost::dll::shared_library> library; // keeps `desc` and its functions alive
    const wb_plugin* desc = nullptr;                     // null where the code is not loaded

    std::string name() const { return fam->name + "/" + variant; }
    const tunable_decl* tunable(std::string_view name) const;
};

struct rejection {
    std::filesystem::path path;
    std::string reason;
};

/// The refused plugin files as JSON ([{path, reason}]): what `list --json`, the worker and the results say.
nlohmann::json rejections_json(const std::vector<rejection>& rejected);

/// What a descriptor may declare (check_declaration): longer strings, or more entries, are taken
/// for a garbled descriptor rather than shown or used.
namespace declaration_limits {
inline constexpr size_t name = max_name;   // variant, family, platform and tunable names
inline constexpr size_t kernel_name = 256; // a kernel's C++ name, template arguments and all
inline constexpr size_t text = 1024;       // summary, seed, a tunable's help
inline constexpr size_t reason = 2048;     // a rejection's reason as a worker or dlerror() gives it
inline constexpr uint32_t kernels = 256, tunables = 256, allowed = 4096, constraints = 256;
} // namespace declaration_limits

/// "" when `s` is a name: 1 to declaration_limits::name letters, digits and '_' (what existing
/// plugins use). Else why not, `what` naming the field ("variant name") and `s` quoted.
std::string check_name(std::string_view what, std::string_view s);

/// "" when what `p` declares may be shown and used: printable strings within the limits, names
/// that are names, kernels whose tunables it declares, tunables whose defaults they allow. Else
/// why not, naming the field: "its variant name is not printable: 'ab\x07c'". The one check of a
/// declaration, read from a descriptor here or received from a worker (add_declared).
std::string check_declaration(const plugin& p);

/// "" when `p`'s constraints may be used: kinds this wavebench knows, naming tunables `p`
/// declares, its defaults allowed. Else why not ("its constraints[0] names tunable 'tile', which
/// it does not declare"). Part of check_declaration.
std::string check_constraints(const plugin& p);

/// "" when tunable values `tunables` (those missing: their defaults) break none of `p`'s
/// constraints; else the first one they break, with the values and the constraint's help:
/// "items × block_size = 8192 is over 4096". The harness's own evaluation: no plugin code runs.
std::string violated_constraint(const plugin& p, const param_map& tunables);

/// A constraint as `wavebench list` shows it: "items × block_size ≤ 4096", "tile divides block_size".
std::string describe_constraint(const constraint_decl& c);

/// Checks a tunable value; returns "" when allowed, else why not ("must be a power of two ...").
std::string check_tunable(const tunable_decl& t, int64_t v);
/// "32..1024, powers of two" / "1, 2, 4" / "0..67108864".
std::string describe_allowed(const tunable_decl& t);

class plugin_registry {
public:
    /// `code_digests`: each plugin added gets its file's digests (plugin::code_digest). A worker's
    /// registry does without: the harness digests the files itself, not taking the word of a
    /// process that ran the plugins' code.
    explicit plugin_registry(platform_kind platform, bool code_digests = true)
        : platform_(platform), code_digests_(code_digests)
    {
    }
    /// By name ("cpu"); throws std::invalid_argument for a name that is no platform.
    explicit plugin_registry(std::string_view platform);

    /// Loads every *.so in `dir` (and in dir/<platform>/ when that exists), sorted by name.
    void add_directory(const std::filesystem::path& dir);
    /// Loads one plugin file (runs its code: only in a worker, or with --in-process), once its
    /// bytes pass check_plugin_file (harness/plugins/plugin_file.h).
    void add_file(const std::filesystem::path& file);
    /// Adds a plugin another process loaded (its declarations only), or a rejection: one that
    /// fails check_declaration, or a second of the same name. Digests its file (code_digests).
    void add_declared(plugin p);
    void reject(const std::filesystem::path& p, std::string why) { rejections_.push_back({p, std::move(why)}); }

    const std::vector<plugin>& plugins() const { return plugins_; }
    const std::vector<rejection>& rejections() const { return rejections_; }
    platform_kind platform() const { return platform_; }

    /// The plugins of `family` whose variant name matches the glob (fnmatch), in name order.
    std::vector<const plugin*> match(std::string_view family, const std::string& glob) const;
    std::vector<const plugin*> of_family(std::string_view family) const { return match(family, "*"); }

private:
    platform_kind platform_;
    bool code_digests_ = true;
    std::vector<plugin> plugins_;
    std::vector<rejection> rejections_;
};

/// The plugin files of `dir` (and of dir/<platform>/), sorted; a directory that is not one is
/// a rejection in `reg`.
std::vector<std::filesystem::path> plugin_files(const std::filesystem::path& dir, plugin_registry& reg);

/// The directories plugins are searched in: each --plugins DIR, then each entry of
/// WAVEBENCH_PLUGIN_PATH (colon-separated), then the build's plugins/<platform>. The first plugin
/// of a name is the one used: a build of a variant named this way replaces the shipped one (which
/// is then listed as a second one of that name).
std::vector<std::filesystem::path> plugin_directories(const std::string& platform,
                                                      const std::vector<std::string>& extra);

/// Where the build's own plugins/<platform> holds no plugin: what to do to get them (this build has
/// the platform but has not built its plugins yet, or was configured without it, and why not); ""
/// where it holds some.
std::string unbuilt_platform_hint(const std::string& platform);

} // namespace wb
