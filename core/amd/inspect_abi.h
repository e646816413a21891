// The AMD code-object reader (libwavebench_amd_inspect.so), loaded by the harness on demand.
#pragma once

#include <cstddef>

#define WB_AMD_INSPECT_ENTRY "wavebench_amd_inspect"
#define WB_AMD_INSPECT_ISA_ENTRY "wavebench_amd_inspect_isa"
#define WB_AMD_FREE_ENTRY "wavebench_amd_free"

extern "C" {
/// Reads every AMDGPU code object in the file at `path` (a host shared object with clang offload
/// bundles in .hip_fatbin, a bundle file, or a bare code object). Returns JSON, to be freed with
/// wavebench_amd_free:
///   {"file": ..., "code_objects": [{"target": "gfx90a", "isa": ..., "bundle_entry": ...,
///     "kernels": [{"name", "symbol", "vgpr_count", "agpr_count", "sgpr_count",
///                  "group_segment_fixed_size", "private_segment_fixed_size", "vgpr_spill_count",
///                  "sgpr_spill_count", "wavefront_size", "max_flat_workgroup_size", ...}]}]}
/// (fields the metadata lacks are null). On failure returns null and sets *error (free it too).
char* wavebench_amd_inspect(const char* path, char** error);
/// The same, each kernel with "instructions": its disassembly, one instruction per string.
char* wavebench_amd_inspect_isa(const char* path, char** error);
/// The same for `size` bytes at `data` (what the two above read from the file): "file" is null.
char* wavebench_amd_inspect_bytes(const char* data, size_t size, int with_instructions, char** error);
void wavebench_amd_free(char* p);
}
