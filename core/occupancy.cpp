#include "core/occupancy.h"

#include <algorithm>

namespace wb {

namespace {
int64_t round_up(int64_t v, int64_t unit) { return (v + unit - 1) / unit * unit; }
} // namespace

occupancy_estimate nvidia_occupancy(const nvidia_sm& sm, const kernel_use& k)
{
    occupancy_estimate e;
    e.max_warps = sm.max_threads / sm.warp_size;
    if (k.block_size <= 0) return e;
    const int warps_per_block = int(round_up(k.block_size, sm.warp_size) / sm.warp_size);
    e.by_warps = e.max_warps / warps_per_block;
    e.by_slots = sm.max_blocks;
    // Registers: each warp takes its registers in whole units from one sub-partition's file.
    if (k.registers > 0) {
        const int64_t per_warp = round_up(int64_t(k.registers) * sm.warp_size, sm.register_unit);
        const int64_t warps = (sm.registers / sm.sub_partitions) / per_warp * sm.sub_partitions;
        e.by_registers = int(warps / warps_per_block);
    } else {
        e.by_registers = e.by_slots;
    }
    const int64_t shared = round_up(k.shared_bytes + sm.reserved_shared, sm.shared_unit);
    e.by_shared = int(sm.shared_bytes / shared);
    e.blocks = std::min({e.by_warps, e.by_slots, e.by_registers, e.by_shared});
    e.warps = e.blocks * warps_per_block;
    e.limiter = e.blocks == e.by_warps       ? "warps"
                : e.blocks == e.by_slots     ? "block slots"
                : e.blocks == e.by_registers ? "registers"
                                             : "shared memory";
    return e;
}

namespace {

// Per SIMD (LLVM AMDGPUBaseInfo; ../shared/design/anchors.md). RDNA: a CU has 2 SIMDs and 64 KiB
// of LDS (a WGP, 4 and 128 KiB: the same ratio).
const amd_target amd_targets[] = {
    // name    waves granule32/64 file32/64  unified separate sgpr  simds lds
    {"gfx900", 10, 4, 4, 256, 256, false, false, true, 4, 65536},
    {"gfx906", 10, 4, 4, 256, 256, false, false, true, 4, 65536},
    {"gfx908", 10, 4, 4, 256, 256, false, true, true, 4, 65536},
    {"gfx90a", 8, 8, 8, 512, 512, true, false, true, 4, 65536},
    {"gfx940", 8, 8, 8, 512, 512, true, false, true, 4, 65536},
    {"gfx941", 8, 8, 8, 512, 512, true, false, true, 4, 65536},
    {"gfx942", 8, 8, 8, 512, 512, true, false, true, 4, 65536},
    {"gfx1030", 16, 16, 8, 1024, 512, false, false, false, 2, 65536},
    {"gfx1031", 16, 16, 8, 1024, 512, false, false, false, 2, 65536},
    {"gfx1032", 16, 16, 8, 1024, 512, false, false, false, 2, 65536},
    {"gfx1100", 16, 24, 12, 1536, 768, false, false, false, 2, 65536},
    {"gfx1101", 16, 24, 12, 1536, 768, false, false, false, 2, 65536},
    {"gfx1102", 16, 16, 8, 1024, 512, false, false, false, 2, 65536},
};

int sgpr_waves(int sgprs)
{
    return sgprs <= 80 ? 10 : sgprs <= 88 ? 9 : sgprs <= 100 ? 8 : 7;
}

} // namespace

const amd_target* find_amd_target(const std::string& target)
{
    const std::string base = target.substr(0, target.find(':')); // drop ":xnack-" and the like
    for (const auto& t : amd_targets)
        if (base == t.name) return &t;
    return nullptr;
}

std::string amd_target_names()
{
    std::string s;
    for (const auto& t : amd_targets) s += (s.empty() ? "" : ", ") + std::string(t.name);
    return s;
}

amd_occupancy_estimate amd_occupancy(const amd_target& t, const amd_kernel_use& k)
{
    amd_occupancy_estimate e;
    e.max_waves = t.max_waves;
    if (k.block_size <= 0 || k.wave_size <= 0) return e;
    const bool w32 = k.wave_size == 32;
    const int granule = w32 ? t.vgpr_granule32 : t.vgpr_granule64, file = w32 ? t.vgprs32 : t.vgprs64;
    const int vgprs = t.separate_agprs ? std::max(k.vgprs, k.agprs) : k.vgprs;
    e.by_vgprs = vgprs <= granule ? t.max_waves : std::min(file / int(round_up(vgprs, granule)), t.max_waves);
    e.by_sgprs = t.sgpr_limit ? std::min(sgpr_waves(k.sgprs), t.max_waves) : t.max_waves;

    // Work-group limits per CU, turned into waves per SIMD as LLVM does: the CU's waves spread
    // over its SIMDs, rounded up, at least one while a work-group fits at all.
    const int group_waves = (k.block_size + k.wave_size - 1) / k.wave_size;
    const int cu_waves = t.max_waves * t.simds_per_cu;
    auto per_simd = [&](int64_t groups) {
        return int(std::min<int64_t>((groups * group_waves + t.simds_per_cu - 1) / t.simds_per_cu, t.max_waves));
    };
    // Work-groups of several waves each take one of the CU's 16 barriers.
    const int64_t groups_by_slots = group_waves == 1 ? cu_waves : std::min(cu_waves / group_waves, 16);
    // LDS is allocated in 512-byte granules; a kernel without LDS has no such limit.
    const int64_t groups_by_lds = k.lds_bytes > 0 ? t.lds_per_cu / round_up(k.lds_bytes, 512) : INT32_MAX;
    e.by_slots = per_simd(groups_by_slots);
    e.by_lds = k.lds_bytes > 0 ? per_simd(groups_by_lds) : t.max_waves;
    e.waves = std::min({e.by_vgprs, e.by_sgprs, e.by_lds, e.by_slots});
    const int64_t groups_by_registers = int64_t(std::min(e.by_vgprs, e.by_sgprs)) * t.simds_per_cu / group_waves;
    e.workgroups = int(std::min({groups_by_slots, groups_by_lds, groups_by_registers}));
    e.limiter = e.waves == t.max_waves   ? "waves"
                : e.waves == e.by_vgprs  ? "VGPRs"
                : e.waves == e.by_sgprs  ? "SGPRs"
                : e.waves == e.by_lds    ? "LDS"
                                         : "workgroup slots";
    return e;
}

} // namespace wb
