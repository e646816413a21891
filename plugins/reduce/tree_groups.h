// The seed's work-group tree kernel, shared by tree and tree_two_stage (a kernel defined in
// common.h would be compiled into every plugin).
#pragma once

#include "common.h"

namespace common {

/// The seed's work-group tree: one element per work-item, one partial per work-group in
/// `partials` (dynamic LDS of blockDim.x ints). The first stage of tree and tree_two_stage.
__global__ void reduce_tree_groups(const int* in, int* partials, size_t n)
{
    HIP_DYNAMIC_SHARED(int, scratch);
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    scratch[threadIdx.x] = i < n ? in[i] : 0;
    lds_tree(scratch, threadIdx.x);
    if (threadIdx.x == 0) partials[blockIdx.x] = scratch[0];
}

inline const auto tree_groups = WB_KERNEL(reduce_tree_groups, wb::block_size, sizeof(int));

} // namespace common
