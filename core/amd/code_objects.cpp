// libwavebench_amd_inspect.so: the AMDGPU code objects a file holds, and their kernels' metadata.
//
// A hipcc-built shared object keeps its device code in the .hip_fatbin section as clang offload
// bundles (one code object per target); libelf finds the section, the bundle's index (a magic,
// the entry count, then offset, size and target of each entry) says where each code object is,
// and libamd_comgr reads each code object's AMDGPU metadata note (its notes are checked first:
// ROCm 5.2's comgr trusts them). The harness loads this module only when asked for AMD figures:
// libamd_comgr brings LLVM with it. It reads bytes in memory: the path entries read the file
// first, and tests/fuzz fuzzes the bytes entry.
#include "core/amd/inspect_abi.h"

#include <amd_comgr.h>
#include <gelf.h>
#include <libelf.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

namespace {

using json = nlohmann::json;

constexpr char bundle_magic[] = "__CLANG_OFFLOAD_BUNDLE__";
constexpr char compressed_magic[] = "CCOB"; // ROCm 6's --offload-compress
constexpr size_t magic_size = sizeof bundle_magic - 1;
constexpr unsigned char elf_magic[] = {0x7f, 'E', 'L', 'F'};
constexpr uint16_t em_amdgpu = 224;

struct span {
    const char* data;
    size_t size;
};

std::vector<char> read_file(const char* path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot be read");
    return {std::istreambuf_iterator<char>(in), {}};
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
        throw std::runtime_error(std::string("comgr ") + what + ": " + text);
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

std::string text(amd_comgr_metadata_node_t n)
{
    size_t size = 0;
    comgr_data::check(amd_comgr_get_metadata_string(n, &size, nullptr), "metadata string size");
    std::string s(size, '\0');
    comgr_data::check(amd_comgr_get_metadata_string(n, &size, s.data()), "metadata string");
    s.resize(std::strlen(s.c_str()));
    return s;
}

/// The value of `key` in a metadata map: a number where it reads as one, null when absent.
json field(amd_comgr_metadata_node_t map, const char* key)
{
    node v;
    if (amd_comgr_metadata_lookup(map, key, &v.n) != AMD_COMGR_STATUS_SUCCESS) return nullptr;
    v.owned = true;
    amd_comgr_metadata_kind_t kind;
    comgr_data::check(amd_comgr_get_metadata_kind(v.n, &kind), "metadata kind");
    if (kind != AMD_COMGR_METADATA_KIND_STRING) return nullptr;
    const std::string s = text(v.n);
    char* end = nullptr;
    const long long x = std::strtoll(s.c_str(), &end, 10);
    if (!s.empty() && end && *end == '\0') return x;
    return s;
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

/// Each function's instructions, by symbol name, for the symbols in `names`.
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

/// The same through LLVM's llvm-objdump (Debian's llvm-15, which hipcc depends on), for targets
/// this libamd-comgr does not know (ROCm 5.2's predates gfx940): the code object goes to a
/// temporary file, and each function's lines are read back.
std::map<std::string, std::vector<std::string>> objdump_instructions(span co, const std::string& target,
                                                                     const std::set<std::string>& names)
{
    char path[] = "/tmp/wavebench-code-object-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) throw std::runtime_error("cannot write a temporary file for llvm-objdump");
    const bool written = write(fd, co.data, co.size) == ssize_t(co.size);
    close(fd);
    std::map<std::string, std::vector<std::string>> out;
    std::string error;
    const std::string cpu = target.substr(0, target.find(':'));
    // The name comes from the file, and goes into a shell command: only "gfx" and hex digits pass.
    // (Issue 13 replaces the shell with an argument vector.)
    const bool plain = cpu.size() > 3 && cpu.size() < 16 && cpu.starts_with("gfx") &&
                       std::all_of(cpu.begin() + 3, cpu.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
    if (!plain) {
        unlink(path);
        throw std::runtime_error("not a target name: '" + cpu.substr(0, 40) + "'");
    }
    if (written) {
        const std::string cmd = "{ llvm-objdump-15 -d --no-show-raw-insn --mcpu=" + cpu + " " + path +
                                " || llvm-objdump -d --no-show-raw-insn --mcpu=" + cpu + " " + path + "; } 2>/dev/null";
        if (FILE* pipe = popen(cmd.c_str(), "r")) {
            char buf[4096];
            std::vector<std::string>* current = nullptr;
            while (fgets(buf, sizeof buf, pipe)) {
                std::string line(buf);
                while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
                const size_t open = line.find(" <"), close = line.rfind(">:");
                if (!line.empty() && line[0] != '\t' && open != std::string::npos && close != std::string::npos) {
                    const std::string name = line.substr(open + 2, close - open - 2);
                    current = names.count(name) ? &out[name] : nullptr;
                } else if (line.empty()) {
                    current = nullptr;
                } else if (current && line[0] == '\t') {
                    std::string i = line.substr(1, line.find("//") == std::string::npos ? std::string::npos
                                                                                      : line.find("//") - 1);
                    while (!i.empty() && i.back() == ' ') i.pop_back();
                    current->push_back(i);
                }
            }
            pclose(pipe);
        }
    }
    for (auto& [name, lines] : out) { // objdump runs on into the padding (s_nop) after the last s_endpgm
        size_t end = lines.size();
        while (end > 0 && lines[end - 1].rfind("s_endpgm", 0) != 0) --end;
        if (end > 0) lines.resize(end);
    }
    unlink(path);
    if (out.empty()) throw std::runtime_error("neither this libamd-comgr nor llvm-objdump-15 disassembles " + target);
    return out;
}

/// Whether `size` bytes from `offset` lie within `n` (compared without adding, so nothing wraps).
bool within(uint64_t offset, uint64_t size, uint64_t n) { return offset <= n && size <= n - offset; }

/// Throws unless `d` starts with a whole msgpack document whose map keys are all strings, as the
/// AMDGPU metadata's are: comgr's LLVM stops on a map keyed by maps or arrays (llvm_unreachable).
void check_metadata(span d)
{
    std::vector<uint64_t> left; // of each array and map open, the items to come (a map's keys and values)
    std::vector<bool> is_map;
    size_t at = 0;
    auto take = [&](uint64_t n) {
        if (n > d.size - at) throw std::runtime_error("its AMDGPU metadata (msgpack) is cut short");
        at += n;
        return reinterpret_cast<const unsigned char*>(d.data + at - n);
    };
    auto length = [&](int bytes) { // big-endian
        uint64_t n = 0;
        for (const unsigned char* p = take(bytes); bytes--; ++p) n = n << 8 | *p;
        return n;
    };
    do {
        const bool key = !is_map.empty() && is_map.back() && left.back() % 2 == 0;
        const unsigned char b = *take(1);
        uint64_t items = 0;
        bool map = false, string = false;
        if (b >= 0xa0 && b <= 0xbf) take(b & 0x1f), string = true;                   // fixstr
        else if (b >= 0xd9 && b <= 0xdb) take(length(1 << (b - 0xd9))), string = true; // str 8, 16, 32
        else if (b >= 0x90 && b <= 0x9f) items = b & 0x0f;                            // fixarray
        else if (b == 0xdc || b == 0xdd) items = length(b == 0xdc ? 2 : 4);           // array 16, 32
        else if (b >= 0x80 && b <= 0x8f) items = 2 * (b & 0x0f), map = true;          // fixmap
        else if (b == 0xde || b == 0xdf) items = 2 * length(b == 0xde ? 2 : 4), map = true; // map 16, 32
        else if (b >= 0xc4 && b <= 0xc6) take(length(1 << (b - 0xc4)));              // bin 8, 16, 32
        else if (b >= 0xc7 && b <= 0xc9) take(length(1 << (b - 0xc7)) + 1);          // ext 8, 16, 32
        else if (b >= 0xd4 && b <= 0xd8) take((1 << (b - 0xd4)) + 1);                // fixext
        else if (b >= 0xca && b <= 0xd3) take(b == 0xca ? 4 : b == 0xcb ? 8 : 1 << ((b - 0xcc) & 3)); // numbers
        else if (b == 0xc1) throw std::runtime_error("its AMDGPU metadata is not msgpack");
        // else a fixint, nil or a boolean: the byte is all of it
        if (key && !string) throw std::runtime_error("its AMDGPU metadata has a map key that is not a string");
        if (!left.empty()) --left.back();
        if (items > 0) {
            left.push_back(items);
            is_map.push_back(map);
        }
        while (!left.empty() && left.back() == 0) {
            left.pop_back();
            is_map.pop_back();
        }
    } while (!left.empty());
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
        throw std::runtime_error("a code object that is not a 64-bit little-endian ELF file");
    std::memcpy(&eh, co.data, sizeof eh);
    const uint64_t phdrs = eh.e_phnum * sizeof(Elf64_Phdr);
    if (eh.e_phnum && (eh.e_phentsize != sizeof(Elf64_Phdr) || !within(eh.e_phoff, phdrs, co.size)))
        throw std::runtime_error("a code object's program headers run past its end");
    for (size_t i = 0; i < eh.e_phnum; ++i) {
        Elf64_Phdr ph;
        std::memcpy(&ph, co.data + eh.e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_type != PT_NOTE) continue;
        if (!within(ph.p_offset, ph.p_filesz, co.size))
            throw std::runtime_error("a code object's note segment runs past its end");
        check_notes({co.data + ph.p_offset, ph.p_filesz});
    }
    if (eh.e_shoff == 0) return; // no sections
    Elf64_Shdr sh;
    if (eh.e_shentsize != sizeof sh || !within(eh.e_shoff, sizeof sh, co.size))
        throw std::runtime_error("a code object's section headers run past its end");
    std::memcpy(&sh, co.data + eh.e_shoff, sizeof sh);
    const uint64_t sections = eh.e_shnum ? eh.e_shnum : sh.sh_size; // more than e_shnum holds: in section 0
    if (sections > (co.size - eh.e_shoff) / sizeof sh)
        throw std::runtime_error("a code object's section headers run past its end");
    for (uint64_t i = 0; i < sections; ++i) {
        std::memcpy(&sh, co.data + eh.e_shoff + i * sizeof sh, sizeof sh);
        // llvm-objdump (the disassembly's fallback) reads a symbol table as its header says and
        // warns for every symbol it cannot read: millions of lines, minutes, for a few kilobytes.
        if (sh.sh_type != SHT_NULL && sh.sh_type != SHT_NOBITS && !within(sh.sh_offset, sh.sh_size, co.size))
            throw std::runtime_error("a code object's section " + std::to_string(i) + " runs past its end");
        if ((sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) && sh.sh_entsize != sizeof(Elf64_Sym))
            throw std::runtime_error("a code object's symbol table has entries of " + std::to_string(sh.sh_entsize) +
                                     " bytes, not " + std::to_string(sizeof(Elf64_Sym)));
        if (sh.sh_type == SHT_NOTE) check_notes({co.data + sh.sh_offset, sh.sh_size});
    }
}

/// The kernels of one code object; `target` is its bundle entry's ("gfx90a"), or "" to ask comgr;
/// each with its disassembly when `with_instructions`.
json kernels_of(span code_object, std::string target, bool with_instructions)
{
    check_code_object(code_object);
    comgr_data data(code_object);
    size_t isa_size = 0; // comgr 2.4 answers an empty name for some code objects: then it is unknown
    std::string isa;
    if (amd_comgr_get_data_isa_name(data.get(), &isa_size, nullptr) == AMD_COMGR_STATUS_SUCCESS && isa_size > 1) {
        isa.resize(isa_size);
        comgr_data::check(amd_comgr_get_data_isa_name(data.get(), &isa_size, isa.data()), "ISA name");
        isa.resize(std::strlen(isa.c_str()));
    }
    if (target.empty()) target = isa.empty() ? "unknown" : isa.substr(isa.rfind("--") + 2);

    node root;
    comgr_data::check(amd_comgr_get_data_metadata(data.get(), &root.n), "metadata");
    root.owned = true;
    node list;
    json kernels = json::array();
    if (amd_comgr_metadata_lookup(root.n, "amdhsa.kernels", &list.n) == AMD_COMGR_STATUS_SUCCESS) {
        list.owned = true;
        size_t count = 0;
        comgr_data::check(amd_comgr_get_metadata_list_size(list.n, &count), "kernel count");
        for (size_t i = 0; i < count; ++i) {
            node k;
            comgr_data::check(amd_comgr_index_list_metadata(list.n, i, &k.n), "kernel");
            k.owned = true;
            json j;
            for (const char* key : {".name", ".symbol", ".vgpr_count", ".agpr_count", ".sgpr_count",
                                    ".group_segment_fixed_size", ".private_segment_fixed_size", ".vgpr_spill_count",
                                    ".sgpr_spill_count", ".wavefront_size", ".max_flat_workgroup_size",
                                    ".kernarg_segment_size", ".uses_dynamic_stack"})
                j[key + 1] = field(k.n, key);
            kernels.push_back(j);
        }
    }
    if (with_instructions && !kernels.empty()) { // a kernel's code is the function its descriptor (symbol.kd) names
        std::set<std::string> names;
        auto function = [](const json& k) {
            const std::string s = k["symbol"].is_string() ? k["symbol"].get<std::string>() : "";
            return s.size() > 3 && s.ends_with(".kd") ? s.substr(0, s.size() - 3) : s;
        };
        for (const auto& k : kernels) names.insert(function(k));
        std::map<std::string, std::vector<std::string>> code;
        std::string why;
        try {
            code = instructions_of(code_object, isa.empty() ? "amdgcn-amd-amdhsa--" + target : isa, names);
        } catch (const std::exception&) {
            try {
                code = objdump_instructions(code_object, target, names);
            } catch (const std::exception& e) { // the other targets are still read
                why = e.what();
            }
        }
        for (auto& k : kernels) {
            const auto it = code.find(function(k));
            k["instructions"] = it == code.end() ? json(nullptr) : json(it->second);
            if (it == code.end()) k["instructions_missing"] = why.empty() ? "no code for its symbol" : why;
        }
    }
    return {{"isa", isa.empty() ? json(nullptr) : json(isa)}, {"target", target}, {"kernels", kernels}};
}

/// The code objects of the clang offload bundles laid one after another in `s`.
json bundles(span s, bool with_instructions)
{
    json out = json::array();
    size_t at = 0;
    while (at + magic_size + 8 <= s.size) {
        if (std::memcmp(s.data + at, bundle_magic, magic_size) != 0) {
            ++at; // the linker pads between bundles
            continue;
        }
        const size_t base = at, n = s.size;
        const uint64_t entries = u64(s.data + at + magic_size);
        size_t p = at + magic_size + 8, end = p;
        // Every size below comes from the file: compare without adding, so nothing wraps.
        for (uint64_t e = 0; e < entries; ++e) {
            if (n - p < 24) throw std::runtime_error("offload bundle index runs past its section");
            const uint64_t offset = u64(s.data + p), size = u64(s.data + p + 8), id_size = u64(s.data + p + 16);
            if (id_size > n - p - 24) throw std::runtime_error("offload bundle entry name runs past its section");
            if (offset > n - base || size > n - base - offset)
                throw std::runtime_error("offload bundle entry runs past its section");
            const std::string id(s.data + p + 24, id_size);
            p += 24 + id_size;
            end = std::max<size_t>(end, base + offset + size);
            if (size == 0 || id.find("amdgcn") == std::string::npos) continue; // the host entry
            const size_t cut = id.rfind("--"); // "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-"
            json co = kernels_of({s.data + base + offset, size}, cut == std::string::npos ? "" : id.substr(cut + 2),
                                 with_instructions);
            co["bundle_entry"] = id;
            out.push_back(co);
        }
        at = std::max(end, p);
    }
    return out;
}

/// The code objects in `file`: a host shared object, an offload bundle or a bare code object.
json inspect(span file, bool with_instructions)
{
    auto compressed = [&](span s) {
        for (size_t i = 0; i + 4 <= s.size; ++i)
            if (std::memcmp(s.data + i, compressed_magic, 4) == 0) return true;
        return false;
    };
    if (file.size >= magic_size && std::memcmp(file.data, bundle_magic, magic_size) == 0)
        return bundles(file, with_instructions);
    if (file.size >= 4 && std::memcmp(file.data, compressed_magic, 4) == 0)
        throw std::runtime_error("a compressed offload bundle (ROCm 6's --offload-compress), which this reader does not "
                                 "decompress");
    if (file.size < 20 || std::memcmp(file.data, elf_magic, 4) != 0)
        throw std::runtime_error("neither an ELF file nor an offload bundle");
    uint16_t machine;
    std::memcpy(&machine, file.data + 18, 2);
    if (machine == em_amdgpu) { // a bare code object
        json co = kernels_of(file, "", with_instructions);
        co["bundle_entry"] = nullptr;
        return json::array({co});
    }

    const elf_ptr owner = open_elf(file);
    Elf* elf = owner.get();
    if (!elf) throw std::runtime_error(std::string("libelf cannot read it: ") + elf_errmsg(-1));
    size_t strings = 0, sections = 0;
    elf_getshdrnum(elf, &sections);
    if (sections == 0 || elf_getshdrstrndx(elf, &strings) != 0)
        throw std::runtime_error("no section headers: where its device code is cannot be told");
    json out = json::array();
    std::string trouble;
    for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) continue;
        const char* name = elf_strptr(elf, strings, sh.sh_name);
        if (!name || sh.sh_type == SHT_NOBITS) continue;
        if (std::strcmp(name, ".llvm.offloading") == 0)
            trouble = "its device code is in .llvm.offloading (clang's new offload driver), which this reader does not read";
        if (std::strcmp(name, ".hip_fatbin") != 0) continue;
        if (sh.sh_offset > file.size || sh.sh_size > file.size - sh.sh_offset) {
            trouble = ".hip_fatbin runs past the end of the file";
            break;
        }
        const span section{file.data + sh.sh_offset, sh.sh_size};
        for (auto& co : bundles(section, with_instructions)) out.push_back(std::move(co));
        if (out.empty() && compressed(section))
            trouble = "its offload bundles are compressed (ROCm 6's --offload-compress), which this reader does not "
                      "decompress: rebuild without it";
    }
    if (out.empty() && !trouble.empty()) throw std::runtime_error(trouble);
    return out;
}

/// The ABI's answer: what `read` returns as JSON text, or null with the reason in *error. Names
/// from the file that are not UTF-8 keep their other characters (bad bytes become U+FFFD).
template <class F> char* answer(F read, char** error)
{
    try {
        return strdup(read().dump(-1, ' ', false, json::error_handler_t::replace).c_str());
    } catch (const std::exception& e) {
        if (error) *error = strdup(e.what());
        return nullptr;
    }
}

char* inspect_file(const char* path, bool with_instructions, char** error)
{
    return answer(
        [&] {
            const std::vector<char> file = read_file(path);
            return json{{"file", path}, {"code_objects", inspect({file.data(), file.size()}, with_instructions)}};
        },
        error);
}

} // namespace

extern "C" __attribute__((visibility("default"))) char* wavebench_amd_inspect(const char* path, char** error)
{
    return inspect_file(path, false, error);
}

extern "C" __attribute__((visibility("default"))) char* wavebench_amd_inspect_isa(const char* path, char** error)
{
    return inspect_file(path, true, error);
}

extern "C" __attribute__((visibility("default"))) char* wavebench_amd_inspect_bytes(const char* data, size_t size,
                                                                                    int with_instructions, char** error)
{
    const span bytes{data, size};
    return answer([&] { return json{{"file", nullptr}, {"code_objects", inspect(bytes, with_instructions != 0)}}; },
                  error);
}

extern "C" __attribute__((visibility("default"))) void wavebench_amd_free(char* p) { std::free(p); }
