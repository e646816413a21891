// A plugin file is untrusted input: before dlopen maps it and runs its relocations and static
// constructors, what its bytes alone can tell is checked, so that a file for another machine, a
// truncated or garbled one, or a library that is no plugin is refused with what is wrong with it
// (dlopen's own messages can say "No such file or directory" of a file that is there). The check
// is a pure function of the bytes, for the tests and the fuzzer (tests/fuzz/plugin_fuzzer.cpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// The most a plugin file may weigh: one with device code for many targets is large, but not this.
inline constexpr uint64_t plugin_file_limit = uint64_t(1) << 30;

/// "" when `image`, a file's bytes, is an ELF shared library for this machine (class, byte order,
/// machine) whose headers and dynamic symbol table lie within it and which defines the entry point
/// WB_PLUGIN_ENTRY as a global function there. Otherwise what is wrong and what to do, worded to
/// follow the file's name: "is an ELF file for AArch64 (e_machine 183), not for this machine ...".
std::string check_plugin_image(std::string_view image);

/// Reads `file` (a regular file of at most plugin_file_limit bytes: a FIFO or a device is refused
/// without waiting on it) and checks it with check_plugin_image; "" or the reason, worded the same.
std::string check_plugin_file(const std::filesystem::path& file);

/// A section of an ELF file: its name (from the section-name table), type (SHT_...), flags (SHF_...)
/// and its bytes in the file (none for SHT_NOBITS, which has none there).
struct elf_section {
    std::string_view name;
    uint32_t type = 0;
    uint64_t flags = 0;
    std::string_view contents;
};

/// The sections of `image` (a file's bytes) in the table's order, section 0 (reserved) left out;
/// every name and contents checked to lie within the bytes, which the views point into. For a file
/// check_plugin_image passed: the ELF header is checked as it checks it, the dynamic symbol table
/// and entry point are not. Throws std::invalid_argument with what is wrong, worded as
/// check_plugin_image words it.
std::vector<elf_section> elf_sections(std::string_view image);

/// ELF machine `e_machine` for messages: "AArch64", "an AMD GPU", else "an unknown machine".
std::string elf_machine_name(uint16_t e_machine);

} // namespace wb
