// wavebench extension (not HIP) of the cpu runtime: what it counts of each launch, for
// `run --counters` (the platform library's launch_counts; docs/counters.md).
#pragma once

#include <hip/hip_runtime.h>

extern "C" {

/// What the runtime counted of one launch while counting is on (hipCpuCountLaunches).
typedef struct hipCpuLaunchCounts {
    unsigned long long blocks;
    unsigned long long wavefronts;       ///< launched: blocks x wavefronts per block
    unsigned long long collectives;      ///< wavefront collectives completed (ballots, shuffles, ...)
    unsigned long long collective_lanes; ///< the lanes taking part, summed over those collectives
    unsigned warp_size;
    unsigned block_threads;
} hipCpuLaunchCounts;
/// on != 0: forgets the launches counted so far and counts those to come; on == 0: stops.
hipError_t hipCpuCountLaunches(int on);
/// Copies up to `cap` of the counted launches, in launch order, to `out`; *n: how many there are.
hipError_t hipCpuCountedLaunches(hipCpuLaunchCounts* out, unsigned cap, unsigned* n);

} // extern "C"
