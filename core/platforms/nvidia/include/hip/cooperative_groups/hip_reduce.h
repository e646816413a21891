// HIP's hip/cooperative_groups/hip_reduce.h on CUDA: CUDA's reduce (cooperative_groups/reduce.h) has
// HIP's name and arguments: reduce(group, value, op) over a thread_block_tile or a coalesced_group.
#pragma once

#include <hip/hip_cooperative_groups.h>

#include <cooperative_groups/reduce.h>
