// libwavebench_amd_inspect.so: the AMDGPU code objects a file holds, and their kernels' metadata.
//
// A hipcc-built shared object keeps its device code in the .hip_fatbin section as clang offload
// bundles (one code object per target); libelf finds the section, the bundle's index (a magic,
// the entry count, then offset, size and ID of each entry) says where each code object is, and
// libamd_comgr reads each code object's AMDGPU metadata note. The harness loads this module only
// when asked for AMD figures: libamd_comgr brings LLVM with it.
//
// Nothing read is trusted. Every offset, size and count is checked against the bytes; every name
// against its grammar before it is used; each code object's e_flags against its bundle entry's
// target; each kernel's metadata against its kernel descriptor (<symbol>.kd). A part that fails is
// an error naming the bundle entry and the field, and the other entries are still read. The
// harness reads the file (harness/common/files.h) and hands the bytes over; tests/fuzz fuzzes this entry.
#include "core/amd/inspect_abi.h"
#include "core/amd/targets.h"

#include <amd_comgr.h>
#include <gelf.h>
#include <libelf.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace {

using json = nlohmann::json;
namespace gpu = wb::amdgpu;

constexpr char bundle_magic[] = "__CLANG_OFFLOAD_BUNDLE__";
constexpr char compressed_magic[] = "CCOB"; // ROCm 6's --offload-compress
constexpr size_t magic_size = sizeof bundle_magic - 1;
constexpr size_t index_record = 24;         // an entry's offset, size and ID size, before its ID
constexpr unsigned char elf_magic[] = {0x7f, 'E', 'L', 'F'};
constexpr uint16_t em_amdgpu = 224;
constexpr uint64_t max_entry_id = 1024;     // bytes: longer is no entry clang writes
constexpr size_t max_name = 4096;           // a kernel's name, or its symbol's
constexpr int64_t max_figure = INT32_MAX;   // what the harness's figures hold

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

std::string hex(uint64_t v)
{
    char s[24];
    std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(v));
    return s;
}

