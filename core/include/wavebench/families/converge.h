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

// The parameters, each with its default, range and meaning (core/families/converge.cpp lists them).
inline constexpr auto lanes = int_param::range("lanes", 65536, 1, int64_t(1) << 26, "work-items, one per lane");
inline constexpr auto iterations = int_param::range("iterations", 64, 1, 65536, "loop iterations per lane");
inline constexpr auto branch_len = int_param::range("branch_len", 8, 0, 65536, "dependent FMAs in each branch path");
inline constexpr auto nonbranch_len =
    int_param::range("nonbranch_len", 8, 0, 65536, "dependent FMAs after the branch, every iteration");
inline constexpr auto pattern = text_param::of(
    "pattern", "random",
    "branch directions: random (T with probability p), biased (per lane p or 1 - p), alternating (T, F, ... from "
    "a random phase), advanceable (fraction p, at most 0.5, of iterations the advance variant can pair up)");
inline constexpr auto p =
    real_param::of("p", 0.5, "probability (random, biased) or advanceable fraction (advanceable)");

// Each chain converges towards a fixed point in (0, 1]: values stay normal floats at any length.
constexpr float t_mul = 0.75f, t_add = 0.25f;    // path T: v = v * 0.75 + 0.25
constexpr float f_mul = -0.5f, f_add = 0.75f;    // path F: v = v * -0.5 + 0.75
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
