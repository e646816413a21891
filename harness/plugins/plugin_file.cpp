// The check of a plugin file before dlopen (plugins/plugin_file.h). Every offset, count and size read from
// the file is compared with what the file holds before anything is read there, in unsigned 64-bit
// arithmetic that cannot overflow (a division instead of a multiplication).
#include "harness/plugins/plugin_file.h"

#include "harness/common/files.h"
#include "wavebench/plugin_abi.h"

#include <cstdio>
#include <cstring>
#include <elf.h>
#include <stdexcept>

namespace wb {

namespace {

// This build's machine, from the compiler's predefined macros: plugins are built for it.
#if defined(__x86_64__)
constexpr uint16_t host_machine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t host_machine = EM_AARCH64;
#elif defined(__powerpc64__)
constexpr uint16_t host_machine = EM_PPC64;
#elif defined(__riscv) && __riscv_xlen == 64
constexpr uint16_t host_machine = EM_RISCV;
#else
#error "harness/plugins/plugin_file.cpp: name this machine's ELF e_machine"
#endif
static_assert(sizeof(void*) == 8, "plugins are read as ELF64: wavebench is built for 64-bit machines");
constexpr unsigned char host_data = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;

const char* const rebuild = " (rebuild it, or copy it again)";

/// Why a file is refused; thrown inside this file only.
struct refused {
    std::string why;
};

[[noreturn]] void refuse(std::string why) { throw refused{std::move(why)}; }

std::string hex(uint64_t v)
{
    char s[24];
    std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(v));
    return s;
}

/// The file's bytes, read only where a check has said they are.
class image_reader {
public:
    explicit image_reader(std::string_view bytes) : bytes_(bytes) {}

    uint64_t size() const { return bytes_.size(); }

    /// Refuses the file unless `count` entries of `entry` bytes from byte `offset` lie within it;
    /// `what` names them in the message ("its section headers").
    void require(const std::string& what, uint64_t offset, uint64_t count, uint64_t entry) const
    {
        const uint64_t n = size();
        if (count == 0 || entry == 0) return; // nothing to read there
        if (offset > n)
            refuse("is truncated or corrupt: the start of " + what + " is at byte " + std::to_string(offset) +
                   ", past the file's end (" + std::to_string(n) + " bytes)" + rebuild);
        if (count <= (n - offset) / entry) return;
        // The end, where it can be written down: offset + count * entry without overflow.
        if (count <= (UINT64_MAX - offset) / entry)
            refuse("is truncated or corrupt: the end of " + what + " is at byte " +
                   std::to_string(offset + count * entry) + " of " + std::to_string(n) + rebuild);
        refuse("is corrupt: " + what + " (" + std::to_string(count) + " of " + std::to_string(entry) +
               " bytes) would not fit in any file" + rebuild);
    }

