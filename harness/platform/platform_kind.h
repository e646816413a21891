// The platforms (fixed names: cpu, amd, nvidia): the one place their names are spelled and read.
// The names are what the command line, the plugin folders, plugin descriptors and the results
// JSON use; inside the harness a platform is a platform_kind.
#pragma once

#include "harness/common/files.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace wb {

/// The HIP runtime plugins are compiled against and the harness runs on.
enum class platform_kind { cpu, amd, nvidia };

/// Every platform, best first (the order `--platform auto` prefers them in).
inline constexpr std::array<platform_kind, 3> platform_kinds{platform_kind::nvidia, platform_kind::amd,
                                                             platform_kind::cpu};

/// "cpu", "amd", "nvidia".
constexpr const char* to_string(platform_kind k)
{
    switch (k) {
    case platform_kind::cpu:
        return "cpu";
    case platform_kind::amd:
        return "amd";
    case platform_kind::nvidia:
        return "nvidia";
    }
    return "?";
}

/// The platform of that name, or none.
inline std::optional<platform_kind> parse_platform(std::string_view name)
{
    for (platform_kind k : platform_kinds)
        if (name == to_string(k)) return k;
    return std::nullopt;
}

/// "unknown platform 'metal': choose cpu, amd or nvidia"
inline std::string unknown_platform(std::string_view name)
{
    return "unknown platform '" + shorten(name) + "': choose cpu, amd or nvidia";
}

} // namespace wb
