// The AMDGPU processors a code object may be built for: each one's EF_AMDGPU_MACH code (the low
// byte of a code object's e_flags), the target features its e_flags record, and how its kernel
// descriptors count VGPRs; and the grammar of a target ID ("gfx90a:sramecc+:xnack-"). The one
// table of processors the code-object reader checks files against (core/occupancy.cpp keeps the
// resources of those it models; tests/amd_static_test.cpp checks it names only these).
#pragma once

#include <cstdint>
#include <string_view>

namespace wb::amdgpu {

enum class agprs : uint8_t {
    none,     // no accumulation registers
    separate, // gfx908: a file of their own; .vgpr_count is the larger of the two counts
    unified,  // gfx90a, gfx94x: after the VGPRs (rounded up to 4) in one file; .vgpr_count holds both
};

struct processor {
    const char* name; // "gfx90a"
    uint8_t mach;     // EF_AMDGPU_MACH_AMDGCN_*
    bool xnack;       // the feature is recorded in e_flags (code object v4+)
    bool sramecc;
    agprs agpr;
};

// LLVM 15's EF_AMDGPU_MACH_AMDGCN_* values and default features, as `llvm-mc-15 -mcpu=<name>`
// writes them into an empty code object; gfx941 and gfx942 are LLVM 17's (after LLVM 15).
inline constexpr processor processors[] = {
    // name     mach  xnack  sramecc agprs
    {"gfx600", 0x20, false, false, agprs::none},   {"gfx601", 0x21, false, false, agprs::none},
    {"gfx602", 0x3a, false, false, agprs::none},   {"gfx700", 0x22, false, false, agprs::none},
    {"gfx701", 0x23, false, false, agprs::none},   {"gfx702", 0x24, false, false, agprs::none},
    {"gfx703", 0x25, false, false, agprs::none},   {"gfx704", 0x26, false, false, agprs::none},
    {"gfx705", 0x3b, false, false, agprs::none},   {"gfx801", 0x28, true, false, agprs::none},
    {"gfx802", 0x29, false, false, agprs::none},   {"gfx803", 0x2a, false, false, agprs::none},
    {"gfx805", 0x3c, false, false, agprs::none},   {"gfx810", 0x2b, true, false, agprs::none},
    {"gfx900", 0x2c, true, false, agprs::none},    {"gfx902", 0x2d, true, false, agprs::none},
    {"gfx904", 0x2e, true, false, agprs::none},    {"gfx906", 0x2f, true, true, agprs::none},
    {"gfx908", 0x30, true, true, agprs::separate}, {"gfx909", 0x31, true, false, agprs::none},
    {"gfx90a", 0x3f, true, true, agprs::unified},  {"gfx90c", 0x32, true, false, agprs::none},
    {"gfx940", 0x40, true, true, agprs::unified},  {"gfx941", 0x4b, true, true, agprs::unified},
    {"gfx942", 0x4c, true, true, agprs::unified},  {"gfx1010", 0x33, true, false, agprs::none},
    {"gfx1011", 0x34, true, false, agprs::none},   {"gfx1012", 0x35, true, false, agprs::none},
    {"gfx1013", 0x42, true, false, agprs::none},   {"gfx1030", 0x36, false, false, agprs::none},
    {"gfx1031", 0x37, false, false, agprs::none},  {"gfx1032", 0x38, false, false, agprs::none},
    {"gfx1033", 0x39, false, false, agprs::none},  {"gfx1034", 0x3e, false, false, agprs::none},
    {"gfx1035", 0x3d, false, false, agprs::none},  {"gfx1036", 0x45, false, false, agprs::none},
    {"gfx1100", 0x41, false, false, agprs::none},  {"gfx1101", 0x46, false, false, agprs::none},
    {"gfx1102", 0x47, false, false, agprs::none},  {"gfx1103", 0x44, false, false, agprs::none},
};

/// The processor of a name ("gfx90a"; no features), or null.
constexpr const processor* find_processor(std::string_view name)
{
    for (const processor& p : processors)
        if (name == p.name) return &p;
    return nullptr;
}

/// The processor of a code object's EF_AMDGPU_MACH code, or null.
constexpr const processor* find_processor(uint8_t mach)
{
    for (const processor& p : processors)
        if (mach == p.mach) return &p;
    return nullptr;
}

/// The major version of a processor: 9 for gfx90a, 10 for gfx1030 (LLVM: all but the last two
/// characters after "gfx").
constexpr int major_version(const processor& p)
{
    const std::string_view digits = std::string_view(p.name).substr(3);
    int major = 0;
    for (const char c : digits.substr(0, digits.size() - 2)) major = major * 10 + (c - '0');
    return major;
}

/// Whether `id` is a target ID: "gfx" and 1 to 8 lowercase hex digits, then any number of
/// ":feature+" or ":feature-", a feature 1 to 32 lowercase letters, digits or underscores. Only
/// such names are used as arguments (llvm-objdump's --mcpu) or printed.
constexpr bool is_target_id(std::string_view id)
{
    auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
    auto feature_char = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; };
    if (!id.starts_with("gfx")) return false;
    size_t at = 3;
    while (at < id.size() && hex(id[at])) ++at;
    if (at == 3 || at > 11) return false;
    while (at < id.size()) { // ":name+" or ":name-"
        if (id[at++] != ':') return false;
        const size_t start = at;
        while (at < id.size() && feature_char(id[at])) ++at;
        if (at == start || at - start > 32 || at == id.size() || (id[at] != '+' && id[at] != '-')) return false;
        ++at;
    }
    return true;
}

} // namespace wb::amdgpu
