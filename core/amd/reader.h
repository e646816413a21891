// What the parts of the AMD code-object reader share (code_object.cpp says how they fit together):
// the input's span and the errors found in it, small checks of bytes, and each part's entry points.
#pragma once

#include "core/amd/targets.h"

#include <amd_comgr.h>
#include <gelf.h>
#include <libelf.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace wb::amd_inspect {

using json = nlohmann::json;
namespace gpu = wb::amdgpu;

constexpr unsigned char elf_magic[] = {0x7f, 'E', 'L', 'F'};
constexpr uint16_t em_amdgpu = 224;
constexpr size_t max_name = 4096;         // a kernel's name, or its symbol's
constexpr int64_t max_figure = INT32_MAX; // what the harness's figures hold

/// A problem with one part of the input: what is wrong, and the field it is in ("e_flags",
/// ".vgpr_count", "entry count"), which the error names.
struct bad_input : std::runtime_error {
    bad_input(std::string field_, const std::string& why) : std::runtime_error(why), field(std::move(field_)) {}
    std::string field;
};

struct span {
    const char* data;
    size_t size;
};

/// What the reader found: the code objects it read, and an error for each part it could not.
struct findings {
    json code_objects = json::array();
    json errors = json::array();
    /// `entry`: the bundle entry's ID, or null for the bundle or file as a whole.
    void error(const json& entry, const std::string& field, const std::string& reason)
    {
        errors.push_back({{"entry", entry}, {"field", field}, {"reason", reason}});
    }
};

inline std::string hex(uint64_t v)
{
    char s[24];
    std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(v));
    return s;
}

/// Whether `s` is 1 to `max` bytes of printable ASCII: what a name from the file must be before it
/// is used or printed.
inline bool printable(std::string_view s, size_t max)
{
    return !s.empty() && s.size() <= max &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

/// libelf's reading of `s` in place, ended at scope exit (an exception included); null when
/// libelf cannot read it.
using elf_ptr = std::unique_ptr<Elf, int (*)(Elf*)>;
inline elf_ptr open_elf(span s)
{
    elf_version(EV_CURRENT);
    return {elf_memory(const_cast<char*>(s.data), s.size), elf_end};
}

inline uint64_t u64(const char* p)
{
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

inline uint32_t u32(const char* p)
{
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

/// Whether `size` bytes from `offset` lie within `n` (compared without adding, so nothing wraps).
inline bool within(uint64_t offset, uint64_t size, uint64_t n) { return offset <= n && size <= n - offset; }

// ---- comgr and the metadata (metadata.cpp) --------------------------------------------------------
/// A code object handed to comgr (its bytes are not copied); check() turns comgr's failures into
/// bad_input on "metadata".
class comgr_data {
public:
    explicit comgr_data(span s)
    {
        check(amd_comgr_create_data(AMD_COMGR_DATA_KIND_EXECUTABLE, &d_), "create data");
        check(amd_comgr_set_data(d_, s.size, s.data), "set data");
    }
    ~comgr_data() { amd_comgr_release_data(d_); }
    comgr_data(const comgr_data&) = delete;
    comgr_data& operator=(const comgr_data&) = delete;
    amd_comgr_data_t get() const { return d_; }

    static void check(amd_comgr_status_t st, const char* what)
    {
        if (st == AMD_COMGR_STATUS_SUCCESS) return;
        const char* text = "?";
        amd_comgr_status_string(st, &text);
        throw bad_input("metadata", std::string("comgr cannot read its code object (") + what + "): " + text);
    }

private:
    amd_comgr_data_t d_{};
};

/// A metadata node, destroyed at scope exit.
struct node {
    amd_comgr_metadata_node_t n{};
    bool owned = false;
    node() = default;
    node(const node&) = delete;
    ~node()
    {
        if (owned) amd_comgr_destroy_metadata(n);
    }
};

/// The kind of node `key` holds in a metadata map, with the node in `v`; nothing when the map
/// lacks it.
std::optional<amd_comgr_metadata_kind_t> lookup(amd_comgr_metadata_node_t map, const char* key, node& v);

/// Checks the metadata notes in `notes` (a note segment or section), read as LLVM reads them: a
/// 12-byte header (name size, descriptor size, type), the name and the descriptor, each padded to
/// 4 bytes, up to the first that runs past the end.
void check_notes(span notes);

/// One kernel's figures from the metadata.
struct kernel {
    std::string name, symbol;
    int64_t vgprs, sgprs, lds, scratch, vgpr_spills, sgpr_spills, warp_size, max_workgroup, kernarg_size;
    std::optional<int64_t> agprs; // LLVM gives none for targets without AGPRs
    std::optional<bool> wgp_mode; // gfx10+: its descriptor's WGP_MODE (check_descriptors reads it)
};

/// The kernels in the metadata of the code object `data` holds, each field checked.
std::vector<kernel> read_kernels(const comgr_data& data);

// ---- kernel descriptors (descriptor.cpp) ----------------------------------------------------------
/// Throws unless each kernel has its descriptor in `co` and each descriptor its kernel, and each
/// kernel's metadata agrees with its descriptor on processor `p`; sets each kernel's `wgp_mode`.
void check_descriptors(span co, std::vector<kernel>& kernels, const gpu::processor& p);

// ---- disassembly (disassembly.cpp) ----------------------------------------------------------------
/// Adds each kernel's "instructions" to `out` (the kernels' JSON, in the order of `kernels`): by
/// comgr for the ISA it named (`isa`, "" when it named none), else by llvm-objdump for `target`.
/// Where neither has them, "instructions" is null and "instructions_missing" says why.
void add_instructions(json& out, span co, const std::vector<kernel>& kernels, const std::string& isa,
                      const std::string& target);

// ---- compressed offload bundles (compressed.cpp) --------------------------------------------------
struct decompressed {
    std::string bytes; // the offload bundle
    size_t taken;      // the bytes of the input the compressed bundle took, its header included
};
/// The compressed offload bundle ("CCOB": clang --offload-compress, format versions 1 to 3, zlib or
/// zstd) at the start of `s`, decompressed. Throws bad_input on "bundle" saying what is wrong, as a
/// predicate of it ("is cut short in its header"). Its hash is not checked: the bundle it gives is
/// checked as any other.
decompressed decompress_bundle(span s);

// ---- the code object (code_object.cpp) ------------------------------------------------------------
/// Reads the code object `co` into `out`, or an error for it naming `entry` (null: a bare code
/// object); `label` is its bundle entry's target ID, or "" for a bare code object.
void read_one(span co, const json& entry, const std::string& label, bool with_instructions, findings& out);

} // namespace wb::amd_inspect