/// Whether `s` is 1 to `max` bytes of printable ASCII: what a name from the file must be before it
/// is used or printed.
bool printable(std::string_view s, size_t max)
{
    return !s.empty() && s.size() <= max &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

/// libelf's reading of `s` in place, ended at scope exit (an exception included); null when
/// libelf cannot read it.
using elf_ptr = std::unique_ptr<Elf, int (*)(Elf*)>;
elf_ptr open_elf(span s)
{
    elf_version(EV_CURRENT);
    return {elf_memory(const_cast<char*>(s.data), s.size), elf_end};
}

uint64_t u64(const char* p)
{
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

uint32_t u32(const char* p)
{
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

/// Whether `size` bytes from `offset` lie within `n` (compared without adding, so nothing wraps).
bool within(uint64_t offset, uint64_t size, uint64_t n) { return offset <= n && size <= n - offset; }

// ---- comgr ----------------------------------------------------------------------------------------

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

/// A string node's text, whole (a NUL in it included: printable() then refuses it).
std::string text(amd_comgr_metadata_node_t n)
{
    size_t size = 0;
    comgr_data::check(amd_comgr_get_metadata_string(n, &size, nullptr), "metadata string size");
    std::string s(size, '\0');
    comgr_data::check(amd_comgr_get_metadata_string(n, &size, s.data()), "metadata string");
    s.resize(std::min(size, s.size()) - (size > 0)); // less the terminating NUL
    return s;
}

/// The kind of node `key` holds in a metadata map, with the node in `v`; nothing when the map
/// lacks it.
std::optional<amd_comgr_metadata_kind_t> lookup(amd_comgr_metadata_node_t map, const char* key, node& v)
{
    if (amd_comgr_metadata_lookup(map, key, &v.n) != AMD_COMGR_STATUS_SUCCESS) return std::nullopt;
    v.owned = true;
    amd_comgr_metadata_kind_t kind;
    comgr_data::check(amd_comgr_get_metadata_kind(v.n, &kind), "metadata kind");
    return kind;
}

/// One kernel's map in the metadata, read field by field; each error names the field and the kernel.
struct kernel_map {
    amd_comgr_metadata_node_t map;
    std::string kernel; // "kernel 2", then "kernel 2 (_Z4saxpyfPKfPfm)" once its name is known

    /// The value of `key`, or nothing when absent. Metadata values are scalars (comgr gives each
    /// as text).
    std::optional<std::string> value(const char* key) const
    {
        node v;
        const auto kind = lookup(map, key, v);
        if (!kind) return std::nullopt;
        if (*kind != AMD_COMGR_METADATA_KIND_STRING)
            throw bad_input(key, kernel + ": " + key + " is a list or a map, not a value");
        return text(v.n);
    }
    std::string required(const char* key) const
    {
        auto v = value(key);
        if (!v) throw bad_input(key, kernel + ": the metadata has no " + key);
        return *v;
    }
    /// A whole number from 0 to max_figure; nothing when absent and not `needed`.
    std::optional<int64_t> number(const char* key, bool needed = true) const
    {
        const auto v = needed ? std::optional(required(key)) : value(key);
        if (!v) return std::nullopt;
        const bool digits = !v->empty() && v->size() <= 10 &&
                            std::all_of(v->begin(), v->end(), [](char c) { return c >= '0' && c <= '9'; });
        const int64_t x = digits ? std::stoll(*v) : -1;
        if (x < 0 || x > max_figure)
            throw bad_input(key,
                            kernel + ": " + key + " is not a whole number from 0 to " + std::to_string(max_figure));
        return x;
    }
    /// A name: printable ASCII, at most `max` bytes.
    std::string name(const char* key, size_t max) const
    {
        std::string v = required(key);
        if (!printable(v, max))
            throw bad_input(key, kernel + ": " + key + " is not 1 to " + std::to_string(max) +
                                     " bytes of printable ASCII (" + std::to_string(v.size()) + " bytes)");
        return v;
    }
};

// ---- the metadata's msgpack and notes -------------------------------------------------------------

/// Throws unless `d` starts with a whole msgpack document whose map keys are all strings, each
/// once in its map, as the AMDGPU metadata's are: comgr's LLVM stops on a map keyed by maps or
/// arrays (llvm_unreachable), and of a key given twice it would take one value, unsaid.
void check_metadata(span d)
{
    struct level {
        uint64_t left;                     // the items to come (a map's keys and values)
        bool map;
        std::set<std::string_view> keys;   // a map's keys so far
    };
    std::vector<level> open;
    size_t at = 0;
    auto take = [&](uint64_t n) {
        if (n > d.size - at) throw bad_input("metadata", "its AMDGPU metadata (msgpack) is cut short");
        at += n;
        return d.data + at - n;
    };
    auto length = [&](int bytes) { // big-endian
        uint64_t n = 0;
        for (const char* p = take(bytes); bytes--; ++p) n = n << 8 | static_cast<unsigned char>(*p);
        return n;
    };
    do {
        const bool key = !open.empty() && open.back().map && open.back().left % 2 == 0;
        const unsigned char b = static_cast<unsigned char>(*take(1));
        uint64_t items = 0, bytes = 0;
        bool map = false, string = false;
        if (b >= 0xa0 && b <= 0xbf) bytes = b & 0x1f, string = true;                       // fixstr
        else if (b >= 0xd9 && b <= 0xdb) bytes = length(1 << (b - 0xd9)), string = true;  // str 8, 16, 32
        else if (b >= 0x90 && b <= 0x9f) items = b & 0x0f;                                // fixarray
        else if (b == 0xdc || b == 0xdd) items = length(b == 0xdc ? 2 : 4);               // array 16, 32
        else if (b >= 0x80 && b <= 0x8f) items = 2 * (b & 0x0f), map = true;              // fixmap
        else if (b == 0xde || b == 0xdf) items = 2 * length(b == 0xde ? 2 : 4), map = true; // map 16, 32
        else if (b >= 0xc4 && b <= 0xc6) take(length(1 << (b - 0xc4)));                  // bin 8, 16, 32
        else if (b >= 0xc7 && b <= 0xc9) take(length(1 << (b - 0xc7)) + 1);              // ext 8, 16, 32
        else if (b >= 0xd4 && b <= 0xd8) take((1 << (b - 0xd4)) + 1);                    // fixext
        else if (b >= 0xca && b <= 0xd3) take(b == 0xca ? 4 : b == 0xcb ? 8 : 1 << ((b - 0xcc) & 3)); // numbers
        else if (b == 0xc1) throw bad_input("metadata", "its AMDGPU metadata is not msgpack");
        // else a fixint, nil or a boolean: the byte is all of it
        const char* s = string ? take(bytes) : nullptr;
        if (key && !string) throw bad_input("metadata", "its AMDGPU metadata has a map key that is not a string");
        if (key && !open.back().keys.insert({s, bytes}).second) {
            const std::string_view k(s, bytes);
            throw bad_input("metadata",
                            "its AMDGPU metadata has a map with the key " +
                                (printable(k, 64) ? "'" + std::string(k) + "'" : std::string("(unprintable)")) +
                                " twice");
        }
        if (!open.empty()) --open.back().left;
        if (items > 0) open.push_back({items, map, {}});
        while (!open.empty() && open.back().left == 0) open.pop_back();
    } while (!open.empty());
}

/// Checks the metadata notes in `notes` (a note segment or section), read as LLVM reads them: a
/// 12-byte header (name size, descriptor size, type), the name and the descriptor, each padded to
/// 4 bytes, up to the first that runs past the end.
void check_notes(span notes)
{
    constexpr uint32_t nt_amdgpu_metadata = 32, nt_pal_metadata = 13; // the notes comgr reads as msgpack
    for (size_t at = 0; notes.size - at >= 12;) {
        uint32_t h[3];
        std::memcpy(h, notes.data + at, sizeof h);
        const uint64_t name_size = (uint64_t(h[0]) + 3) / 4 * 4, desc_size = (uint64_t(h[1]) + 3) / 4 * 4;
        if (name_size + desc_size > notes.size - at - 12) return;
        const std::string_view name(notes.data + at + 12, h[0] ? h[0] - 1 : 0);
        if ((name == "AMDGPU" && (h[2] == nt_amdgpu_metadata || h[2] == nt_pal_metadata)) ||
            (name == "AMD" && h[2] == nt_pal_metadata))
            check_metadata({notes.data + at + 12 + name_size, h[1]});
        at += 12 + name_size + desc_size;
    }
}

// ---- the code object ------------------------------------------------------------------------------

/// Throws unless the note segments and the sections of `co` lie within it, its notes hold metadata
/// comgr can take and its symbol tables have entries of the size they should. ROCm 5.2's comgr
/// (its LLVM) checks where a note segment ends by adding its offset and size from the file, which
/// wraps: one claiming to end past 2^64 is read out of bounds; and a metadata map keyed by maps
/// stops it (check_metadata).
void check_code_object(span co)
{
    Elf64_Ehdr eh;
    if (co.size < sizeof eh || std::memcmp(co.data, elf_magic, 4) != 0 || co.data[EI_CLASS] != ELFCLASS64 ||
        co.data[EI_DATA] != ELFDATA2LSB)
        throw bad_input("ELF header", "its code object is not a 64-bit little-endian ELF file");
    std::memcpy(&eh, co.data, sizeof eh);
    if (eh.e_machine != em_amdgpu)
        throw bad_input("e_machine",
                        "its code object is for machine " + std::to_string(eh.e_machine) + ", not AMDGPU (224)");
    const uint64_t phdrs = eh.e_phnum * sizeof(Elf64_Phdr);
    if (eh.e_phnum && (eh.e_phentsize != sizeof(Elf64_Phdr) || !within(eh.e_phoff, phdrs, co.size)))
        throw bad_input("e_phoff", "its code object's program headers run past its end");
    for (size_t i = 0; i < eh.e_phnum; ++i) {
        Elf64_Phdr ph;
        std::memcpy(&ph, co.data + eh.e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_type != PT_NOTE) continue;
        if (!within(ph.p_offset, ph.p_filesz, co.size))
            throw bad_input("p_offset", "its code object's note segment runs past its end");
        check_notes({co.data + ph.p_offset, ph.p_filesz});
    }
    if (eh.e_shoff == 0) return; // no sections
    Elf64_Shdr sh;
    if (eh.e_shentsize != sizeof sh || !within(eh.e_shoff, sizeof sh, co.size))
        throw bad_input("e_shoff", "its code object's section headers run past its end");
    std::memcpy(&sh, co.data + eh.e_shoff, sizeof sh);
    const uint64_t sections = eh.e_shnum ? eh.e_shnum : sh.sh_size; // more than e_shnum holds: in section 0
    if (sections > (co.size - eh.e_shoff) / sizeof sh)
        throw bad_input("e_shnum", "its code object's section headers run past its end");
    for (uint64_t i = 0; i < sections; ++i) {
        std::memcpy(&sh, co.data + eh.e_shoff + i * sizeof sh, sizeof sh);
        const std::string section = "its code object's section " + std::to_string(i);
        // llvm-objdump (the disassembly's fallback) reads a symbol table as its header says and
        // warns for every symbol it cannot read: millions of lines, minutes, for a few kilobytes.
        if (sh.sh_type != SHT_NULL && sh.sh_type != SHT_NOBITS && !within(sh.sh_offset, sh.sh_size, co.size))
            throw bad_input("sh_offset", section + " runs past its end");
        if ((sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) && sh.sh_entsize != sizeof(Elf64_Sym))
            throw bad_input("sh_entsize", section + " is a symbol table of entries of " +
                                              std::to_string(sh.sh_entsize) + " bytes, not " +
                                              std::to_string(sizeof(Elf64_Sym)));
        if (sh.sh_type == SHT_NOTE) check_notes({co.data + sh.sh_offset, sh.sh_size});
    }
}

/// A target ID, read: the processor, and the features named ("xnack" -> '+' or '-'; "any" is left
/// out, as LLVM's target IDs do).
struct target_id {
    const gpu::processor* processor;
    std::map<std::string, char> features;
};

std::string to_string(const target_id& t)
{
    std::string s = t.processor->name;
    for (const auto& [name, on] : t.features) s += ":" + name + on; // in name order, as LLVM writes them
    return s;
}

/// The target a bundle entry's ID names ("gfx90a:xnack-", of is_target_id's form).
target_id parse_target(const std::string& id)
{
    const size_t colon = id.find(':');
    target_id t{gpu::find_processor(std::string_view(id).substr(0, colon)), {}};
    if (!t.processor) throw bad_input("target", "'" + id.substr(0, colon) + "' is no processor LLVM knows");
    for (size_t at = colon; at != std::string::npos;) { // ":name+" or ":name-"
        const size_t next = id.find(':', at + 1), end = next == std::string::npos ? id.size() : next;
        const std::string f = id.substr(at + 1, end - at - 2);
        if (f != "xnack" && f != "sramecc")
            throw bad_input("target", "'" + f + "' is no feature a code object records");
        if (!t.features.emplace(f, id[end - 1]).second) throw bad_input("target", "it names " + f + " twice");
        at = next;
    }
    return t;
}

/// The target a code object's e_flags name: the processor (EF_AMDGPU_MACH, the low byte) and, from
/// code object v4 (EI_ABIVERSION 2), sramecc and xnack where the processor has them (each
/// unsupported, any, off or on). Of v2 and v3 code objects, only the processor.
target_id target_of(span co)
{
    Elf64_Ehdr eh;
    std::memcpy(&eh, co.data, sizeof eh); // check_code_object saw the whole header
    const uint32_t flags = eh.e_flags;
    target_id t{gpu::find_processor(uint8_t(flags & 0xff)), {}};
    if (!t.processor)
        throw bad_input("e_flags", "its code object's e_flags (" + hex(flags) + ") name no processor LLVM knows");
    if (eh.e_ident[EI_ABIVERSION] < 2) return t;
    auto feature = [&](const char* name, bool has, uint32_t mask) {
        const uint32_t v = (flags & mask) / (mask & ~(mask << 1)); // 0 unsupported, 1 any, 2 off, 3 on
        if ((v == 0) == has)
            throw bad_input("e_flags", std::string("its code object's e_flags (") + hex(flags) + ") record " + name +
                                           (has ? " as unsupported on " : " on ") + t.processor->name +
                                           (has ? ", which has it" : ", which has none"));
        if (v >= 2) t.features[name] = v == 3 ? '+' : '-';
    };
    feature("sramecc", t.processor->sramecc, 0xc00); // EF_AMDGPU_FEATURE_SRAMECC_V4
    feature("xnack", t.processor->xnack, 0x300);     // EF_AMDGPU_FEATURE_XNACK_V4
    return t;
}

/// A kernel descriptor (amdhsa's kernel_descriptor_t, 64 bytes): the fields checked against the
/// kernel's metadata.
struct descriptor {
    uint32_t group_segment_fixed_size; // offset 0
    uint32_t private_segment_fixed_size;
    uint32_t kernarg_size;
    uint32_t compute_pgm_rsrc3;        // offset 44
    uint32_t compute_pgm_rsrc1;
    uint16_t kernel_code_properties;   // offset 56
};
constexpr uint64_t descriptor_size = 64;

/// The kernel descriptors of `co` by symbol name: each STT_OBJECT symbol of its symbol table named
/// "<kernel>.kd".
std::map<std::string, descriptor> descriptors_of(span co)
{
    const elf_ptr owner = open_elf(co);
    Elf* elf = owner.get();
    if (!elf) throw bad_input("ELF header", std::string("libelf cannot read its code object: ") + elf_errmsg(-1));
    std::map<std::string, descriptor> out;
    bool symtab = false;
    for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB) continue;
        symtab = true;
        Elf_Data* syms = elf_getdata(scn, nullptr);
        for (size_t i = 0; syms && i < sh.sh_size / sizeof(Elf64_Sym); ++i) {
            GElf_Sym sym;
            if (!gelf_getsym(syms, int(i), &sym) || GELF_ST_TYPE(sym.st_info) != STT_OBJECT) continue;
            const char* found = elf_strptr(elf, sh.sh_link, sym.st_name);
            const std::string_view name = found ? found : "";
            if (!name.ends_with(".kd")) continue;
            if (!printable(name, max_name + 3))
                throw bad_input("symbol table", "a kernel descriptor's symbol name is not printable ASCII");
            const std::string what = "the kernel descriptor " + std::string(name);
            if (sym.st_size != descriptor_size)
                throw bad_input("st_size", what + " is " + std::to_string(sym.st_size) + " bytes, not 64");
            // Its section's bounds checked here: check_code_object leaves SHT_NULL's unchecked.
            GElf_Shdr in;
            if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
                !gelf_getshdr(elf_getscn(elf, sym.st_shndx), &in) || in.sh_type != SHT_PROGBITS ||
                !within(in.sh_offset, in.sh_size, co.size) || sym.st_value < in.sh_addr ||
                !within(sym.st_value - in.sh_addr, descriptor_size, in.sh_size))
                throw bad_input("st_value", what + " lies outside the section it names");
            const char* p = co.data + in.sh_offset + (sym.st_value - in.sh_addr);
            descriptor d;
            std::memcpy(&d.group_segment_fixed_size, p, 4);
            std::memcpy(&d.private_segment_fixed_size, p + 4, 4);
            std::memcpy(&d.kernarg_size, p + 8, 4);
            std::memcpy(&d.compute_pgm_rsrc3, p + 44, 4);
            std::memcpy(&d.compute_pgm_rsrc1, p + 48, 4);
            std::memcpy(&d.kernel_code_properties, p + 56, 2);
            if (!out.emplace(name, d).second) throw bad_input("symbol table", what + " is in it twice");
        }
    }
    if (!symtab)
        throw bad_input("symbol table", "its code object has no symbol table: its kernel descriptors cannot be found");
    return out;
}

