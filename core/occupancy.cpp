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

constexpr int barriers_per_cu = 16; // a work-group of more than one wave holds one while resident
constexpr int lds_granule = 512;    // LDS is allocated per work-group in these units

int sgpr_waves(int sgprs) { return sgprs <= 80 ? 10 : sgprs <= 88 ? 9 : sgprs <= 100 ? 8 : 7; }

} // namespace

const amd_target* find_amd_target(const std::string& target)
{
    const amd_target* p = amdgpu::find_processor(std::string_view(target).substr(0, target.find(':'))); // no ":xnack-"
    return p && amdgpu::modelled(*p) ? p : nullptr;
}

std::string amd_target_names()
{
    std::string s;
    for (const auto& p : amdgpu::processors)
        if (amdgpu::modelled(p)) s += (s.empty() ? "" : ", ") + std::string(p.name);
    return s;
}

// A CU takes in whole work-groups: every wave of a work-group is resident at once, on the CU's SIMDs
// (on gfx10+ in WGP mode, on the WGP's four). The rule used here:
//
//   k = ceil(block / wave size) waves per work-group, S SIMDs, and L = the fewest waves one SIMD can
//   hold: the hardware limit, or what its VGPR or SGPR file allows. The waves of the resident
//   work-groups are dealt round-robin over the S SIMDs, each work-group carrying on where the
//   previous one stopped, so W resident work-groups put ceil(W k / S) waves on the busiest SIMD
//   (LLVM spreads a CU's waves over its SIMDs the same way, and the HIP runtime's
//   hipOccupancyMaxActiveBlocksPerMultiprocessor counts S L warp_size / the block rounded up to
//   waves). They fit while that is at most L:
//
//       W <= floor(S L / k)          for each of the three per-SIMD limits L
//       W <= LDS / LDS per work-group, in 512-byte granules (a CU's: 64 KiB, 160 KiB on gfx950; a
//                                     WGP has two CUs' in WGP mode)
//       W <= 16 barriers per CU      for work-groups of more than one wave (32 a WGP)
//
//   W is the smallest of the five; waves per SIMD = ceil(W k / S), reached on the busiest SIMD (the
//   others hold that many or one fewer). One work-group alone puts ceil(k / S) waves on its busiest
//   SIMD; W of them put fewer than W ceil(k / S) there when S does not divide k, because their
//   extra waves land on different SIMDs.
//
// The resources of each processor are in core/amd/targets.h, as LLVM counts them. LLVM's own figure
// (clang -Rpass-analysis=kernel-resource-usage: "Occupancy [waves/SIMD]"; LLVM 22's
// GCNSubtarget::computeOccupancy) is the smallest of the VGPR, SGPR and work-group limits, and
// differs from this one by design in four ways (tests/amd_occupancy_test.py checks the rest against
// clang 22 on gfx942, gfx950, gfx1100 and gfx1201):
//   - it takes the VGPR and SGPR waves per SIMD as they are (`vgpr_waves`, `sgpr_waves` here, which
//     equal LLVM's), not rounded down to whole work-groups: gfx90a, 1024 work-items, 96 VGPRs is 5
//     there, 4 here (below);
//   - it judges the kernel's whole range of flat work-group sizes ([1, 1024] unless launch bounds
//     or amdgpu_flat_work_group_size narrow it) and reports the best of them; here, the one block
//     size the kernel is launched with (with amdgpu_flat_work_group_size(B, B) both judge B);
//   - it divides the LDS by the kernel's bytes as they are (its own FIXME), not in 512-byte granules;
//   - a work-group with more LDS than a CU has is 1 wave there, 0 here (it cannot run).
//
// Worked example: gfx90a (S = 4, at most 8 waves per SIMD), 1024 work-items of wave64 (k = 16, 4 waves
// on each SIMD), 96 VGPRs (512 / 96: 5 waves per SIMD). Hardware: W <= 4 * 8 / 16 = 2; VGPRs: W <=
// 4 * 5 / 16 = 1 (a second work-group would need 8 waves on each SIMD). W = 1, limited by VGPRs: 4
// waves per SIMD, not the 5 the VGPRs alone allow. With 384 work-items (k = 6) instead: W <= 20 / 6
// = 3, and 18 waves over 4 SIMDs are 5, 5, 4, 4: 5 waves per SIMD (were every work-group to start
// again at the first SIMD, only 2 would fit; and 64-item work-groups would all stack on one SIMD).
amd_occupancy_estimate amd_occupancy(const amd_target& t, const amd_kernel_use& k)
{
    using est = amd_occupancy_estimate;
    est e;
    const amdgpu::resources& r = t.r;
    e.max_waves = r.max_waves;
    if (k.block_size <= 0 || !amdgpu::runs_wave(t, k.warp_size)) return e;
    const int cus = r.wgp && !k.cu_mode ? 2 : 1; // CUs one work-group may span
    e.simds = r.simds_per_cu * cus;
    e.group_waves = (k.block_size + k.warp_size - 1) / k.warp_size;

    // Per SIMD, as LLVM counts them.
    const bool w32 = k.warp_size == 32;
    const int granule = w32 ? r.vgpr_granule32 : r.vgpr_granule64, file = w32 ? r.vgprs32 : r.vgprs64;
    const int vgprs = t.agpr == amdgpu::agprs::separate ? std::max(k.vgprs, k.agprs) : k.vgprs;
    e.vgpr_waves = vgprs <= granule ? r.max_waves : std::min(file / int(round_up(vgprs, granule)), int(r.max_waves));
    e.sgpr_waves = r.sgpr_limit ? std::min(sgpr_waves(k.sgprs), int(r.max_waves)) : r.max_waves;

    // In whole work-groups.
    auto groups = [&](int waves_per_simd) { return int(int64_t(e.simds) * waves_per_simd / e.group_waves); };
    e.groups_by_waves = groups(r.max_waves);
    e.groups_by_vgprs = groups(e.vgpr_waves);
    e.groups_by_sgprs = groups(e.sgpr_waves);
    const int64_t lds = round_up(k.lds_bytes, lds_granule);
    e.groups_by_lds = k.lds_bytes <= 0 ? est::unlimited : lds > r.lds_per_cu ? 0 : int(r.lds_per_cu * cus / lds);
    e.groups_by_slots = e.group_waves == 1 ? est::unlimited : barriers_per_cu * cus;

    e.workgroups =
        std::min({e.groups_by_waves, e.groups_by_vgprs, e.groups_by_sgprs, e.groups_by_lds, e.groups_by_slots});
    e.waves = amd_waves_per_simd(e, e.workgroups);
    e.limiter = e.workgroups == e.groups_by_waves   ? "waves"
                : e.workgroups == e.groups_by_vgprs ? "VGPRs"
                : e.workgroups == e.groups_by_sgprs ? "SGPRs"
                : e.workgroups == e.groups_by_lds   ? "LDS"
                                                    : "workgroup slots";
    return e;
}

int amd_waves_per_simd(const amd_occupancy_estimate& e, int64_t workgroups)
{
    if (e.simds <= 0 || workgroups <= 0) return 0;
    return int((workgroups * e.group_waves + e.simds - 1) / e.simds);
}

} // namespace wb
