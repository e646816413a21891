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

} // namespace wb
