// Pieces the vgpr plugins share: OpenCL's ushort8 and vload8 as the seed uses them, and the
// launch (x: groups of 8 output columns, y: output rows).
#pragma once

#include "wavebench/families/vgpr.h"
#include "wavebench/plugin.h"

namespace common {

/// Work-items per work-group in x.
inline constexpr auto block_size = wb::block_size.with_default(64);

struct ushort8 {
    uint16_t s[8];
};

/// vload8(offset, p): eight ushorts from p + 8 * offset (2-byte aligned, as in OpenCL).
__device__ inline ushort8 vload8(long long offset, const uint16_t* p)
{
    ushort8 r;
    for (int k = 0; k < 8; ++k) r.s[k] = p[8 * offset + k];
    return r;
}
__device__ inline ushort8 operator+(ushort8 a, ushort8 b)
{
    for (int k = 0; k < 8; ++k) a.s[k] = uint16_t(a.s[k] + b.s[k]);
    return a;
}
__device__ inline ushort8 operator-(ushort8 a, ushort8 b)
{
    for (int k = 0; k < 8; ++k) a.s[k] = uint16_t(a.s[k] - b.s[k]);
    return a;
}
__device__ inline ushort8& operator+=(ushort8& a, ushort8 b) { return a = a + b; }
__device__ inline ushort8& operator-=(ushort8& a, ushort8 b) { return a = a - b; }

struct problem {
    const uint16_t* integral;
    uint16_t* density;
    int width, out_width, out_height, dist;
    uint16_t threshold;
};

/// The seed's last line: lanes under the threshold zeroed, eight ushorts stored.
__device__ inline void store(const problem& p, long long y, long long x_v, ushort8 sum)
{
    uint16_t* o = p.density + y * p.out_width + 8 * x_v;
    for (int k = 0; k < 8; ++k) o[k] = sum.s[k] >= p.threshold ? sum.s[k] : 0;
}

/// x: groups of 8 output columns, block_size of them per work-group; y: output rows. A failed
/// launch names the plugin's line.
inline void launch(const wb::kernel<problem>& k, wb::launch_site at)
{
    const wb_args* a = at.args;
    const int64_t width = wb::vgpr::width(a), height = wb::vgpr::height(a), d = wb::vgpr::dist(a);
    const problem p{reinterpret_cast<const uint16_t*>(wb::in<uint32_t>(a, 0)),
                    reinterpret_cast<uint16_t*>(wb::out<uint32_t>(a, 0)),
                    int(width),
                    int((width - d) / 8 * 8),
                    int(height - d),
                    int(d),
                    uint16_t(wb::vgpr::threshold(a))};
    const int64_t groups = p.out_width / 8;
    k.launch(at, dim3(unsigned(wb::ceil_div(groups, k.block(a))), unsigned(p.out_height)), p);
}

} // namespace common
