// The converge family's problem (seed 002), shared by its plugins and the host reference so both
// compute the same numbers: a lane's iteration i starts from a value made from (lane, i), runs
// path T or path F (branch_len dependent fused multiply-adds with different constants), then
// nonbranch_len more; the result's float bits are added (mod 2^32) into the lane's fold, which
// is therefore independent of the order iterations run in. Branch directions are bits: bit i % 32
// of word (i / 32) * lanes + lane.
#pragma once

#include <cstdint>

#include "wavebench/host_device.h"
#include "wavebench/params.h"

namespace wb::converge {

// The parameters (core/families/converge.cpp gives their ranges and meaning).
inline constexpr int_param lanes{"lanes"}, iterations{"iterations"}, branch_len{"branch_len"}, nonbranch_len{"nonbranch_len"};
inline constexpr text_param pattern{"pattern"};
inline constexpr real_param p{"p"};

// Each chain converges towards a fixed point in (0, 1]: values stay normal floats at any length.
constexpr float t_mul = 0.75f, t_add = 0.25f;   // path T: v = v * 0.75 + 0.25
constexpr float f_mul = -0.5f, f_add = 0.75f;   // path F: v = v * -0.5 + 0.75
constexpr float n_mul = 0.875f, n_add = 0.0625f; // the non-branch work

/// The iteration's starting value, in [0, 1): 24 random bits of (lane, i), scaled exactly.
WB_HOST_DEVICE inline float start(uint32_t lane, uint32_t i)
{
    uint32_t h = lane * 0x9e3779b1u ^ (i + 0x7f4a7c15u) * 0x85ebca77u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    h *= 0x297a2d39u;
    h ^= h >> 15;
    return float(h >> 8) * (1.0f / 16777216.0f);
}

/// The branch direction of (lane, i): true is path T.
WB_HOST_DEVICE inline bool taken(const uint32_t* bits, uint32_t lanes, uint32_t lane, uint32_t i)
{
    return (bits[uint64_t(i / 32) * lanes + lane] >> (i % 32)) & 1u;
}

/// Words of the branch input: ceil(iterations / 32) per lane.
constexpr uint64_t words(uint64_t lanes, uint64_t iterations) { return (iterations + 31) / 32 * lanes; }

} // namespace wb::converge