    /// A T at `offset`, after require() said it is there (memcpy: the file need not be aligned).
    template <class T> T at(uint64_t offset) const
    {
        T v;
        std::memcpy(&v, bytes_.data() + offset, sizeof v);
        return v;
    }
    std::string_view view(uint64_t offset, uint64_t length) const { return bytes_.substr(offset, length); }

private:
    std::string_view bytes_;
};

/// The identification and header: an ELF shared library for this machine.
Elf64_Ehdr check_header(const image_reader& r, std::string_view image)
{
    if (image.empty())
        refuse("is empty: a plugin is a shared library built with the wavebench SDK" + std::string(rebuild));
    if (image.substr(0, SELFMAG) != std::string_view(ELFMAG, SELFMAG))
        refuse("is not an ELF file (it starts with '" + shorten(image.substr(0, 8), 40) +
               "'): a plugin is a shared library (.so) built with the wavebench SDK (wavebench_add_plugin)");
    // e_machine is the first thing told, wherever the file is for: its offset (18) is the same
    // in both classes, its byte order the file's own.
    constexpr size_t machine_end = 20;
    if (image.size() < machine_end)
        refuse("is truncated: " + std::to_string(image.size()) + " bytes, less than an ELF header" + rebuild);
    const auto* ident = reinterpret_cast<const unsigned char*>(image.data());
    const unsigned char data = ident[EI_DATA];
    if (data != ELFDATA2LSB && data != ELFDATA2MSB)
        refuse("is corrupt: its ELF byte order (EI_DATA) is " + std::to_string(data) + ", neither 1 nor 2" + rebuild);
    const uint16_t machine =
        data == ELFDATA2LSB ? uint16_t(ident[18] | ident[19] << 8) : uint16_t(ident[18] << 8 | ident[19]);
    if (machine != host_machine) {
        const bool gpu = machine == EM_AMDGPU || machine == EM_CUDA;
        refuse("is an ELF file for " + elf_machine_name(machine) + " (e_machine " + std::to_string(machine) +
               "), not for this machine (" + elf_machine_name(host_machine) + "): " +
               (gpu ? "a GPU code object is no plugin; a plugin is the host library that carries it"
                    : "build the plugin for this machine, or run it where it was built for"));
    }
    const unsigned char cls = ident[EI_CLASS];
    if (cls == ELFCLASS32)
        refuse("is a 32-bit ELF file; plugins for this machine (" + elf_machine_name(host_machine) +
               ") are 64-bit: build it without -m32");
    if (cls != ELFCLASS64)
        refuse("is corrupt: its ELF class (EI_CLASS) is " + std::to_string(cls) + ", neither 1 nor 2" + rebuild);
    if (data != host_data)
        refuse(std::string("is a ") + (data == ELFDATA2MSB ? "big" : "little") + "-endian ELF file; this machine (" +
               elf_machine_name(host_machine) + ") is " + (host_data == ELFDATA2MSB ? "big" : "little") + "-endian");
    if (ident[EI_VERSION] != EV_CURRENT)
        refuse("is corrupt: its ELF version (EI_VERSION) is " + std::to_string(ident[EI_VERSION]) + ", not 1" +
               rebuild);

    r.require("its ELF header", 0, 1, sizeof(Elf64_Ehdr));
    const auto h = r.at<Elf64_Ehdr>(0);
    if (h.e_version != EV_CURRENT)
        refuse("is corrupt: its ELF version (e_version) is " + std::to_string(h.e_version) + ", not 1" + rebuild);
    switch (h.e_type) {
    case ET_DYN:
        break;
    case ET_EXEC:
        refuse("is an executable (ELF type ET_EXEC), not a shared library: a plugin is linked with -shared "
               "(wavebench_add_plugin does)");
    case ET_REL:
        refuse("is an object file (ELF type ET_REL), not a shared library: link it into one with -shared "
               "(wavebench_add_plugin does)");
    case ET_CORE:
        refuse("is a core dump (ELF type ET_CORE), not a shared library");
    default:
        refuse("is corrupt: its ELF type (e_type) is " + std::to_string(h.e_type) + ", not ET_DYN (a shared library)" +
               rebuild);
    }
    if (h.e_ehsize < sizeof(Elf64_Ehdr))
        refuse("is corrupt: its ELF header size (e_ehsize) is " + std::to_string(h.e_ehsize) + ", less than " +
               std::to_string(sizeof(Elf64_Ehdr)) + rebuild);
    return h;
}

/// The program headers: a dynamic segment, and every loaded segment's bytes within the file (a
/// mapping past the end would fault when read).
void check_segments(const image_reader& r, const Elf64_Ehdr& h)
{
    if (h.e_phnum == 0)
        refuse("has no program headers, which every shared library has: it is corrupt, or no library" +
               std::string(rebuild));
    if (h.e_phentsize != sizeof(Elf64_Phdr))
        refuse("is corrupt: its program headers are " + std::to_string(h.e_phentsize) + " bytes each, not " +
               std::to_string(sizeof(Elf64_Phdr)) + rebuild);
    r.require("its program headers", h.e_phoff, h.e_phnum, sizeof(Elf64_Phdr));
    bool dynamic = false;
    for (uint64_t i = 0; i < h.e_phnum; ++i) {
        const auto p = r.at<Elf64_Phdr>(h.e_phoff + i * sizeof(Elf64_Phdr));
        if (p.p_type != PT_LOAD && p.p_type != PT_DYNAMIC) continue;
        const std::string what =
            "its segment " + std::to_string(i) + (p.p_type == PT_LOAD ? " (PT_LOAD)" : " (PT_DYNAMIC)");
        r.require(what, p.p_offset, 1, p.p_filesz);
        if (p.p_filesz > p.p_memsz)
            refuse("is corrupt: " + what + " has more bytes in the file (" + std::to_string(p.p_filesz) +
                   ") than in memory (" + std::to_string(p.p_memsz) + ")" + rebuild);
        dynamic |= p.p_type == PT_DYNAMIC;
    }
    if (!dynamic)
        refuse("has no dynamic segment (PT_DYNAMIC): it is not a shared library that can be loaded" +
               std::string(rebuild));
}

/// Whether `vaddr` lies in a loaded, executable segment.
bool executable(const image_reader& r, const Elf64_Ehdr& h, uint64_t vaddr)
{
    for (uint64_t i = 0; i < h.e_phnum; ++i) {
        const auto p = r.at<Elf64_Phdr>(h.e_phoff + i * sizeof(Elf64_Phdr));
        if (p.p_type == PT_LOAD && (p.p_flags & PF_X) && vaddr >= p.p_vaddr && vaddr - p.p_vaddr < p.p_memsz)
            return true;
    }
    return false;
}

/// The section header table: where it is and how many entries (more than 0xff00 are counted in
/// section 0's sh_size).
struct sections {
    uint64_t offset = 0, count = 0;
    Elf64_Shdr at(const image_reader& r, uint64_t i) const { return r.at<Elf64_Shdr>(offset + i * sizeof(Elf64_Shdr)); }
};

sections check_sections(const image_reader& r, const Elf64_Ehdr& h)
{
    const std::string no_table = "has no section headers, so its dynamic symbol table cannot be checked before it "
                                 "is loaded: rebuild it (strip keeps them; sstrip and --strip-sections do not)";
    if (h.e_shoff == 0) refuse(no_table);
    if (h.e_shentsize != sizeof(Elf64_Shdr))
        refuse("is corrupt: its section headers are " + std::to_string(h.e_shentsize) + " bytes each, not " +
               std::to_string(sizeof(Elf64_Shdr)) + rebuild);
    sections s{h.e_shoff, h.e_shnum};
    if (s.count == 0) { // the count in section 0, if any
        r.require("its section headers", s.offset, 1, sizeof(Elf64_Shdr));
        s.count = s.at(r, 0).sh_size;
        if (s.count == 0) refuse(no_table);
    }
    r.require("its section headers", s.offset, s.count, sizeof(Elf64_Shdr));
    return s;
}

/// A section's bytes, after checking they are in the file.
std::string_view contents(const image_reader& r, const Elf64_Shdr& sh, const std::string& what)
{
    if (sh.sh_type == SHT_NOBITS) refuse("is corrupt: " + what + " has no bytes in the file (SHT_NOBITS)" + rebuild);
    if (sh.sh_size == 0) return {}; // wherever its offset says it is
    r.require(what, sh.sh_offset, 1, sh.sh_size);
    return r.view(sh.sh_offset, sh.sh_size);
}

/// The entry point in the dynamic symbol table: defined, a global function, in executable code.
void check_entry(const image_reader& r, const Elf64_Ehdr& h, const sections& s)
{
    uint64_t dynsym = 0;
    for (uint64_t i = 1; i < s.count && !dynsym; ++i)
        if (s.at(r, i).sh_type == SHT_DYNSYM) dynsym = i;
    const std::string entry = "'" WB_PLUGIN_ENTRY "'";
    // Worded as the check after dlopen words it (plugins/plugins.cpp).
    const std::string how = ": not a wavebench plugin (see WB_PLUGIN in core/include/wavebench/plugin.h)";
    if (!dynsym) refuse("has no dynamic symbol table (.dynsym), so no " + entry + " entry point" + how);
    const Elf64_Shdr sym = s.at(r, dynsym);
    const std::string sym_name = "its dynamic symbol table (section " + std::to_string(dynsym) + ")";
    if (sym.sh_entsize != sizeof(Elf64_Sym))
        refuse("is corrupt: " + sym_name + " has entries of " + std::to_string(sym.sh_entsize) + " bytes, not " +
               std::to_string(sizeof(Elf64_Sym)) + rebuild);
    contents(r, sym, sym_name);
    if (sym.sh_link == 0 || sym.sh_link >= s.count)
        refuse("is corrupt: " + sym_name + " names its string table as section " + std::to_string(sym.sh_link) +
               ", which " + (sym.sh_link ? "does not exist (there are " + std::to_string(s.count) + ")" : "is none") +
               rebuild);
    const Elf64_Shdr str = s.at(r, sym.sh_link);
    const std::string str_name = "its dynamic string table (section " + std::to_string(sym.sh_link) + ")";
    if (str.sh_type != SHT_STRTAB) refuse("is corrupt: " + str_name + " is not a string table" + rebuild);
    const std::string_view names = contents(r, str, str_name);

    // The name with its terminating NUL: a name cut off by the table's end is no match.
    constexpr std::string_view wanted{WB_PLUGIN_ENTRY, sizeof WB_PLUGIN_ENTRY};
    const uint64_t n = sym.sh_size / sizeof(Elf64_Sym);
    bool found = false;
    Elf64_Sym e{};
    for (uint64_t i = 1; i < n; ++i) {
        const auto y = r.at<Elf64_Sym>(sym.sh_offset + i * sizeof(Elf64_Sym));
        if (y.st_name >= names.size() || names.substr(y.st_name, wanted.size()) != wanted) continue;
        if (!found || (e.st_shndx == SHN_UNDEF && y.st_shndx != SHN_UNDEF)) e = y; // the definition, if any
        found = true;
    }
    if (!found) refuse("has no " + entry + " entry point in its dynamic symbol table" + how);
    if (e.st_shndx == SHN_UNDEF)
        refuse("has " + entry + " in its dynamic symbol table but does not define it (it calls one)" + how);
    if (e.st_shndx >= s.count && e.st_shndx < SHN_LORESERVE)
        refuse("is corrupt: its " + entry + " is defined in section " + std::to_string(e.st_shndx) +
               ", which does not exist (there are " + std::to_string(s.count) + ")" + rebuild);
    const unsigned type = ELF64_ST_TYPE(e.st_info), bind = ELF64_ST_BIND(e.st_info);
    if (type != STT_FUNC)
        refuse("has an " + entry + " entry point that is " +
               (type == STT_OBJECT      ? "data (STT_OBJECT)"
                : type == STT_NOTYPE    ? "untyped (STT_NOTYPE)"
                : type == STT_GNU_IFUNC ? "an indirect function (STT_GNU_IFUNC)"
                                        : "of symbol type " + std::to_string(type)) +
               ", not a function" + how);
    if (bind != STB_GLOBAL)
        refuse("has an " + entry + " entry point that is " +
               (bind == STB_LOCAL  ? "local (STB_LOCAL)"
                : bind == STB_WEAK ? "weak (STB_WEAK)"
                                   : "of binding " + std::to_string(bind)) +
               ", not global" + how);
    if (!executable(r, h, e.st_value))
        refuse("is corrupt: its " + entry + " (at " + hex(e.st_value) + ") is not in an executable segment" + rebuild);
}

} // namespace

