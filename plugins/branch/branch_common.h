// Pieces the branch plugins share: the problem as a kernel sees it, the launch, and the check
// that the suite asked for the kernel this plugin implements.
#pragma once

#include "wavebench/branch.h"
#include "wavebench/plugin.h"

#include <cstring>
#include <string>

namespace branch {

namespace br = wb::branch;

inline const wb_tunable block_size = wb::tunable_pow2("block_size", 256, 64, 1024, "work-items per work-group");

__device__ inline float as_float(uint32_t u) { return __uint_as_float(u); }

/// In prepare: a plugin of another kernel's pair declines the configuration, with the reason.
inline void require(const wb_args* a, const char* kernel)
{
    const char* asked = wb::param_entry(a, "kernel").s;
    if (std::strcmp(asked, kernel) != 0)
        throw wb::skip(std::string("this variant solves kernel = ") + kernel + ", not " + asked);
}

/// One work-item per element.
template <class K> void launch(wb_args* a, K fn)
{
    const long long n = wb::param(a, "n"), block = wb::param(a, "block_size");
    if (n == 0) return;
    hipLaunchKernelGGL(fn, dim3(unsigned(wb::ceil_div(n, block))), dim3(unsigned(block)), 0, wb::stream(a),
                       wb::in<uint32_t>(a, 0), wb::out<uint32_t>(a, 0), n);
    HIP_CHECK(hipGetLastError());
}

} // namespace branch
