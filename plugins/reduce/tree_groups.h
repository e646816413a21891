// The seed's work-group tree kernel, shared by tree and tree_two_stage (a kernel defined in
// reduce_common.h would be compiled into every plugin).
#pragma once

#include "reduce_common.h"

namespace reduce {

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

} // namespace reduce