/// One kernel's figures from the metadata.
struct kernel {
    std::string name, symbol;
    int64_t vgprs, sgprs, lds, scratch, vgpr_spills, sgpr_spills, wave_size, max_workgroup, kernarg_size;
    std::optional<int64_t> agprs; // LLVM gives none for targets without AGPRs
};

/// What a descriptor encodes for `count` registers allocated in granules of `granule`: the
/// granules, at least one, less one.
int64_t granules(int64_t count, int granule) { return std::max<int64_t>((count + granule - 1) / granule, 1) - 1; }

/// Throws unless kernel `k`'s metadata agrees with its descriptor `d` on processor `p`: each rule
/// as LLVM 15 writes both (AMDGPUAsmPrinter), and held by every kernel of the plugins' builds.
/// What no second source records (spill counts, the max flat workgroup size, the low bits of the
/// register counts within their granule) cannot be checked.
void check_descriptor(const kernel& k, const descriptor& d, const gpu::processor& p)
{
    const std::string who = "kernel " + k.name + ": ";
    auto differ = [&](const char* field, int64_t meta, int64_t desc, const std::string& what) {
        throw bad_input(field, who + field + " is " + std::to_string(meta) + " in the metadata, " + what + " " +
                                   std::to_string(desc) + " in its descriptor " + k.symbol);
    };
    if (k.lds != d.group_segment_fixed_size)
        differ(".group_segment_fixed_size", k.lds, d.group_segment_fixed_size, "group_segment_fixed_size");
    if (k.scratch != d.private_segment_fixed_size)
        differ(".private_segment_fixed_size", k.scratch, d.private_segment_fixed_size, "private_segment_fixed_size");
    if (k.kernarg_size != d.kernarg_size)
        differ(".kernarg_segment_size", k.kernarg_size, d.kernarg_size, "kernarg_size");
    const bool wave32 = d.kernel_code_properties & (1u << 10); // ENABLE_WAVEFRONT_SIZE32
    if (k.wave_size != (wave32 ? 32 : 64)) differ(".wavefront_size", k.wave_size, wave32 ? 32 : 64, "wavefront size");
    // compute_pgm_rsrc1: GRANULATED_WORKITEM_VGPR_COUNT (bits 0-5) and, in granules of 8,
    // GRANULATED_WAVEFRONT_SGPR_COUNT (bits 6-9; 0 allowed from gfx10, where it is reserved).
    const bool unified = p.agpr == gpu::agprs::unified;
    const int vgpr_granule = unified || wave32 ? 8 : 4;
    const int64_t vgpr_bits = d.compute_pgm_rsrc1 & 0x3f, sgpr_bits = (d.compute_pgm_rsrc1 >> 6) & 0xf;
    if (granules(k.vgprs, vgpr_granule) != vgpr_bits)
        differ(".vgpr_count", k.vgprs, vgpr_bits, "granulated (of " + std::to_string(vgpr_granule) + ") as");
    if (granules(k.sgprs, 8) != sgpr_bits && !(sgpr_bits == 0 && gpu::major_version(p) >= 10))
        differ(".sgpr_count", k.sgprs, sgpr_bits, "granulated (of 8) as");
    // AGPRs: in a file of their own (gfx908) .vgpr_count is the larger count; in one file with the
    // VGPRs (gfx90a) they start at ACCUM_OFFSET (compute_pgm_rsrc3 bits 0-5, in 4s, less 1), after
    // the VGPRs rounded up to 4, and .vgpr_count counts both.
    const int64_t agprs = k.agprs.value_or(0);
    if (p.agpr == gpu::agprs::none && agprs != 0)
        throw bad_input(".agpr_count",
                        who + ".agpr_count is " + std::to_string(agprs) + " on " + p.name + ", which has none");
    if (p.agpr != gpu::agprs::none && !k.agprs) throw bad_input(".agpr_count", who + "the metadata has no .agpr_count");
    if (agprs > k.vgprs)
        throw bad_input(".agpr_count", who + ".agpr_count (" + std::to_string(agprs) + ") is more than .vgpr_count (" +
                                           std::to_string(k.vgprs) + "), which includes them");
    if (unified) {
        const int64_t accum = d.compute_pgm_rsrc3 & 0x3f, vgprs = k.vgprs - agprs;
        const bool ok =
            agprs > 0 ? vgprs == 4 * (accum + 1) || (vgprs == 0 && accum == 0) : granules(vgprs, 4) == accum;
        if (!ok)
            throw bad_input(".agpr_count", who + ".agpr_count " + std::to_string(agprs) + " and .vgpr_count " +
                                               std::to_string(k.vgprs) +
                                               " in the metadata disagree with ACCUM_OFFSET " + std::to_string(accum) +
                                               " in its descriptor " + k.symbol);
    }
}

