// The AMD code-object reader (libwavebench_amd_inspect.so), loaded by the harness on demand.
#pragma once

#include <cstddef>

#define WB_AMD_INSPECT_ENTRY "wavebench_amd_inspect_bytes"
#define WB_AMD_FREE_ENTRY "wavebench_amd_free"

extern "C" {
/// Reads every AMDGPU code object in the `size` bytes at `data`: a host shared object with clang
/// offload bundles in .hip_fatbin, a bundle file, or a bare code object (the caller reads the file:
/// harness/common/files.h). Each kernel with "instructions" (its disassembly, one instruction per
/// string, and "disassembler": "libamd_comgr" or the llvm-objdump used, with its LLVM version; or
/// null and "instructions_missing": why) when `with_instructions`. Returns JSON, to be
/// freed with wavebench_amd_free:
///   {"code_objects": [{"target": "gfx90a", "isa": ..., "bundle_entry": ...,
///     "code_object_version": 2 to 6, "generic_version": (a generic target's, else null),
///     "kernels": [{"name", "symbol", "vgpr_count", "agpr_count", "sgpr_count",
///                  "group_segment_fixed_size", "private_segment_fixed_size", "vgpr_spill_count",
///                  "sgpr_spill_count", "wavefront_size", "max_flat_workgroup_size",
///                  "kernarg_segment_size", "wgp_mode" (gfx10+: the descriptor's WGP_MODE, else
///                  null)}]}],
///    "errors": [{"entry": "hipv4-amdgcn-amd-amdhsa--gfx90a", "field": "e_flags", "reason": ...}]}
/// Every figure is a whole number checked against the code object (its kernel descriptor where
/// one records it); "agpr_count" alone is null, for targets without AGPRs; names are printable
/// ASCII. A bundle entry, or a bundle, that fails a check is left out of "code_objects" and gets
/// an error instead: "entry" is its ID as the file has it (null for a bundle, its padding, or a
/// bare code object), "field" what is wrong (a metadata key such as ".vgpr_count", or "e_flags",
/// "entry count", "offset", ...). The other entries are still read. Where the bytes are none of
/// the three forms, or where the device code is cannot be told, returns null and sets *error to
/// the reason (free it too).
char* wavebench_amd_inspect_bytes(const char* data, size_t size, int with_instructions, char** error);
void wavebench_amd_free(char* p);
}