std::string elf_machine_name(uint16_t m)
{
    switch (m) {
    case EM_X86_64:
        return "x86-64";
    case EM_386:
        return "x86 (32-bit)";
    case EM_AARCH64:
        return "AArch64";
    case EM_ARM:
        return "ARM (32-bit)";
    case EM_PPC64:
        return "PowerPC64";
    case EM_PPC:
        return "PowerPC";
    case EM_RISCV:
        return "RISC-V";
    case EM_S390:
        return "IBM S/390";
    case EM_MIPS:
        return "MIPS";
    case EM_SPARCV9:
        return "SPARC V9";
    case EM_IA_64:
        return "IA-64";
    case EM_LOONGARCH:
        return "LoongArch";
    case EM_AMDGPU:
        return "an AMD GPU";
    case EM_CUDA:
        return "an NVIDIA GPU";
    default:
        return "an unknown machine";
    }
}

std::string check_plugin_image(std::string_view image)
{
    try {
        const image_reader r(image);
        const Elf64_Ehdr h = check_header(r, image);
        check_segments(r, h);
        check_entry(r, h, check_sections(r, h));
        return "";
    } catch (const refused& e) {
        return e.why;
    }
}

std::vector<elf_section> elf_sections(std::string_view image)
{
    try {
        const image_reader r(image);
        const Elf64_Ehdr h = check_header(r, image);
        const sections s = check_sections(r, h);
        // More than 0xff00 sections: the index of the names' section is in section 0's sh_link.
        const uint64_t at = h.e_shstrndx == SHN_XINDEX ? s.at(r, 0).sh_link : h.e_shstrndx;
        if (at == SHN_UNDEF || at >= s.count)
            refuse("is corrupt: its section names are in section " + std::to_string(at) + " (e_shstrndx), which " +
                   (at ? "does not exist (there are " + std::to_string(s.count) + ")" : "is none") + rebuild);
        const std::string names_what = "its section names (section " + std::to_string(at) + ")";
        const Elf64_Shdr names_header = s.at(r, at);
        if (names_header.sh_type != SHT_STRTAB)
            refuse("is corrupt: " + names_what + " are not a string table" + rebuild);
        const std::string_view names = contents(r, names_header, names_what);
        std::vector<elf_section> out;
        for (uint64_t i = 1; i < s.count; ++i) {
            const Elf64_Shdr sh = s.at(r, i);
            const std::string what = "its section " + std::to_string(i);
            const size_t end = sh.sh_name < names.size() ? names.find('\0', sh.sh_name) : std::string_view::npos;
            if (end == std::string_view::npos)
                refuse("is corrupt: the name of " + what + " (at " + std::to_string(sh.sh_name) + ") is not within " +
                       names_what + rebuild);
            out.push_back({names.substr(sh.sh_name, end - sh.sh_name), sh.sh_type, sh.sh_flags,
                           sh.sh_type == SHT_NOBITS ? std::string_view() : contents(r, sh, what)});
        }
        return out;
    } catch (const refused& e) {
        throw std::invalid_argument(e.why);
    }
}

std::string check_plugin_file(const std::filesystem::path& file)
{
    std::string image;
    try {
        // read_input reads standard input for "-": a file of that name is ./-.
        image = read_input(file == "-" ? "./-" : file, "plugin file", plugin_file_limit);
    } catch (const file_error& e) {
        return std::string("cannot be read: ") + e.what();
    }
    return check_plugin_image(image);
}

} // namespace wb