/// The disassembly of `code` (one function's bytes) by comgr, an instruction per string.
struct disassembly {
    span code;
    std::vector<std::string> lines;
    static uint64_t read(uint64_t from, char* to, uint64_t size, void* self)
    {
        const span c = static_cast<disassembly*>(self)->code;
        if (from >= c.size) return 0;
        const uint64_t n = std::min<uint64_t>(size, c.size - from);
        std::memcpy(to, c.data + from, n);
        return n;
    }
    static void print(const char* instruction, void* self)
    {
        std::string s(instruction);
        const size_t b = s.find_first_not_of(" \t");
        static_cast<disassembly*>(self)->lines.push_back(b == std::string::npos ? std::string() : s.substr(b));
    }
    static void annotate(uint64_t, void*) {}
};

/// Each function's instructions by comgr, by symbol name, for the symbols in `names`.
std::map<std::string, std::vector<std::string>> instructions_of(span co, const std::string& isa,
                                                                const std::set<std::string>& names)
{
    std::map<std::string, std::vector<std::string>> out;
    // LLVM 15's disassembler ends the process (report_fatal_error) for gfx6 and gfx7, which lack
    // the GCN3 encoding: only gfx8 and later are asked (a code object's header may name any).
    const std::string cpu = isa.substr(isa.rfind("--") == std::string::npos ? 0 : isa.rfind("--") + 2);
    if (!(cpu.starts_with("gfx8") || cpu.starts_with("gfx9") || cpu.starts_with("gfx1")))
        throw std::runtime_error("no disassembly for " + isa + " (LLVM disassembles gfx8 and later)");
    amd_comgr_disassembly_info_t info{};
    if (amd_comgr_create_disassembly_info(isa.c_str(), disassembly::read, disassembly::print, disassembly::annotate,
                                          &info) != AMD_COMGR_STATUS_SUCCESS)
        throw std::runtime_error("this libamd-comgr cannot disassemble " + isa);
    const elf_ptr owner = open_elf(co);
    Elf* elf = owner.get();
    for (Elf_Scn* scn = nullptr; elf && (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0) continue;
        Elf_Data* syms = elf_getdata(scn, nullptr);
        for (size_t i = 0; syms && i < sh.sh_size / sh.sh_entsize; ++i) {
            GElf_Sym sym;
            if (!gelf_getsym(syms, int(i), &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC) continue;
            const char* name = elf_strptr(elf, sh.sh_link, sym.st_name);
            GElf_Shdr code;
            if (!name || !names.count(name) || !gelf_getshdr(elf_getscn(elf, sym.st_shndx), &code)) continue;
            const uint64_t at = sym.st_value - code.sh_addr + code.sh_offset;
            if (sym.st_value < code.sh_addr || at > co.size || sym.st_size > co.size - at) continue;
            disassembly d{{co.data + at, sym.st_size}, {}};
            for (uint64_t pc = 0, n = 0; pc < sym.st_size; pc += n ? n : 4) {
                n = 0;
                if (amd_comgr_disassemble_instruction(info, pc, &d, &n) != AMD_COMGR_STATUS_SUCCESS)
                    d.lines.push_back("<undecodable>");
            }
            out[name] = std::move(d.lines);
        }
    }
    amd_comgr_destroy_disassembly_info(info);
    return out;
}

/// The standard output of `argv` (its program found on PATH, run without a shell, with this
/// process's environment, standard input and error on /dev/null), or nothing when it cannot be
/// started or exits other than 0. One that runs past `seconds`, or writes more than `limit`
/// bytes, is killed and throws: a pathological input must not hang the reader.
std::optional<std::string> run_program(const std::vector<std::string>& argv, int seconds, size_t limit)
{
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    if (spawned != 0) {
        close(out[0]);
        return std::nullopt;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    auto left_ms = [&] {
        return int(std::max<int64_t>(
            0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                   .count()));
    };
    std::string text, trouble;
    for (char buf[1 << 16];;) {
        pollfd p{out[0], POLLIN, 0};
        const int ready = poll(&p, 1, left_ms());
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) {
            trouble = "ran past " + std::to_string(seconds) + " s";
            break;
        }
        const ssize_t n = read(out[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        if (text.size() + size_t(n) > limit) {
            trouble = "wrote more than " + std::to_string(limit >> 20) + " MiB";
            break;
        }
        text.append(buf, size_t(n));
    }
    close(out[0]);
    int status = 0;
    for (;;) { // it closed its output: it ends soon, else it is killed at the deadline
        const pid_t w = trouble.empty() ? waitpid(pid, &status, WNOHANG) : 0;
        if (w == pid || (w < 0 && errno != EINTR)) break;
        if (!trouble.empty() || left_ms() == 0) {
            if (trouble.empty()) trouble = "ran past " + std::to_string(seconds) + " s";
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) continue;
            break;
        }
        usleep(10000);
    }
    if (!trouble.empty()) throw std::runtime_error(argv[0] + " " + trouble + " and was stopped");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
    return text;
}

/// The same through LLVM's llvm-objdump (Debian's llvm-15, which hipcc depends on), for targets
/// this libamd-comgr does not know (ROCm 5.2's predates gfx940): the code object goes to a
/// temporary file, and each function's lines are read back.
std::map<std::string, std::vector<std::string>> objdump_instructions(span co, const std::string& target,
                                                                     const std::set<std::string>& names)
{
    if (!gpu::is_target_id(target)) throw std::runtime_error("not a target ID"); // read_code_object checked it
    char path[] = "/tmp/wavebench-code-object-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) throw std::runtime_error("cannot write a temporary file for llvm-objdump");
    struct remove_at_exit {
        const char* path;
        ~remove_at_exit() { unlink(path); }
    } remove{path};
    const bool written = write(fd, co.data, co.size) == ssize_t(co.size);
    close(fd);
    if (!written) throw std::runtime_error("cannot write a temporary file for llvm-objdump");
    std::optional<std::string> listing;
    for (const char* objdump : {"llvm-objdump-15", "llvm-objdump"}) {
        constexpr int seconds = 60;
        constexpr size_t limit = size_t(256) << 20;
        listing =
            run_program({objdump, "-d", "--no-show-raw-insn", "--mcpu=" + target.substr(0, target.find(':')), path},
                        seconds, limit);
        if (listing) break;
    }
    std::map<std::string, std::vector<std::string>> out;
    std::vector<std::string>* current = nullptr;
    for (size_t at = 0; listing && at < listing->size();) {
        const size_t eol = std::min(listing->find('\n', at), listing->size());
        std::string line = listing->substr(at, eol - at);
        at = eol + 1;
        while (!line.empty() && line.back() == ' ') line.pop_back();
        const size_t open = line.find(" <"), close = line.rfind(">:");
        if (!line.empty() && line[0] != '\t' && open != std::string::npos && close != std::string::npos &&
            close > open) {
            const std::string name = line.substr(open + 2, close - open - 2);
            current = names.count(name) ? &out[name] : nullptr;
        } else if (line.empty()) {
            current = nullptr;
        } else if (current && line[0] == '\t') {
            std::string i =
                line.substr(1, line.find("//") == std::string::npos ? std::string::npos : line.find("//") - 1);
            while (!i.empty() && i.back() == ' ') i.pop_back();
            current->push_back(i);
        }
    }
    for (auto& [name, lines] : out) { // objdump runs on into the padding (s_nop) after the last s_endpgm
        size_t end = lines.size();
        while (end > 0 && lines[end - 1].rfind("s_endpgm", 0) != 0) --end;
        if (end > 0) lines.resize(end);
    }
    if (out.empty()) throw std::runtime_error("neither this libamd-comgr nor llvm-objdump-15 disassembles " + target);
    return out;
}

/// The kernels of one code object, checked against it; `label` is its bundle entry's target ID
/// ("gfx90a:xnack-", checked against the e_flags), or "" for a bare code object (the e_flags
/// name it). Each kernel with its disassembly when `with_instructions`.
json read_code_object(span co, const std::string& label, bool with_instructions)
{
    const std::optional<target_id> named = label.empty() ? std::nullopt : std::optional(parse_target(label));
    check_code_object(co);
    const target_id t = target_of(co);
    const bool v4 = static_cast<unsigned char>(co.data[EI_ABIVERSION]) >= 2;
    if (named && (named->processor != t.processor || (v4 && named->features != t.features)))
        throw bad_input("e_flags", "the bundle entry is for " + label + ", its code object (e_flags " +
                                       hex(u32(co.data + offsetof(Elf64_Ehdr, e_flags))) + ") for " + to_string(t));
    const std::string target = named ? label : to_string(t);

    comgr_data data(co);
    size_t isa_size = 0; // comgr 2.4 answers an empty name for some code objects: then it is unknown
    std::string isa;
    if (amd_comgr_get_data_isa_name(data.get(), &isa_size, nullptr) == AMD_COMGR_STATUS_SUCCESS && isa_size > 1) {
        isa.resize(isa_size);
        comgr_data::check(amd_comgr_get_data_isa_name(data.get(), &isa_size, isa.data()), "ISA name");
        isa.resize(std::strlen(isa.c_str()));
    }
    const std::string triple = "amdgcn-amd-amdhsa--";
    if (!isa.starts_with(triple) || !gpu::is_target_id(std::string_view(isa).substr(triple.size()))) isa.clear();

    node root;
    comgr_data::check(amd_comgr_get_data_metadata(data.get(), &root.n), "metadata");
    root.owned = true;
    node list;
    const auto kind = lookup(root.n, "amdhsa.kernels", list);
    if (!kind) throw bad_input("amdhsa.kernels", "the metadata has no amdhsa.kernels");
    if (*kind != AMD_COMGR_METADATA_KIND_LIST) throw bad_input("amdhsa.kernels", "amdhsa.kernels is not a list");
    size_t count = 0;
    comgr_data::check(amd_comgr_get_metadata_list_size(list.n, &count), "kernel count");
    std::vector<kernel> kernels;
    for (size_t i = 0; i < count; ++i) {
        node k;
        comgr_data::check(amd_comgr_index_list_metadata(list.n, i, &k.n), "kernel");
        k.owned = true;
        kernel_map m{k.n, "kernel " + std::to_string(i)};
        kernel x;
        x.name = m.name(".name", max_name);
        m.kernel += " (" + x.name + ")";
        x.symbol = m.name(".symbol", max_name + 3);
        if (x.symbol != x.name + ".kd") throw bad_input(".symbol", m.kernel + ": .symbol is not .name followed by .kd");
        x.vgprs = *m.number(".vgpr_count");
        x.agprs = m.number(".agpr_count", false);
        x.sgprs = *m.number(".sgpr_count");
        x.lds = *m.number(".group_segment_fixed_size");
        x.scratch = *m.number(".private_segment_fixed_size");
        x.vgpr_spills = *m.number(".vgpr_spill_count");
        x.sgpr_spills = *m.number(".sgpr_spill_count");
        x.wave_size = *m.number(".wavefront_size");
        x.max_workgroup = *m.number(".max_flat_workgroup_size");
        x.kernarg_size = *m.number(".kernarg_segment_size");
        if (x.wave_size != 32 && x.wave_size != 64)
            throw bad_input(".wavefront_size", m.kernel + ": .wavefront_size is neither 32 nor 64");
        if (x.max_workgroup < 1 || x.max_workgroup > 1024)
            throw bad_input(".max_flat_workgroup_size", m.kernel + ": .max_flat_workgroup_size is not from 1 to 1024");
        if (std::any_of(kernels.begin(), kernels.end(), [&](const kernel& y) { return y.name == x.name; }))
            throw bad_input(".name", m.kernel + ": another kernel has the same .name");
        kernels.push_back(std::move(x));
    }
    // Each kernel has its descriptor, and each descriptor its kernel.
    std::map<std::string, descriptor> descriptors = descriptors_of(co);
    for (const kernel& k : kernels) {
        const auto it = descriptors.find(k.symbol);
        if (it == descriptors.end())
            throw bad_input(".symbol", "kernel " + k.name + ": its code object has no kernel descriptor " + k.symbol +
                                           " (an STT_OBJECT of 64 bytes)");
        check_descriptor(k, it->second, *t.processor);
        descriptors.erase(it);
    }
    if (!descriptors.empty())
        throw bad_input("amdhsa.kernels",
                        "the kernel descriptor " + descriptors.begin()->first + " has no kernel in the metadata");

    json out = json::array();
    for (const kernel& k : kernels)
        out.push_back({{"name", k.name},
                       {"symbol", k.symbol},
                       {"vgpr_count", k.vgprs},
                       {"agpr_count", k.agprs ? json(*k.agprs) : json(nullptr)},
                       {"sgpr_count", k.sgprs},
                       {"group_segment_fixed_size", k.lds},
                       {"private_segment_fixed_size", k.scratch},
                       {"vgpr_spill_count", k.vgpr_spills},
                       {"sgpr_spill_count", k.sgpr_spills},
                       {"wavefront_size", k.wave_size},
                       {"max_flat_workgroup_size", k.max_workgroup},
                       {"kernarg_segment_size", k.kernarg_size}});
    if (with_instructions && !kernels.empty()) { // a kernel's code is the function its descriptor (symbol.kd) names
        std::set<std::string> names;
        for (const kernel& k : kernels) names.insert(k.name);
        std::map<std::string, std::vector<std::string>> code;
        std::string why;
        // comgr only for a processor it knows (it named the ISA), and without the features (xnack,
        // sramecc), which do not change the decoding: ROCm 5.2's comgr misreads them, and its LLVM
        // prints garbage about it.
        try {
            if (isa.empty()) throw std::runtime_error("this libamd-comgr does not know " + target);
            code = instructions_of(co, isa.substr(0, isa.find(':')), names);
        } catch (const std::exception&) {
            try {
                code = objdump_instructions(co, target, names);
            } catch (const std::exception& e) { // the other targets are still read
                why = e.what();
            }
        }
        for (auto& k : out) {
            const auto it = code.find(k["name"].get<std::string>());
            k["instructions"] = it == code.end() ? json(nullptr) : json(it->second);
            if (it == code.end()) k["instructions_missing"] = why.empty() ? "no code for its symbol" : why;
        }
    }
    return {{"isa", isa.empty() ? json(nullptr) : json(isa)}, {"target", target}, {"kernels", out}};
}

/// Reads the code object `co` into `out`, or an error for it naming `entry` (null: a bare code object).
void read_one(span co, const json& entry, const std::string& label, bool with_instructions, findings& out)
{
    try {
        json c = read_code_object(co, label, with_instructions);
        c["bundle_entry"] = entry;
        out.code_objects.push_back(std::move(c));
    } catch (const bad_input& e) {
        out.error(entry, e.field, e.what());
    } catch (const std::exception& e) { // no check's: the entry still fails alone
        out.error(entry, "code object", e.what());
    }
}

// ---- offload bundles ------------------------------------------------------------------------------

/// A bundle entry's ID, "<kind>-<triple>[-[-<target ID>]]", parsed: kind "hipv4", triple
/// "amdgcn-amd-amdhsa", target "gfx90a:xnack-"; or kind "host", triple
/// "x86_64-unknown-linux-gnu", no target. Null when `id` is not of this form.
struct entry_id {
    std::string kind, triple, target;
};
std::optional<entry_id> parse_entry_id(std::string_view id)
{
    auto word = [](std::string_view s, bool kind) {
        return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                   (!kind && ((c >= 'A' && c <= 'Z') || c == '_' || c == '.'));
        });
    };
    const size_t dash = id.find('-');
    if (dash == std::string_view::npos || !word(id.substr(0, dash), true)) return std::nullopt;
    entry_id e{std::string(id.substr(0, dash)), "", ""};
    std::string_view rest = id.substr(dash + 1);
    if (const size_t cut = rest.find("--"); cut != std::string_view::npos) {
        e.target = rest.substr(cut + 2);
        if (!gpu::is_target_id(e.target)) return std::nullopt;
        rest = rest.substr(0, cut);
    } else if (rest.ends_with('-')) {
        rest.remove_suffix(1);
    }
    e.triple = rest;
    int parts = 0; // arch-vendor-os[-environment]
    for (size_t at = 0; at <= rest.size(); ++parts) {
        const size_t end = std::min(rest.find('-', at), rest.size());
        if (!word(rest.substr(at, end - at), false)) return std::nullopt;
        at = end + 1;
    }
    if (parts < 2 || parts > 4) return std::nullopt;
    return e;
}

