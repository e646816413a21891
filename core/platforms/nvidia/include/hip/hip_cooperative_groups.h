// HIP's cooperative groups on CUDA: CUDA's own (namespace cooperative_groups, the same names);
// hipLaunchCooperativeKernel is in hip/hip_runtime.h.
#pragma once

#include <hip/hip_runtime.h>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h> // cg::plus and the other functors, which ROCm's header brings
