// The AMDGPU processors a code object may be built for, in one table: each one's EF_AMDGPU_MACH
// code (the low byte of a code object's e_flags), the target features its e_flags record, how its
// kernel descriptors count VGPRs and AGPRs, and the resources occupancy is counted from (wave
// sizes, the VGPR file and its allocation granule, SGPR limit, waves, SIMDs and LDS per CU, WGP
// mode); and the grammar of a target ID ("gfx90a:sramecc+:xnack-"). The code-object reader checks
// files against it and core/occupancy.cpp does its arithmetic with it; nothing else lists targets.
#pragma once

#include <cstdint>
#include <string_view>

namespace wb::amdgpu {

enum class agprs : uint8_t {
    none,     // no accumulation registers
    separate, // gfx908: a file of their own; .vgpr_count is the larger of the two counts
    unified,  // gfx90a, gfx94x, gfx950: after the VGPRs (rounded up to 4) in one file; .vgpr_count holds both
};

/// What one SIMD and one CU offer, as LLVM's AMDGPUBaseInfo counts them (getMaxWavesPerEU,
/// getTotalNumVGPRs, getVGPRAllocGranule, getEUsPerCU, the LDS size). A wave size a processor does
/// not run has a VGPR file of 0. `max_waves` 0: occupancy is not modelled for the processor.
struct resources {
    uint8_t max_waves;    // per SIMD
    uint8_t default_wave; // what clang compiles for unless told (-mwavefrontsize64 on gfx10+)
    uint16_t vgprs32;     // VGPR file per SIMD, in registers of a wave32 ...
    uint16_t vgprs64;     // ... and of a wave64
    uint8_t vgpr_granule32, vgpr_granule64;
    bool sgpr_limit; // gfx8 / gfx9: SGPRs cap the waves per SIMD
    uint8_t simds_per_cu;
    uint32_t lds_per_cu; // bytes per CU, also the most one work-group can allocate
    bool wgp;            // gfx10+: in WGP mode (clang's default) a work-group spans a WGP, two CUs
};

// Each row measured with clang 22's own figure (-Rpass-analysis=kernel-resource-usage, "Occupancy
// [waves/SIMD]") for kernels of 65, 100 and 129 VGPRs in both wave sizes, and its LDS limit
// ("local memory (N) exceeds limit (M)"); tests/amd_occupancy_test.py checks the default targets.
inline constexpr resources not_modelled{};
// gfx9 before gfx90a: 10 waves, 256 VGPRs per SIMD in granules of 4, 64 KiB of LDS.
inline constexpr resources gcn5{10, 64, 0, 256, 0, 4, true, 4, 65536, false};
// gfx90a, gfx940-942, gfx9-4-generic: 8 waves, 512 VGPRs and AGPRs in one file, granules of 8.
inline constexpr resources cdna2{8, 64, 0, 512, 0, 8, true, 4, 65536, false};
// gfx950: as gfx942 with 160 KiB of LDS per CU.
inline constexpr resources cdna4{8, 64, 0, 512, 0, 8, true, 4, 163840, false};
// gfx1010-1013, gfx10-1-generic: 20 waves; 1024 VGPRs (wave32, granule 8) or 512 (wave64, 4).
inline constexpr resources rdna1{20, 32, 1024, 512, 8, 4, false, 2, 65536, true};
// gfx103x, gfx10-3-generic and the RDNA 3 parts without the larger file (gfx1102, gfx1103,
// gfx1150, gfx1152, gfx1153, gfx11-generic): 16 waves; 1024 VGPRs (granule 16) or 512 (8).
inline constexpr resources rdna2{16, 32, 1024, 512, 16, 8, false, 2, 65536, true};
// gfx1100, gfx1101, gfx1151, gfx1200, gfx1201, gfx12-generic (LLVM's Feature1_5xVGPRs): 1536
// VGPRs (granule 24) or 768 (12).
inline constexpr resources rdna3_large{16, 32, 1536, 768, 24, 12, false, 2, 65536, true};

struct processor {
    const char* name; // "gfx90a", "gfx9-generic"
    uint8_t mach;     // EF_AMDGPU_MACH_AMDGCN_*
    uint8_t major;    // the ISA's major version: 9 for gfx90a and gfx9-4-generic, 11 for gfx1151
    bool generic;     // a generic target: code object v6, with EF_AMDGPU_GENERIC_VERSION
    bool xnack;       // the feature is recorded in e_flags (code object v4+)
    bool sramecc;
    agprs agpr;
    resources r;
    // The granule of the VGPR count a kernel descriptor records for wave32 (getVGPREncodingGranule):
    // 8, 16 on gfx1250 (wave64: 4, 8 where the AGPRs are unified).
    uint8_t vgpr_encoding32 = 8;
};

// EF_AMDGPU_MACH codes and default features as LLVM 22 writes them (clang++-22 --offload-arch=T
// -nogpulib for an empty kernel, read by llvm-readobj-22 --file-headers); gfx940 and gfx941 are
// LLVM 19's (LLVM 22 dropped them). The products: gfx908 MI100; gfx90a MI210/MI250X; gfx942
// MI300X/MI300A/MI325X; gfx950 MI350X/MI355X; gfx1030 RX 6800-6900; gfx1100 RX 7900; gfx1101 RX
// 7700-7800; gfx1151 Ryzen AI Max; gfx1200 RX 9060; gfx1201 RX 9070.
inline constexpr processor processors[] = {
    // name         mach  major generic xnack sramecc agprs resources
    {"gfx600", 0x20, 6, false, false, false, agprs::none, not_modelled},
    {"gfx601", 0x21, 6, false, false, false, agprs::none, not_modelled},
    {"gfx602", 0x3a, 6, false, false, false, agprs::none, not_modelled},
    {"gfx700", 0x22, 7, false, false, false, agprs::none, not_modelled},
    {"gfx701", 0x23, 7, false, false, false, agprs::none, not_modelled},
    {"gfx702", 0x24, 7, false, false, false, agprs::none, not_modelled},
    {"gfx703", 0x25, 7, false, false, false, agprs::none, not_modelled},
    {"gfx704", 0x26, 7, false, false, false, agprs::none, not_modelled},
    {"gfx705", 0x3b, 7, false, false, false, agprs::none, not_modelled},
    {"gfx801", 0x28, 8, false, true, false, agprs::none, not_modelled},
    {"gfx802", 0x29, 8, false, false, false, agprs::none, not_modelled},
    {"gfx803", 0x2a, 8, false, false, false, agprs::none, not_modelled},
    {"gfx805", 0x3c, 8, false, false, false, agprs::none, not_modelled},
    {"gfx810", 0x2b, 8, false, true, false, agprs::none, not_modelled},
    {"gfx900", 0x2c, 9, false, true, false, agprs::none, gcn5},
    {"gfx902", 0x2d, 9, false, true, false, agprs::none, gcn5},
    {"gfx904", 0x2e, 9, false, true, false, agprs::none, gcn5},
    {"gfx906", 0x2f, 9, false, true, true, agprs::none, gcn5},
    {"gfx908", 0x30, 9, false, true, true, agprs::separate, gcn5},
    {"gfx909", 0x31, 9, false, true, false, agprs::none, gcn5},
    {"gfx90a", 0x3f, 9, false, true, true, agprs::unified, cdna2},
    {"gfx90c", 0x32, 9, false, true, false, agprs::none, gcn5},
    {"gfx940", 0x40, 9, false, true, true, agprs::unified, cdna2},
    {"gfx941", 0x4b, 9, false, true, true, agprs::unified, cdna2},
    {"gfx942", 0x4c, 9, false, true, true, agprs::unified, cdna2},
    {"gfx950", 0x4f, 9, false, true, true, agprs::unified, cdna4},
    {"gfx9-generic", 0x51, 9, true, true, false, agprs::none, gcn5},
    {"gfx9-4-generic", 0x5f, 9, true, true, true, agprs::unified, cdna2},
    {"gfx1010", 0x33, 10, false, true, false, agprs::none, rdna1},
    {"gfx1011", 0x34, 10, false, true, false, agprs::none, rdna1},
    {"gfx1012", 0x35, 10, false, true, false, agprs::none, rdna1},
    {"gfx1013", 0x42, 10, false, true, false, agprs::none, rdna1},
    {"gfx10-1-generic", 0x52, 10, true, true, false, agprs::none, rdna1},
    {"gfx1030", 0x36, 10, false, false, false, agprs::none, rdna2},
    {"gfx1031", 0x37, 10, false, false, false, agprs::none, rdna2},
    {"gfx1032", 0x38, 10, false, false, false, agprs::none, rdna2},
    {"gfx1033", 0x39, 10, false, false, false, agprs::none, rdna2},
    {"gfx1034", 0x3e, 10, false, false, false, agprs::none, rdna2},
    {"gfx1035", 0x3d, 10, false, false, false, agprs::none, rdna2},
    {"gfx1036", 0x45, 10, false, false, false, agprs::none, rdna2},
    {"gfx10-3-generic", 0x53, 10, true, false, false, agprs::none, rdna2},
    {"gfx1100", 0x41, 11, false, false, false, agprs::none, rdna3_large},
    {"gfx1101", 0x46, 11, false, false, false, agprs::none, rdna3_large},
    {"gfx1102", 0x47, 11, false, false, false, agprs::none, rdna2},
    {"gfx1103", 0x44, 11, false, false, false, agprs::none, rdna2},
    {"gfx1150", 0x43, 11, false, false, false, agprs::none, rdna2},
    {"gfx1151", 0x4a, 11, false, false, false, agprs::none, rdna3_large},
    {"gfx1152", 0x55, 11, false, false, false, agprs::none, rdna2},
    {"gfx1153", 0x58, 11, false, false, false, agprs::none, rdna2},
    {"gfx11-generic", 0x54, 11, true, false, false, agprs::none, rdna2},
    {"gfx1200", 0x48, 12, false, false, false, agprs::none, rdna3_large},
    {"gfx1201", 0x4e, 12, false, false, false, agprs::none, rdna3_large},
    {"gfx12-generic", 0x59, 12, true, false, false, agprs::none, rdna3_large},
    // gfx1250/gfx1251 (LLVM 22; no product yet): wave32 only, 320 KiB of LDS, and work-group limits
    // clang 22 reports that no rule above gives (2-wave work-groups: 8 waves per SIMD, 4-wave: 16).
    {"gfx1250", 0x49, 12, false, true, true, agprs::none, not_modelled, 16},
    {"gfx1251", 0x5a, 12, false, true, true, agprs::none, not_modelled, 16},
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

/// Whether occupancy is modelled for `p` (its resources are known).
constexpr bool modelled(const processor& p) { return p.r.max_waves > 0; }

/// Whether `p` runs waves of `size` lanes (32 or 64).
constexpr bool runs_wave(const processor& p, int size)
{
    return modelled(p) && (size == 32 ? p.r.vgprs32 > 0 : size == 64 && p.r.vgprs64 > 0);
}

/// Whether `id` is a target ID: "gfx", then 1 to 8 lowercase hex digits or a generic target's name
/// ("gfx9-4-generic": digits and dashes, then "-generic"), then any number of ":feature+" or
/// ":feature-", a feature 1 to 32 lowercase letters, digits or underscores. Only such names are
/// used as arguments (llvm-objdump's --mcpu) or printed.
constexpr bool is_target_id(std::string_view id)
{
    auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
    auto feature_char = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; };
    if (!id.starts_with("gfx")) return false;
    size_t at = 3;
    while (at < id.size() && hex(id[at])) ++at;
    if (at == 3 || at > 11) return false;
    if (id.substr(at).starts_with("-")) { // a generic target: "gfx9-4-generic", "gfx12-generic"
        while (at < id.size() && (hex(id[at]) || id[at] == '-') && !id.substr(at).starts_with("-generic")) ++at;
        if (!id.substr(at).starts_with("-generic") || at > 16) return false;
        at += 8;
    }
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