/// Reads the offload bundle at `base` of `s` (its magic checked) into `out`; returns where it ends.
size_t read_bundle(span s, size_t base, bool with_instructions, findings& out)
{
    const std::string bundle = "the offload bundle at offset " + hex(base);
    const uint64_t count = u64(s.data + base + magic_size);
    size_t p = base + magic_size + 8;
    if (count > (s.size - p) / index_record) {
        out.error(nullptr, "entry count",
                  bundle + " claims " + std::to_string(count) + " entries, more than its index can hold");
        return s.size;
    }
    struct record {
        uint64_t offset, size;
        std::string id;
        bool sound = true; // its range lies within the bundle, clear of the index and of the others
    };
    std::vector<record> records;
    for (uint64_t e = 0; e < count; ++e) {
        if (s.size - p < index_record) {
            out.error(nullptr, "entry count", bundle + ": its index runs past the end at entry " + std::to_string(e));
            return s.size;
        }
        const uint64_t id_size = u64(s.data + p + 16);
        const std::string wrong = id_size == 0                          ? "is 0"
                                  : id_size > max_entry_id              ? "is more than " + std::to_string(max_entry_id)
                                  : id_size > s.size - p - index_record ? "runs past the end"
                                                                        : "";
        if (!wrong.empty()) {
            out.error(nullptr, "entry ID size",
                      bundle + ": the ID size of entry " + std::to_string(e) + " (" + std::to_string(id_size) + ") " +
                          wrong);
            return s.size;
        }
        records.push_back({u64(s.data + p), u64(s.data + p + 8), std::string(s.data + p + index_record, id_size)});
        p += index_record + id_size;
    }
    const size_t index_end = p, room = s.size - base; // an entry's offset counts from the magic
    if (records.empty()) {
        out.error(nullptr, "entry count", bundle + " has no entries");
        return index_end;
    }
    // Every range within the bundle and clear of its index and of the other entries.
    std::vector<record*> by_offset;
    std::set<std::string> ids;
    for (record& r : records) {
        if (!ids.insert(r.id).second) {
            out.error(r.id, "entry ID", "the bundle entry appears twice in " + bundle);
            r.sound = false;
        } else if (r.size == 0) { // an empty entry (the host's) covers nothing: where it says it is does not matter
        } else if (!within(r.offset, r.size, room)) {
            out.error(r.id, "size",
                      "the bundle entry (offset " + hex(r.offset) + ", " + std::to_string(r.size) +
                          " bytes) runs past the end of " + bundle);
            r.sound = false;
        } else if (r.offset < index_end - base) {
            out.error(r.id, "offset",
                      "the bundle entry (offset " + hex(r.offset) + ") overlaps the index of " + bundle);
            r.sound = false;
        } else {
            by_offset.push_back(&r);
        }
    }
    std::sort(by_offset.begin(), by_offset.end(),
              [](const record* a, const record* b) { return a->offset < b->offset; });
    record* furthest = nullptr; // of the entries so far, the one that ends last
    for (record* r : by_offset) {
        if (furthest && r->offset < furthest->offset + furthest->size)
            for (record* x : {furthest, r})
                if (x->sound) {
                    out.error(x->id, "offset",
                              "the bundle entries at " + hex(furthest->offset) + " and " + hex(r->offset) + " of " +
                                  bundle + " overlap");
                    x->sound = false;
                }
        if (!furthest || r->offset + r->size > furthest->offset + furthest->size) furthest = r;
    }
    // What lies between the index and the end of the last entry is an entry or zero padding: an
    // entry count made smaller would leave entries out unsaid.
    size_t end = index_end;
    for (const record* r : by_offset) {
        const size_t from = base + r->offset;
        if (from > end && std::any_of(s.data + end, s.data + from, [](char c) { return c != 0; })) {
            out.error(nullptr, "entry count",
                      bundle + ": bytes " + hex(end - base) + " to " + hex(from - base) +
                          " are in no entry, and not zero padding (entries left out of its index?)");
        }
        end = std::max(end, from + r->size);
    }
    size_t host = 0; // entries that are the host's: a bundle of only those has no device code
    for (const record& r : records) {
        const auto id = parse_entry_id(r.id);
        host += id && id->kind == "host";
        if (!r.sound) continue;
        if (!id) {
            out.error(r.id, "entry ID",
                      "the bundle entry's ID is not <kind>-<triple>[--<target ID>] (a target ID: gfx, "
                      "hex digits, then :feature+ or :feature-)");
        } else if (id->triple == "amdgcn-amd-amdhsa") {
            if (id->target.empty())
                out.error(r.id, "entry ID", "the bundle entry names no target");
            else if (r.size == 0)
                out.error(r.id, "size", "the bundle entry is empty");
            else
                read_one({s.data + base + r.offset, r.size}, r.id, id->target, with_instructions, out);
        } else if (id->kind != "host") {
            out.error(r.id, "entry ID", "the bundle entry is neither the host's nor amdgcn-amd-amdhsa's");
        }
    }
    if (host == records.size()) out.error(nullptr, "entry count", bundle + " holds no entry but the host's");
    return end;
}

