// Loading plugins: every refusal names the file and the reason, the rest load, and a plugin's
// library stays loaded as long as anything from it is held.
#include <boost/test/unit_test.hpp>

#include "harness/platform/platform.h"
#include "harness/plugins/plugin_file.h"
#include "harness/plugins/plugins.h"
#include "harness/worker/wire.h"

#include <cstring>
#include <elf.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

BOOST_AUTO_TEST_SUITE(loader_test)

namespace {

namespace fs = std::filesystem;

fs::path build() { return wb::platform::build_dir(); }
fs::path fixture(const std::string& name) { return build() / "tests" / "plugins" / "malformed" / (name + ".so"); }
fs::path atomic_plugin() { return build() / "plugins" / "cpu" / "reduce_atomic.so"; }

/// The reason `file` is refused for, or "" if it loads.
std::string refusal(const fs::path& file)
{
    wb::plugin_registry reg(wb::platform_kind::cpu);
    reg.add_file(file);
    BOOST_REQUIRE_EQUAL(reg.plugins().size() + reg.rejections().size(), 1u);
    if (reg.rejections().empty()) return "";
    BOOST_CHECK_EQUAL(reg.rejections()[0].path, file);
    return reg.rejections()[0].reason;
}

#define CHECK_REFUSED(file, words)                                                                                     \
    do {                                                                                                               \
        const std::string why = refusal(file);                                                                         \
        BOOST_TEST_INFO("reason: " << why);                                                                            \
        BOOST_CHECK_NE(why.find(words), std::string::npos);                                                            \
    } while (0)

struct temp_dir {
    temp_dir()
    {
        char tmpl[] = "/tmp/wavebench-loader-XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~temp_dir() { fs::remove_all(path); }
    fs::path path;
};

BOOST_AUTO_TEST_CASE(a_good_plugin_loads) { BOOST_CHECK_EQUAL(refusal(atomic_plugin()), ""); }

// A platform whose plugins/<platform>/ holds none is told how to get them: the cpu plugins are built
// (no hint), and a platform no build configures is named with what to run.
BOOST_AUTO_TEST_CASE(an_unbuilt_platform_says_how_to_build_it)
{
    BOOST_CHECK_EQUAL(wb::unbuilt_platform_hint("cpu"), "");
    const std::string hint = wb::unbuilt_platform_hint("vulkan");
    BOOST_CHECK_MESSAGE(hint.find("configured without the vulkan platform") != std::string::npos, hint);
    BOOST_CHECK_MESSAGE(hint.find("--target wavebench-vulkan") != std::string::npos, hint);
}

BOOST_AUTO_TEST_CASE(missing_files_and_non_libraries_are_refused)
{
    CHECK_REFUSED(build() / "no-such-plugin.so", "does not exist");
    temp_dir d;
    std::ofstream(d.path / "garbage.so") << "not an ELF file\n";
    CHECK_REFUSED(d.path / "garbage.so", "is not an ELF file (it starts with 'not an E')");
}

BOOST_AUTO_TEST_CASE(a_library_without_the_entry_point_is_refused)
{
    CHECK_REFUSED(fixture("no_entry"), "has no 'wavebench_plugin' entry point in its dynamic symbol table: not a "
                                       "wavebench plugin");
}

BOOST_AUTO_TEST_CASE(abi_mismatches_are_refused)
{
    const std::string v = std::to_string(WB_PLUGIN_ABI_VERSION);
    CHECK_REFUSED(fixture("declines_abi"), "declined plugin ABI version " + v);
    CHECK_REFUSED(fixture("wrong_abi_version"), "plugin ABI version 99; this wavebench speaks version " + v);
}

BOOST_AUTO_TEST_CASE(a_plugin_for_another_platform_is_refused_with_what_to_do)
{
    CHECK_REFUSED(fixture("wrong_platform"), "built for platform 'nvidia', not 'cpu' (run it with --platform nvidia)");
    wb::plugin_registry nvidia(wb::platform_kind::nvidia);
    nvidia.add_file(atomic_plugin());
    BOOST_REQUIRE_EQUAL(nvidia.rejections().size(), 1u);
    BOOST_CHECK_NE(nvidia.rejections()[0].reason.find("built for platform 'cpu'"), std::string::npos);
}

BOOST_AUTO_TEST_CASE(platform_names_are_read_in_one_place)
{
    for (auto k : wb::platform_kinds) BOOST_CHECK(wb::parse_platform(wb::to_string(k)) == k);
    BOOST_CHECK(!wb::parse_platform("metal"));
    BOOST_CHECK(!wb::parse_platform("CPU"));
    BOOST_CHECK(wb::plugin_registry("nvidia").platform() == wb::platform_kind::nvidia);
    BOOST_CHECK_THROW(wb::plugin_registry("metal"), std::invalid_argument);
    BOOST_CHECK_THROW(wb::platform::load("metal"), wb::platform_unavailable);
}

BOOST_AUTO_TEST_CASE(unknown_families_and_incomplete_descriptors_are_refused)
{
    CHECK_REFUSED(fixture("unknown_family"), "family 'sort', which this wavebench does not know");
    CHECK_REFUSED(fixture("incomplete"), "incomplete descriptor");
}

BOOST_AUTO_TEST_CASE(garbled_descriptors_are_refused_naming_the_field)
{
    CHECK_REFUSED(fixture("garbled_variant"), "its variant name is not printable: 'ab\\x07c'");
    CHECK_REFUSED(fixture("garbled_platform"), "its platform name is not printable: 'cp\\x1b[2Ju'");
    CHECK_REFUSED(fixture("long_summary"), "its summary is longer than 1024 bytes: 'summary summary ");
    CHECK_REFUSED(fixture("bad_utf8_seed"), "its seed is not printable: 'caf\\xc3'");
    CHECK_REFUSED(fixture("too_many_kernels"),
                  "declares 100000 kernels (n_kernels), more than the 256 a plugin may have");
    CHECK_REFUSED(fixture("null_tunables"), "declares 3 tunables (n_tunables) but no table of them");
    CHECK_REFUSED(fixture("bad_default"), "its tunable 'block_size' defaults to 100, which it does not allow (it must "
                                          "be 32..1024, powers of two)");
    CHECK_REFUSED(fixture("undeclared_tunable"),
                  "its kernel 'reduce_k' takes its block size from tunable 'block', which it does not declare");
    CHECK_REFUSED(fixture("constraint_unknown_tunable"),
                  "its constraints[0] names tunable 'tile', which it does not declare");
    CHECK_REFUSED(fixture("constraint_null_name"), "its constraints[0].a names no tunable (it is null or empty)");
    CHECK_REFUSED(fixture("null_constraints"), "declares 2 constraints (n_constraints) but no table of them");
}

BOOST_AUTO_TEST_CASE(constraints_load_from_sdk_2_2_and_older_descriptors_have_none)
{
    wb::plugin_registry reg(wb::platform_kind::cpu);
    reg.add_file(build() / "plugins" / "cpu" / "conv_tiled.so");
    // Past its size, this one holds a constraint naming a tunable it does not declare.
    reg.add_file(build() / "tests" / "plugins" / "cpu" / "reduce_test_sdk21_descriptor.so");
    BOOST_CHECK(reg.rejections().empty());
    BOOST_REQUIRE_EQUAL(reg.plugins().size(), 2u);
    const wb::plugin& tiled = reg.plugins()[0];
    BOOST_REQUIRE_EQUAL(tiled.constraints.size(), 1u);
    BOOST_CHECK_EQUAL(wb::describe_constraint(tiled.constraints[0]), "block_size × outputs ≤ 8192");
    BOOST_CHECK_EQUAL(reg.plugins()[1].variant, "test_sdk21_descriptor");
    BOOST_CHECK(reg.plugins()[1].constraints.empty());
    BOOST_CHECK_EQUAL(reg.plugins()[1].sdk_version, 201u);
}

/// A declaration that passes, to garble one field at a time.
wb::plugin good_declaration()
{
    wb::plugin p;
    p.fam = wb::find_family("reduce");
    p.variant = "tree_2";
    p.summary = "caf\u00e9: UTF-8 is text";
    p.kernels = {{"reduce_tree<256, float>", "block_size", 0, 4, "", 0}, {"ns::fixed", "", 64, 0, "unroll", 4}};
    p.tunables = {{"block_size", "work-items", 256, 32, 1024, true, {}}, {"unroll", "", 4, 0, 0, false, {2, 4}}};
    return p;
}

std::string declaration_refused(void (*garble)(wb::plugin&))
{
    wb::plugin p = good_declaration();
    garble(p);
    return wb::check_declaration(p);
}

BOOST_AUTO_TEST_CASE(each_field_of_a_declaration_is_checked)
{
    BOOST_CHECK_EQUAL(wb::check_declaration(good_declaration()), "");
    const std::pair<void (*)(wb::plugin&), std::string> cases[] = {
        {[](wb::plugin& p) { p.variant = ""; }, "its variant name is empty"},
        {[](wb::plugin& p) { p.variant = "a b"; }, "its variant name is not a name (letters, digits and '_'): 'a b'"},
        {[](wb::plugin& p) { p.variant = std::string(65, 'v'); }, "its variant name is longer than 64 bytes"},
        {[](wb::plugin& p) { p.variant = "caf\xc3\xa9"; }, "its variant name is not printable: 'caf\\xc3\\xa9'"},
        {[](wb::plugin& p) { p.summary = "two\nlines"; }, "its summary is not printable: 'two\\x0alines'"},
        {[](wb::plugin& p) { p.summary = "\xe2\x80\xae reversed"; }, "its summary is not printable"}, // U+202E
        {[](wb::plugin& p) { p.seed = "\xc0\xaf"; }, "its seed is not printable"},                    // overlong '/'
        {[](wb::plugin& p) { p.seed = "\xed\xa0\x80"; }, "its seed is not printable"},                // a surrogate
        {[](wb::plugin& p) { p.seed = std::string(1025, 's'); }, "its seed is longer than 1024 bytes"},
        {[](wb::plugin& p) { p.kernels[0].name = "9lives"; }, "its kernels[0].name is not a C++ name"},
        {[](wb::plugin& p) { p.kernels[0].name = "k<1>>"; }, "its kernels[0].name is not a C++ name"},
        {[](wb::plugin& p) { p.kernels[0].name = "k<1"; }, "its kernels[0].name is not a C++ name"},
        {[](wb::plugin& p) { p.kernels[1].name = ""; }, "its kernels[1].name is empty"},
        {[](wb::plugin& p) { p.kernels[1].when_param = "un roll"; }, "its kernels[1].when_param is not a name"},
        {[](wb::plugin& p) { p.tunables[1].name = "\x01"; }, "its tunables[1].name is not printable: '\\x01'"},
        {[](wb::plugin& p) { p.tunables[0].help = "\x7f"; }, "its tunables[0].help is not printable"},
        {[](wb::plugin& p) { p.tunables[1].name = "block_size"; }, "declares tunable 'block_size' twice"},
        {[](wb::plugin& p) { p.tunables[0].min = 2048; },
         "its tunable 'block_size' has min 2048 greater than max 1024"},
        {[](wb::plugin& p) { p.tunables[1].default_value = 3; },
         "its tunable 'unroll' defaults to 3, which it does not allow (it must be 2, 4)"},
        {[](wb::plugin& p) { p.tunables[1].allowed.assign(4097, 4); }, "lists 4097 allowed values, more than the 4096"},
        {[](wb::plugin& p) { p.tunables.resize(257, p.tunables[0]); }, "declares 2 kernels and 257 tunables"},
        {[](wb::plugin& p) { p.kernels[0].block_size_param = "block"; }, "takes its block size from tunable 'block'"},
        {[](wb::plugin& p) { p.kernels[1].fixed_block_size = 0; },
         "its kernel 'ns::fixed' has neither a block size tunable nor a fixed block size (fixed_block_size 0)"},
        {[](wb::plugin& p) { p.kernels[1].lds_bytes_per_thread = -4; }, "declares -4 bytes of shared memory"},
        {[](wb::plugin& p) { p.kernels[1].when_param = "width"; }, "runs only where tunable 'width' is 4, which it"},
    };
    for (const auto& [garble, words] : cases) {
        const std::string why = declaration_refused(garble);
        BOOST_TEST_INFO("reason: " << why);
        BOOST_CHECK_NE(why.find(words), std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(what_a_worker_sends_is_checked_as_a_descriptor_is)
{
    // The declaration travels as a worker sends it; garbled on the way, the harness refuses it.
    nlohmann::json j = wb::wire::to_json(good_declaration());
    j["variant"] = "ab\ac";
    wb::plugin_registry reg(wb::platform_kind::cpu);
    reg.add_declared(wb::wire::plugin_from(j));
    BOOST_CHECK(reg.plugins().empty());
    BOOST_REQUIRE_EQUAL(reg.rejections().size(), 1u);
    BOOST_CHECK_EQUAL(reg.rejections()[0].reason, "its variant name is not printable: 'ab\\x07c'");
    // What is not even a declaration throws: a family that is no name, a real for an integer.
    j = wb::wire::to_json(good_declaration());
    j["family"] = "re\x1b[31mduce";
    BOOST_CHECK_EXCEPTION(wb::wire::plugin_from(j), std::runtime_error, [](const std::runtime_error& e) {
        return std::string(e.what()).find("its family name is not printable: 're\\x1b[31mduce'") != std::string::npos;
    });
    j = wb::wire::to_json(good_declaration());
    j["kernels"][0][2] = 1e300;
    BOOST_CHECK_THROW(wb::wire::plugin_from(j), std::runtime_error);
    j = wb::wire::to_json(good_declaration());
    j["tunables"][0] = {"block_size"};
    BOOST_CHECK_THROW(wb::wire::plugin_from(j), std::exception);
}

// ---- the check before dlopen ---------------------------------------------------------------------

std::string bytes_of(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

/// A real plugin's bytes, and where its parts are, to garble.
struct plugin_image {
    std::string bytes = bytes_of(atomic_plugin());

    template <class T> T get(uint64_t at) const
    {
        BOOST_REQUIRE_LE(at + sizeof(T), bytes.size());
        T v;
        std::memcpy(&v, bytes.data() + at, sizeof v);
        return v;
    }
    template <class T> void put(uint64_t at, const T& v)
    {
        BOOST_REQUIRE_LE(at + sizeof(T), bytes.size());
        std::memcpy(bytes.data() + at, &v, sizeof v);
    }
    Elf64_Ehdr header() const { return get<Elf64_Ehdr>(0); }
    uint64_t section_at(unsigned i) const { return header().e_shoff + i * sizeof(Elf64_Shdr); }
    Elf64_Shdr section(unsigned i) const { return get<Elf64_Shdr>(section_at(i)); }
    unsigned dynsym() const
    {
        for (unsigned i = 0; i < header().e_shnum; ++i)
            if (section(i).sh_type == SHT_DYNSYM) return i;
        BOOST_FAIL("no .dynsym");
        return 0;
    }
    /// The offset of the entry point's symbol in .dynsym.
    uint64_t entry_symbol() const
    {
        const Elf64_Shdr sym = section(dynsym()), str = section(sym.sh_link);
        for (uint64_t at = sym.sh_offset; at < sym.sh_offset + sym.sh_size; at += sizeof(Elf64_Sym))
            if (bytes.compare(str.sh_offset + get<Elf64_Sym>(at).st_name, 17, std::string(WB_PLUGIN_ENTRY) + '\0', 0,
                              17) == 0)
                return at;
        BOOST_FAIL("no entry symbol");
        return 0;
    }
    std::string check() const { return wb::check_plugin_image(bytes); }
};

#define CHECK_IMAGE(image, words)                                                                                      \
    do {                                                                                                               \
        const std::string why = (image).check();                                                                       \
        BOOST_TEST_INFO("reason: " << why);                                                                            \
        BOOST_CHECK_NE(why.find(words), std::string::npos);                                                            \
    } while (0)

BOOST_AUTO_TEST_CASE(a_real_plugin_passes_the_check_before_loading)
{
    BOOST_CHECK_EQUAL(plugin_image().check(), "");
    BOOST_CHECK_EQUAL(wb::check_plugin_file(atomic_plugin()), "");
}

BOOST_AUTO_TEST_CASE(another_machine_class_or_type_is_named)
{
    plugin_image i;
    i.put<uint16_t>(18, 183);
    const std::string here = wb::elf_machine_name(plugin_image().header().e_machine);
    CHECK_IMAGE(i, "is an ELF file for AArch64 (e_machine 183), not for this machine (" + here + ")");
#if defined(__x86_64__)
    BOOST_CHECK_EQUAL(here, "x86-64");
#endif
    i = {};
    i.put<uint16_t>(18, EM_AMDGPU);
    CHECK_IMAGE(i, "a GPU code object is no plugin");
    i = {};
    i.bytes[EI_CLASS] = ELFCLASS32;
    CHECK_IMAGE(i, "is a 32-bit ELF file; plugins for this machine (" + here + ") are 64-bit");
    i = {};
    i.bytes[EI_CLASS] = 7;
    CHECK_IMAGE(i, "its ELF class (EI_CLASS) is 7");
    i = {};
    i.put<uint16_t>(16, ET_EXEC);
    CHECK_IMAGE(i, "is an executable (ELF type ET_EXEC), not a shared library");
    i = {};
    i.put<uint16_t>(16, ET_REL);
    CHECK_IMAGE(i, "is an object file (ELF type ET_REL)");
    i = {};
    i.bytes[EI_VERSION] = 2;
    CHECK_IMAGE(i, "its ELF version (EI_VERSION) is 2");
}

BOOST_AUTO_TEST_CASE(a_truncated_file_says_where_it_ends)
{
    const plugin_image whole;
    const Elf64_Ehdr h = whole.header();
    const Elf64_Shdr sym = whole.section(whole.dynsym());
    const std::pair<uint64_t, std::string> cuts[] = {
        {0, "is empty"},
        {3, "is not an ELF file"},
        {19, "is truncated: 19 bytes, less than an ELF header"},
        {40, "the end of its ELF header is at byte 64 of 40"},
        {h.e_phoff + 10, "the end of its program headers is at byte"},
        {sym.sh_offset + 5, "is truncated or corrupt"}, // a segment, or the section headers, end past it
        {h.e_shoff + 100, "the end of its section headers is at byte " +
                              std::to_string(h.e_shoff + h.e_shnum * sizeof(Elf64_Shdr)) + " of " +
                              std::to_string(h.e_shoff + 100)},
        {whole.bytes.size() - 1, "of " + std::to_string(whole.bytes.size() - 1)},
    };
    for (const auto& [cut, words] : cuts) {
        plugin_image i;
        i.bytes.resize(cut);
        BOOST_TEST_INFO("cut at " << cut);
        CHECK_IMAGE(i, words);
    }
}

BOOST_AUTO_TEST_CASE(tables_past_the_end_and_huge_counts_are_refused)
{
    const plugin_image whole;
    const uint64_t size = whole.bytes.size();
    plugin_image i;
    i.put<uint64_t>(offsetof(Elf64_Ehdr, e_shoff), size - 10);
    CHECK_IMAGE(i, "the end of its section headers is at byte");
    i = {};
    i.put<uint64_t>(offsetof(Elf64_Ehdr, e_shoff), uint64_t(1) << 63);
    CHECK_IMAGE(i, "the start of its section headers is at byte 9223372036854775808, past the file's end");
    i = {};
    i.put<uint64_t>(offsetof(Elf64_Ehdr, e_phoff), ~uint64_t(0) - 8); // offset + size overflows
    CHECK_IMAGE(i, "the start of its program headers is at byte 18446744073709551607");
    i = {};
    i.put<uint16_t>(offsetof(Elf64_Ehdr, e_shnum), 0xffff);
    CHECK_IMAGE(i, "the end of its section headers is at byte");
    i = {};
    i.put<uint16_t>(offsetof(Elf64_Ehdr, e_phnum), 0xffff);
    CHECK_IMAGE(i, "the end of its program headers is at byte");
    i = {};
    i.put<uint16_t>(offsetof(Elf64_Ehdr, e_phnum), 0);
    CHECK_IMAGE(i, "has no program headers");
    i = {};
    i.put<uint16_t>(offsetof(Elf64_Ehdr, e_shentsize), 40);
    CHECK_IMAGE(i, "its section headers are 40 bytes each, not 64");
    // More than 0xff00 sections are counted in section 0: a count that fits in no file.
    i = {};
    i.put<uint16_t>(offsetof(Elf64_Ehdr, e_shnum), 0);
    i.put<uint64_t>(i.section_at(0) + offsetof(Elf64_Shdr, sh_size), uint64_t(1) << 62);
    CHECK_IMAGE(i, "its section headers (4611686018427387904 of 64 bytes) would not fit in any file");
    i = {};
    i.put<uint64_t>(offsetof(Elf64_Ehdr, e_shoff), 0);
    CHECK_IMAGE(i, "has no section headers, so its dynamic symbol table cannot be checked");
    // The dynamic symbol table's own extent and link.
    i = {};
    const uint64_t dynsym = i.section_at(i.dynsym());
    i.put<uint64_t>(dynsym + offsetof(Elf64_Shdr, sh_size), ~uint64_t(0) / 2);
    CHECK_IMAGE(i, "the end of its dynamic symbol table (section");
    i = {};
    i.put<uint32_t>(dynsym + offsetof(Elf64_Shdr, sh_link), 999);
    CHECK_IMAGE(i, "names its string table as section 999, which does not exist");
    i = {};
    i.put<uint64_t>(dynsym + offsetof(Elf64_Shdr, sh_entsize), 16);
    CHECK_IMAGE(i, "has entries of 16 bytes, not 24");
    // A segment that would be mapped past the end of the file.
    i = {};
    const Elf64_Ehdr h = i.header();
    for (unsigned k = 0; k < h.e_phnum; ++k) {
        const uint64_t at = h.e_phoff + k * sizeof(Elf64_Phdr);
        if (i.get<Elf64_Phdr>(at).p_type == PT_LOAD) {
            i.put<uint64_t>(at + offsetof(Elf64_Phdr, p_filesz), size * 2);
            i.put<uint64_t>(at + offsetof(Elf64_Phdr, p_memsz), size * 2);
            break;
        }
    }
    CHECK_IMAGE(i, "(PT_LOAD) is at byte");
}

BOOST_AUTO_TEST_CASE(the_entry_point_must_be_a_defined_global_function)
{
    const plugin_image whole;
    plugin_image i;
    i.put<uint32_t>(i.section_at(i.dynsym()) + offsetof(Elf64_Shdr, sh_type), SHT_PROGBITS);
    CHECK_IMAGE(i, "has no dynamic symbol table (.dynsym), so no 'wavebench_plugin' entry point: not a wavebench");
    // Renamed: wavebench_plugiN.
    i = {};
    const Elf64_Shdr str = i.section(i.section(i.dynsym()).sh_link);
    i.bytes[str.sh_offset + i.get<Elf64_Sym>(i.entry_symbol()).st_name + 15] = 'N';
    CHECK_IMAGE(i, "has no 'wavebench_plugin' entry point in its dynamic symbol table: not a wavebench plugin");
    // Its name running into the end of the string table.
    i = {};
    const uint64_t entry = i.entry_symbol();
    i.put<uint32_t>(entry + offsetof(Elf64_Sym, st_name), uint32_t(str.sh_size - 3));
    CHECK_IMAGE(i, "has no 'wavebench_plugin' entry point in its dynamic symbol table");
    const Elf64_Sym sym = whole.get<Elf64_Sym>(entry);
    const auto with = [&](unsigned char info, uint16_t shndx, uint64_t value) {
        plugin_image g;
        g.put(entry, Elf64_Sym{sym.st_name, info, sym.st_other, shndx, value, sym.st_size});
        return g;
    };
    CHECK_IMAGE(with(sym.st_info, SHN_UNDEF, 0), "in its dynamic symbol table but does not define it");
    CHECK_IMAGE(with(ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT), sym.st_shndx, sym.st_value),
                "entry point that is data (STT_OBJECT), not a function");
    CHECK_IMAGE(with(ELF64_ST_INFO(STB_WEAK, STT_FUNC), sym.st_shndx, sym.st_value),
                "that is weak (STB_WEAK), not global");
    CHECK_IMAGE(with(sym.st_info, 9999, sym.st_value), "is defined in section 9999, which does not exist");
    CHECK_IMAGE(with(sym.st_info, sym.st_shndx, 8), "is not in an executable segment");
}

BOOST_AUTO_TEST_CASE(only_a_regular_file_is_read)
{
    temp_dir d;
    BOOST_CHECK_NE(wb::check_plugin_file(d.path).find("is a directory: only a regular file"), std::string::npos);
    // A FIFO without a writer: refused at once, not waited on.
    const fs::path fifo = d.path / "fifo.so";
    BOOST_REQUIRE_EQUAL(mkfifo(fifo.c_str(), 0600), 0);
    BOOST_CHECK_NE(wb::check_plugin_file(fifo).find("is a FIFO"), std::string::npos);
    CHECK_REFUSED(fifo, "cannot be read: the plugin file");
    BOOST_CHECK_NE(wb::check_plugin_file("/dev/zero").find("is a character device"), std::string::npos);
    // Not standard input: a file named "-" is that file.
    BOOST_CHECK_NE(wb::check_plugin_file("-").find("'./-'"), std::string::npos);
}

BOOST_AUTO_TEST_CASE(in_a_directory_the_bad_ones_are_listed_and_the_rest_load)
{
    temp_dir d;
    fs::create_symlink(atomic_plugin(), d.path / "reduce_atomic.so");
    for (const char* f : {"no_entry", "declines_abi", "wrong_abi_version", "wrong_platform", "unknown_family"})
        fs::create_symlink(fixture(f), d.path / (std::string(f) + ".so"));
    std::ofstream(d.path / "README.txt") << "not a plugin, and not a .so: ignored\n";
    wb::plugin_registry reg(wb::platform_kind::cpu);
    reg.add_directory(d.path);
    BOOST_REQUIRE_EQUAL(reg.plugins().size(), 1u);
    BOOST_CHECK_EQUAL(reg.plugins()[0].name(), "reduce/atomic");
    BOOST_CHECK_EQUAL(reg.rejections().size(), 5u);
    reg.add_directory(d.path / "missing");
    BOOST_CHECK_NE(reg.rejections().back().reason.find("is not a directory"), std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_same_variant_twice_is_refused)
{
    temp_dir d;
    fs::copy_file(atomic_plugin(), d.path / "copy.so");
    wb::plugin_registry reg(wb::platform_kind::cpu);
    reg.add_file(atomic_plugin());
    reg.add_file(d.path / "copy.so");
    BOOST_REQUIRE_EQUAL(reg.plugins().size(), 1u);
    BOOST_REQUIRE_EQUAL(reg.rejections().size(), 1u);
    BOOST_CHECK_NE(reg.rejections()[0].reason.find("is a second reduce/atomic"), std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_plugin_outlives_its_registry)
{
    wb::plugin kept;
    {
        wb::plugin_registry reg(wb::platform_kind::cpu);
        reg.add_file(atomic_plugin());
        BOOST_REQUIRE_EQUAL(reg.plugins().size(), 1u);
        kept = reg.plugins()[0];
    }
    // The registry is gone; the copy holds the library, so the descriptor is still mapped.
    BOOST_CHECK_EQUAL(std::string(kept.desc->variant), "atomic");
    BOOST_CHECK(kept.library->is_loaded());
}

BOOST_AUTO_TEST_CASE(plugin_path_environment_adds_directories)
{
    setenv("WAVEBENCH_PLUGIN_PATH", "/a:/b::/c", 1);
    const auto dirs = wb::plugin_directories(wb::to_string(wb::platform_kind::cpu), {"/x"});
    unsetenv("WAVEBENCH_PLUGIN_PATH");
    BOOST_REQUIRE_EQUAL(dirs.size(), 5u);
    BOOST_CHECK_EQUAL(dirs[0], "/x"); // what is named comes first: it replaces a shipped variant
    BOOST_CHECK_EQUAL(dirs[1], "/a");
    BOOST_CHECK_EQUAL(dirs[3], "/c");
    BOOST_CHECK_EQUAL(dirs[4], build() / "plugins" / "cpu");
}

} // namespace

#undef CHECK_REFUSED
#undef CHECK_IMAGE

BOOST_AUTO_TEST_SUITE_END()
