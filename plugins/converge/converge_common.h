// Pieces the converge plugins share: the problem as a kernel sees it and the two paths. The
// paths are separate loops (not one loop with selected constants) so that a divergent wavefront
// really runs both.
#pragma once

#include "wavebench/converge.h"
#include "wavebench/plugin.h"

namespace converge {

namespace cv = wb::converge;

inline const wb_tunable block_size = wb::tunable_pow2("block_size", 256, 64, 1024, "work-items per work-group");

struct problem {
    const uint32_t* bits;
    uint32_t* folds;
    uint32_t lanes, iterations;
    int branch_len, nonbranch_len;
};

inline problem of(const wb_args* a)
{
    return {wb::in<uint32_t>(a, 0),           wb::out<uint32_t>(a, 0),
            uint32_t(wb::param(a, "lanes")),  uint32_t(wb::param(a, "iterations")),
            int(wb::param(a, "branch_len")), int(wb::param(a, "nonbranch_len"))};
}

/// A lane's branch directions, read a word (32 iterations) at a time: the load is paid once per
/// 32 iterations, not on every test.
struct directions {
    const uint32_t* bits;
    uint32_t lanes, lane, index = ~0u, word = 0;

    __device__ directions(const problem& p, uint32_t lane) : bits(p.bits), lanes(p.lanes), lane(lane) {}
    __device__ bool taken(uint32_t i)
    {
        if (i / 32 != index) {
            index = i / 32;
            word = bits[uint64_t(index) * lanes + lane];
        }
        return (word >> (i % 32)) & 1u;
    }
};

__device__ inline float path_t(float v, int len)
{
    for (int k = 0; k < len; ++k) v = fmaf(v, cv::t_mul, cv::t_add);
    return v;
}

__device__ inline float path_f(float v, int len)
{
    for (int k = 0; k < len; ++k) v = fmaf(v, cv::f_mul, cv::f_add);
    return v;
}

/// The non-branch work after either path, and the value's bits for the order-free fold.
__device__ inline uint32_t finish(float v, int len)
{
    for (int k = 0; k < len; ++k) v = fmaf(v, cv::n_mul, cv::n_add);
    return __float_as_uint(v);
}

/// One work-item per lane; lanes past the end take part in the wavefront's votes with nothing to do.
template <class K> void launch(wb_args* a, K kernel)
{
    const problem p = of(a);
    const long long block = wb::param(a, "block_size");
    hipLaunchKernelGGL(kernel, dim3(unsigned(wb::ceil_div(p.lanes, block))), dim3(unsigned(block)), 0, wb::stream(a),
                       p);
    HIP_CHECK(hipGetLastError());
}

} // namespace converge
