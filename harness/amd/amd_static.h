// AMD static figures: what the compiler decided for each kernel of a hipcc-built .so (registers,
// LDS, scratch, spills), read from its code objects without a GPU, and the occupancy they allow
// at the block size the kernel is launched with. Backs `wavebench inspect` and `run --amd-static`.
#pragma once

#include "core/occupancy.h"
#include "harness/plugins/launch.h"
#include "harness/plugins/plugins.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wb {

/// One kernel of one target's code object, as its metadata says.
struct amd_kernel_figures {
    std::string target; // "gfx90a", "gfx90a:xnack-"
    std::string symbol; // as in the code object ("_Z13reduce_atomicPKiPim")
    std::string name;   // the function's own name ("reduce_atomic")
    int vgprs = 0, agprs = 0, sgprs = 0, vgpr_spills = 0, sgpr_spills = 0;
    int warp_size = 64, max_workgroup = 1024;
    int64_t lds_bytes = 0, scratch_bytes = 0;
    std::optional<bool> wgp_mode;          // gfx10+: the descriptor's WGP_MODE (false: built with -mcumode)
    std::vector<std::string> instructions; // the disassembly, when read with it
    std::string instructions_missing;      // why there is none, when asked for
    std::string disassembler;              // what disassembled it: "libamd_comgr", an llvm-objdump
};

/// A part of a file that failed the reader's checks: the bundle entry (its ID as the file has it,
/// escaped; "" for a bundle or the file as a whole), the field ("e_flags", ".vgpr_count") and why.
struct amd_read_error {
    std::string entry, field, reason;
};
/// "bundle entry 'hipv4-amdgcn-amd-amdhsa--gfx1030', e_flags: <reason>".
std::string to_string(const amd_read_error& e);

/// What one file holds: the kernels of the code objects that passed every check, and an error for
/// each part that did not.
struct amd_file_figures {
    std::vector<amd_kernel_figures> kernels; // by target, name and symbol
    std::vector<amd_read_error> errors;
};

/// Reads every AMD code object in `file` (a hipcc-built .so, a bundle, a code object: read as
/// harness/common/files.h reads a binary input) through libwavebench_amd_inspect.so, with each kernel's
/// disassembly when `instructions`. Throws std::runtime_error with the reason when the file cannot
/// be read, or is none of those.
amd_file_figures read_amd_file(const std::filesystem::path& file, bool instructions = false);

/// The same, all or nothing: throws std::runtime_error naming the first error.
std::vector<amd_kernel_figures> read_amd_kernels(const std::filesystem::path& file, bool instructions = false);

/// "_ZN6reduce18reduce_tree_groupsEPKiPim" -> "reduce_tree_groups"; other symbols unchanged.
std::string kernel_base_name(const std::string& symbol);

/// A kernel's figures with the launch they are judged at.
struct amd_kernel_report {
    amd_kernel_figures k;
    int block_size = 0;
    std::string block_from; // "block_size=256 (default)", "max flat workgroup size", ...
    int64_t dynamic_lds_bytes = 0;
    std::optional<amd_occupancy_estimate> occupancy; // none for a target the table lacks
};

/// Judges `k` at a block size and dynamic LDS: the work-groups that stay resident per CU and the
/// waves per SIMD they give (core/occupancy's model, core/amd/targets.h's table; gfx10+ in the WGP or
/// CU mode its descriptor records, WGP mode where it records none).
amd_kernel_report judge(const amd_kernel_figures& k, int block_size, int64_t dynamic_lds, std::string from);

/// The launch of the kernel of that name (harness/plugins/launch.h: block size from a tunable
/// value in `tunables`, the tunable's default, or fixed; dynamic LDS). Null when the plugin does
/// not declare it.
std::optional<kernel_launch> launch_of(const plugin& d, const std::string& kernel, const param_map& tunables = {});

nlohmann::json to_json(const amd_kernel_report& r);

/// A plugin file's AMD build: the same file name in the platform folder "amd" beside it (or in
/// the build's plugins/amd/). Null when there is none.
std::optional<std::filesystem::path> amd_twin(const std::filesystem::path& plugin_file);

// ---- the resource baseline ------------------------------------------------------------------------

/// The figures a baseline keeps, per file, target and kernel symbol.
nlohmann::json baseline_json(const std::map<std::string, std::vector<amd_kernel_report>>& by_file);

struct baseline_change {
    std::string file, target, kernel, figure;
    long long was, now;
    bool worse;
};
/// Throws std::invalid_argument saying what is amiss unless `baseline` is as baseline_json writes
/// one: "kernels", each with the strings the comparison keys on and every figure a whole number.
void check_baseline(const nlohmann::json& baseline);

/// Differences from a baseline; kernels new or gone are changes that are worse (they need the
/// baseline refreshed on purpose). Throws as check_baseline.
std::vector<baseline_change> compare_baseline(const nlohmann::json& baseline, const nlohmann::json& now);

} // namespace wb
