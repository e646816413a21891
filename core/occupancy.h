// Occupancy: how many work-groups of a kernel fit on one multiprocessor, and what limits them.
// The one place for the architecture arithmetic; the figures come from the device's properties
// and the allocation rules below.
#pragma once

#include <cstdint>
#include <string>

namespace wb {

/// What one NVIDIA SM offers (cudaDeviceProp, and the register rules of compute capability 7+).
struct nvidia_sm {
    int max_threads = 2048;          // maxThreadsPerMultiProcessor
    int max_blocks = 32;             // maxBlocksPerMultiProcessor
    int registers = 65536;           // regsPerMultiprocessor
    int64_t shared_bytes = 233472;   // sharedMemPerMultiprocessor (the largest carve-out)
    int64_t reserved_shared = 1024;  // reservedSharedMemPerBlock
    int warp_size = 32;
    int register_unit = 256;         // registers are allocated per warp in units of 256
    int sub_partitions = 4;          // each holds a quarter of the register file
    int shared_unit = 128;           // shared memory is allocated per block in units of 128 bytes
};

struct kernel_use {
    int block_size = 0;
    int registers = 0;            // per thread
    int64_t shared_bytes = 0;     // per block, static + dynamic
};

struct occupancy_estimate {
    int blocks = 0;               // resident blocks per SM: the smallest of the four below
    int by_warps = 0, by_slots = 0, by_registers = 0, by_shared = 0;
    int warps = 0, max_warps = 0; // resident warps, and the SM's limit
    std::string limiter;          // "warps", "block slots", "registers" or "shared memory"
};

/// Resident blocks per SM. Ties name the first of: warps, block slots, registers, shared memory
/// (so a kernel at full occupancy is limited by "warps").
occupancy_estimate nvidia_occupancy(const nvidia_sm& sm, const kernel_use& k);

} // namespace wb
