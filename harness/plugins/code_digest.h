// What a plugin file's code is, as a digest: the same for two builds of the same code, wherever
// they were built and whatever debug information they carry, so that an A/B run or a comparison can
// tell "the same code in both builds" (`same-code`: no verdict from the times) from a change. Read
// from the file's bytes (plugins/plugin_file.h reads its sections); a worker ran the plugin's code,
// so the harness digests the files itself.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace wb {

/// A plugin file's digests, 40 hex digits each (SHA-1). `code`: every section the loader maps
/// with bytes in the file (SHF_ALLOC, not SHT_NOBITS) but the notes (SHT_NOTE: the build-id note
/// changes with debug information and paths), each with its name and size: host code, read-only
/// data, the dynamic symbols and relocations, and the embedded device code. Debug information,
/// the symbol tables that are not loaded and .comment do not count. `device`: the device code's
/// sections alone (device_code_section), "" where there are none (cpu plugins).
struct code_digests {
    std::string code, device;
};

/// The digests of `image`, a plugin file's bytes. Throws std::invalid_argument for bytes that are
/// no ELF file of this machine or whose section table is not within them (plugins/plugin_file.h).
code_digests code_digests_of_image(std::string_view image);

/// The digests of the file at `file`. Throws file_error where it cannot be read, and as
/// code_digests_of_image.
code_digests code_digests_of(const std::filesystem::path& file);

/// code_digests_of(file).code: what a comparison calls the same code.
std::string code_digest(const std::filesystem::path& file);
/// code_digests_of(file).device: the device code alone; "" for a plugin without any.
std::string device_code_digest(const std::filesystem::path& file);

/// Whether a section of this name holds device code: nvcc's .nv_fatbin (and __nv_relfatbin, with
/// relocatable device code), clang's .hip_fatbin, and a clang offload bundle embedded as it is
/// (__CLANG_OFFLOAD_BUNDLE__<target>). The fat-binary wrappers beside them (.nvFatBinSegment,
/// .hipFatBinSegment) are host data that points to them.
bool device_code_section(std::string_view name);

} // namespace wb
