// HIP's hip/cooperative_groups/hip_scan.h on CUDA: CUDA's scans (cooperative_groups/scan.h) have
// HIP's names and arguments: inclusive_scan and exclusive_scan over a thread_block_tile or a
// coalesced_group, with plus or another operation. One difference: CUDA's exclusive_scan gives the
// first thread T{} whatever the operation, HIP on AMD op's identity (the same for plus, bit_or and
// bit_xor; not for less, greater and bit_and).
#pragma once

#include <hip/hip_cooperative_groups.h>

#include <cooperative_groups/scan.h>
