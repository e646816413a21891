// A plugin file's code digests from its loaded sections (plugins/code_digest.h).
#include "harness/plugins/code_digest.h"

#include "harness/common/files.h"
#include "harness/plugins/plugin_file.h"

// SHA-1, not the FNV-1a of tune/candidates.h's file_digest: that keys a cache, where a collision
// costs a measurement again, while equal digests here silence a comparison's verdict, so an
// accidental collision must be out of reach (160 bits). SHA-1's weakness is collisions made on
// purpose, by someone who could as well change either build. Boost, which the harness already
// uses, has it in one header.
#include <boost/uuid/detail/sha1.hpp>

#include <cstdio>
#include <elf.h>

namespace wb {

namespace {

using sha1 = boost::uuids::detail::sha1;

void add_u64(sha1& h, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
    h.process_bytes(b, sizeof b);
}

/// A section's name (with its end, so that names and bytes cannot run into each other), its size
/// and its bytes.
void add_section(sha1& h, const elf_section& s)
{
    h.process_bytes(s.name.data(), s.name.size());
    h.process_byte(0);
    add_u64(h, s.contents.size());
    h.process_bytes(s.contents.data(), s.contents.size());
}

std::string hex_of(sha1& h)
{
    sha1::digest_type d;
    h.get_digest(d);
    std::string out;
    char buf[9];
    // Boost before 1.86 gives five 32-bit words (their big-endian bytes are the digest), from
    // 1.86 on twenty bytes.
    for (const auto v : d) {
        if constexpr (sizeof v == 1)
            std::snprintf(buf, sizeof buf, "%02x", unsigned(v));
        else
            std::snprintf(buf, sizeof buf, "%08x", unsigned(v));
        out += buf;
    }
    return out;
}

} // namespace

bool device_code_section(std::string_view name)
{
    return name == ".nv_fatbin" || name == "__nv_relfatbin" || name == ".hip_fatbin" ||
           name.starts_with("__CLANG_OFFLOAD_BUNDLE__");
}

code_digests code_digests_of_image(std::string_view image)
{
    sha1 code, device;
    bool any_device = false;
    for (const elf_section& s : elf_sections(image)) {
        if (!(s.flags & SHF_ALLOC) || s.type == SHT_NOBITS || s.type == SHT_NOTE) continue;
        add_section(code, s);
        if (device_code_section(s.name)) {
            add_section(device, s);
            any_device = true;
        }
    }
    return {hex_of(code), any_device ? hex_of(device) : ""};
}

code_digests code_digests_of(const std::filesystem::path& file)
{
    const std::string image = read_input(file == "-" ? "./-" : file, "plugin file", plugin_file_limit);
    try {
        return code_digests_of_image(image);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(shorten(file.string(), 200) + " " + e.what());
    }
}

std::string code_digest(const std::filesystem::path& file) { return code_digests_of(file).code; }

std::string device_code_digest(const std::filesystem::path& file) { return code_digests_of(file).device; }

} // namespace wb