/// The code objects of the clang offload bundles laid one after another in `s` (the whole of a
/// .hip_fatbin section or a bundle file), with zero padding between them.
void read_bundles(span s, bool with_instructions, findings& out)
{
    bool any = false;
    for (size_t at = 0;;) {
        while (at < s.size && s.data[at] == 0) ++at; // the linker pads between bundles
        if (at == s.size) break;
        if (s.size - at >= 4 && std::memcmp(s.data + at, compressed_magic, 4) == 0) {
            out.error(nullptr, "bundle",
                      "its offload bundles are compressed (ROCm 6's --offload-compress), which this "
                      "reader does not decompress: rebuild without it");
            return;
        }
        if (s.size - at < magic_size + 8 || std::memcmp(s.data + at, bundle_magic, magic_size) != 0) {
            out.error(nullptr, "bundle",
                      "bytes at offset " + hex(at) + " are neither an offload bundle nor zero padding");
            return;
        }
        at = read_bundle(s, at, with_instructions, out);
        any = true;
    }
    if (!any) out.error(nullptr, "bundle", "it holds no offload bundle");
}

/// The code objects in `file`: a host shared object, an offload bundle or a bare code object.
/// Throws std::runtime_error when the file is none of these or where its device code is cannot be
/// told; an error in `out` for each part that cannot be read.
void inspect(span file, bool with_instructions, findings& out)
{
    if (file.size >= magic_size && std::memcmp(file.data, bundle_magic, magic_size) == 0)
        return read_bundles(file, with_instructions, out);
    if (file.size >= 4 && std::memcmp(file.data, compressed_magic, 4) == 0)
        throw std::runtime_error("a compressed offload bundle (ROCm 6's --offload-compress), which this reader does not "
                                 "decompress");
    if (file.size < 20 || std::memcmp(file.data, elf_magic, 4) != 0)
        throw std::runtime_error("neither an ELF file nor an offload bundle");
    uint16_t machine;
    std::memcpy(&machine, file.data + 18, 2);
    if (machine == em_amdgpu) return read_one(file, nullptr, "", with_instructions, out); // a bare code object

    const elf_ptr owner = open_elf(file);
    Elf* elf = owner.get();
    if (!elf) throw std::runtime_error(std::string("libelf cannot read it: ") + elf_errmsg(-1));
    size_t strings = 0, sections = 0;
    elf_getshdrnum(elf, &sections);
    if (sections == 0 || elf_getshdrstrndx(elf, &strings) != 0)
        throw std::runtime_error("no section headers: where its device code is cannot be told");
    bool fatbin = false, wrapper = false;
    std::string trouble;
    for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS) continue;
        const char* found = elf_strptr(elf, strings, sh.sh_name);
        const std::string_view name = found ? found : "";
        if (!within(sh.sh_offset, sh.sh_size, file.size))
            throw std::runtime_error("section " + std::to_string(elf_ndxscn(scn)) + " runs past the end of the file");
        const span section{file.data + sh.sh_offset, sh.sh_size};
        wrapper |= name == ".hipFatBinSegment"; // the runtime's pointer to .hip_fatbin: device code is expected
        if (name == ".llvm.offloading")
            trouble = "its device code is in .llvm.offloading (clang's new offload driver), which this reader does not read";
        if (name == ".hip_fatbin") {
            fatbin = true;
            read_bundles(section, with_instructions, out);
        } else if (section.size >= magic_size && std::memcmp(section.data, bundle_magic, magic_size) == 0) {
            throw std::runtime_error("section " + std::to_string(elf_ndxscn(scn)) + " holds an offload bundle but is " +
                                     (printable(name, 64) ? "named '" + std::string(name) + "'" : "not named") +
                                     ", not .hip_fatbin: its name is damaged");
        }
    }
    if (!fatbin && !trouble.empty()) throw std::runtime_error(trouble);
    if (!fatbin && wrapper)
        throw std::runtime_error("it has a .hipFatBinSegment but no .hip_fatbin section: its device code is lost");
}

} // namespace

extern "C" __attribute__((visibility("default"))) char* wavebench_amd_inspect_bytes(const char* data, size_t size,
                                                                                    int with_instructions, char** error)
{
    try {
        findings out;
        inspect({data, size}, with_instructions != 0, out);
        // Names in errors are the file's bytes: what is not UTF-8 becomes U+FFFD.
        const json answer{{"code_objects", std::move(out.code_objects)}, {"errors", std::move(out.errors)}};
        return strdup(answer.dump(-1, ' ', false, json::error_handler_t::replace).c_str());
    } catch (const std::exception& e) {
        if (error) *error = strdup(e.what());
        return nullptr;
    }
}

extern "C" __attribute__((visibility("default"))) void wavebench_amd_free(char* p) { std::free(p); }
