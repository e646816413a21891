// Pieces the branch plugins share: the problem as a kernel sees it, the launch, and the check
// that the suite asked for the kernel this plugin implements.
#pragma once

#include "wavebench/families/branch.h"
#include "wavebench/plugin.h"

#include <string>
#include <string_view>

namespace common {

/// Work-groups of at least one 64-wide wavefront.
inline constexpr auto block_size = wb::block_size.at_least(64);

__device__ inline float as_float(uint32_t u) { return __uint_as_float(u); }

/// In prepare: a plugin of another kernel's pair declines the configuration, with the reason.
inline void require(const wb_args* a, std::string_view kernel)
{
    const std::string_view asked = wb::branch::kernel(a);
    if (asked != kernel)
        throw wb::skip("this variant solves kernel = " + std::string(kernel) + ", not " + std::string(asked));
}

/// A kernel of the family: element i's input words from in (one or four per element), its output
/// word out[i], n elements.
using element_kernel = wb::kernel<const uint32_t*, uint32_t*, long long>;

/// One work-item per element (a failed launch names the plugin's line: `at` is made where it calls).
inline void launch(const element_kernel& k, wb::launch_site at)
{
    const wb_args* a = at.args;
    const int64_t n = wb::branch::n(a);
    k.launch_over(at, n, wb::in<uint32_t>(a, 0), wb::out<uint32_t>(a, 0), (long long)n);
}

} // namespace common
