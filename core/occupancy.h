// Occupancy: how many work-groups of a kernel fit on one multiprocessor, and what limits them.
// The one place for the architecture arithmetic; the figures come from the device's properties
// and the allocation rules below.
#pragma once

#include "core/amd/targets.h"

#include <cstdint>
#include <string>

namespace wb {

/// What one NVIDIA SM offers (cudaDeviceProp, and the register rules of compute capability 7+).
struct nvidia_sm {
    int max_threads = 2048;         // maxThreadsPerMultiProcessor
    int max_blocks = 32;            // maxBlocksPerMultiProcessor
    int registers = 65536;          // regsPerMultiprocessor
    int64_t shared_bytes = 233472;  // sharedMemPerMultiprocessor (the largest carve-out)
    int64_t reserved_shared = 1024; // reservedSharedMemPerBlock
    int warp_size = 32;
    int register_unit = 256; // registers are allocated per warp in units of 256
    int sub_partitions = 4;  // each holds a quarter of the register file
    int shared_unit = 128;   // shared memory is allocated per block in units of 128 bytes
};

struct kernel_use {
    int block_size = 0;
    int registers = 0;        // per thread
    int64_t shared_bytes = 0; // per block, static + dynamic
};

struct occupancy_estimate {
    int blocks = 0; // resident blocks per SM: the smallest of the four below
    int by_warps = 0, by_slots = 0, by_registers = 0, by_shared = 0;
    int warps = 0, max_warps = 0; // resident warps, and the SM's limit
    std::string limiter;          // "warps", "block slots", "registers" or "shared memory"
};

/// Resident blocks per SM. Ties name the first of: warps, block slots, registers, shared memory
/// (so a kernel at full occupancy is limited by "warps").
occupancy_estimate nvidia_occupancy(const nvidia_sm& sm, const kernel_use& k);

// ---- AMD: waves per SIMD from whole work-groups, after LLVM's AMDGPUBaseInfo -----------------------

/// One AMD processor, from the one table of them (core/amd/targets.h): its resources per SIMD and
/// per CU are `r`.
using amd_target = amdgpu::processor;

/// The processor of a target ID ("gfx90a", "gfx90a:sramecc+:xnack-") whose occupancy is modelled,
/// or null.
const amd_target* find_amd_target(const std::string& target);
/// The names of the processors whose occupancy is modelled.
std::string amd_target_names();

struct amd_kernel_use {
    int vgprs = 0;         // .vgpr_count
    int agprs = 0;         // .agpr_count
    int sgprs = 0;         // .sgpr_count
    int64_t lds_bytes = 0; // static (.group_segment_fixed_size) + dynamic
    int block_size = 0;
    int warp_size = 64;   // .wavefront_size
    bool cu_mode = false; // gfx10+ built with -mcumode: a work-group stays on one CU (no effect before gfx10)
};

struct amd_occupancy_estimate {
    static constexpr int unlimited = INT32_MAX; // a limit that does not apply (no LDS; one-wave groups' slots)

    int waves = 0;      // per SIMD: what `workgroups` work-groups put on the busiest SIMD
    int max_waves = 0;  // the target's limit per SIMD
    int workgroups = 0; // resident work-groups per CU (per WGP in WGP mode): the smallest of the five below
    int groups_by_waves = 0, groups_by_vgprs = 0, groups_by_sgprs = 0, groups_by_lds = 0, groups_by_slots = 0;
    int vgpr_waves = 0, sgpr_waves = 0; // per SIMD each register file allows, before whole work-groups (as LLVM)
    int group_waves = 0;                // waves per work-group: ceil(block / wave size)
    int simds = 0;                      // the SIMDs the work-groups share: the CU's, or the WGP's in WGP mode
    std::string limiter;                // "waves", "VGPRs", "SGPRs", "LDS" or "workgroup slots": what caps `workgroups`
};

/// Resident work-groups per CU and the waves per SIMD they give (the rule, with a worked example, is
/// in occupancy.cpp). The limiter names what caps the work-groups; ties name the first of: waves (the
/// hardware limit per SIMD), VGPRs, SGPRs, LDS, workgroup slots (so a kernel at full occupancy is
/// limited by "waves"). LDS counts the CU's SIMDs (clang 15's own figure does not) and the 512-byte
/// granules it is allocated in. A work-group that cannot fit gives 0 work-groups and 0 waves.
amd_occupancy_estimate amd_occupancy(const amd_target& t, const amd_kernel_use& k);

/// Waves per SIMD that `workgroups` resident work-groups of e.group_waves waves put on the busiest of
/// e.simds SIMDs, by the same rule (for a work-group count from elsewhere, e.g. the HIP runtime's).
int amd_waves_per_simd(const amd_occupancy_estimate& e, int64_t workgroups);

} // namespace wb
