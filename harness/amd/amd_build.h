// What an AMD plugin file was built for: the targets its code objects are for, and the targets the
// build left out with the compiler's reason (the `<file>.omitted` sidecar that cmake/ writes beside
// a plugin when a target failed to compile: one line per target, "<target>\t<reason>"). Backs
// `list --platform amd` and the skip of a run on a GPU no code object was built for.
#pragma once

#include "harness/plan/plan.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

struct amd_left_out {
    std::string target, reason; // both shown bounded and printable
};

struct amd_build_info {
    std::vector<std::string> targets;   // the code objects' target IDs, sorted, each once
    std::vector<amd_left_out> left_out; // from the sidecar
    std::string problem;                // why the code objects could not be read, or ""
};

/// The sidecar's entries (none when there is no sidecar). A line that is not "<target>\t<reason>"
/// with a target of letters, digits and '-', ':', '+', '_' (at most 64) is skipped.
std::vector<amd_left_out> read_left_out(const std::filesystem::path& plugin_file);

/// The targets of `plugin_file`'s code objects and its left-out targets; a file that cannot be
/// read says why in `problem` rather than throwing.
amd_build_info amd_build_of(const std::filesystem::path& plugin_file);

/// Whether a code object for `target` ("gfx90a", "gfx90a:xnack-", "gfx11-generic") loads on a
/// device whose HIP arch name is `device` ("gfx90a:sramecc+:xnack-"): the same processor, or a
/// generic target covering it, and every feature the code object fixes set alike on the device.
bool amd_target_loads_on(std::string_view target, std::string_view device);

/// Why a configuration of a plugin built as `b` cannot run on `device`, or "" when one of its
/// code objects loads there: the device's target, the targets built, the compiler's reason where
/// the build left the target out, and how to add it.
std::string amd_unbuilt_reason(const amd_build_info& b, std::string_view device);

/// Marks every configuration whose plugin has no code object for `device` as skipped with the
/// reason (each plugin file read once). Returns the number marked.
size_t skip_unbuilt_targets(std::vector<config>& plan, std::string_view device);

} // namespace wb
