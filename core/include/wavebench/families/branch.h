// The branch family's problems (seed 004), shared by its plugins and the host reference: four
// kernels, each written by a plugin pair in the seed's two ways. Element i has four 32-bit input
// words from w[4i] (call, subd) or one, w[i] (mode, slot), and one output word. Floats are
// reinterpreted words; every result is exact (fused multiply-adds, compares), so both ways must
// give the same bits.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <string_view>

#include "wavebench/host_device.h"
#include "wavebench/params.h"

namespace wb::branch {

// The parameters, each with its default, range and meaning (core/families/branch.cpp lists them).
inline constexpr auto n = int_param::range("n", int64_t(1) << 20, 0, int64_t(1) << 28, "elements");
inline constexpr auto kernel =
    text_param::of("kernel", "call", "call, mode, slot or subd: the problem a plugin pair solves");
inline constexpr auto distribution =
    text_param::of("distribution", "divergent",
                   "divergent (each element decides its branch) or uniform (every 64 consecutive elements alike)");

// ---- call: one long function called with two arguments swapped -------------------------------
/// "enough arithmetic to dominate": two dependent chains of 64 multiply-adds; e and f in [0.5, 0.9].
WB_HOST_DEVICE inline float long_function(float a, float b, float e, float f)
{
    float x = a, y = b;
    for (int k = 0; k < 64; ++k) {
        x = fmaf(x, e, y);
        y = fmaf(y, f, 0.5f);
    }
    return x + y;
}

// ---- mode: extract_mode_index, a 14-way if / else-if chain ----------------------------------------
/// The seed's chain over its candidateModeMemory {0x00, 0x01, 0x02, 0x06, 0x0A, 0x0E, 0x12, 0x16,
/// 0x1A, 0x1E, 0x03, 0x07, 0x0B, 0x0F} (its mode_index is left unset when nothing matches: -1 here).
WB_HOST_DEVICE inline int mode_chain(uint32_t r)
{
    int mode = -1;
    uint32_t type = r & 0x03;
    if (type == 0x00)
        mode = 0;
    else if (type == 0x01)
        mode = 1;
    else {
        type = r & 0x1f;
        if (type == 0x02)
            mode = 2;
        else if (type == 0x06)
            mode = 3;
        else if (type == 0x0A)
            mode = 4;
        else if (type == 0x0E)
            mode = 5;
        else if (type == 0x12)
            mode = 6;
        else if (type == 0x16)
            mode = 7;
        else if (type == 0x1A)
            mode = 8;
        else if (type == 0x1E)
            mode = 9;
        else if (type == 0x03)
            mode = 10;
        else if (type == 0x07)
            mode = 11;
        else if (type == 0x0B)
            mode = 12;
        else if (type == 0x0F)
            mode = 13;
    }
    return mode;
}

// ---- slot: calSlotIdInQuadrant6 ------------------------------------------------------------------
// kSlotBound6's first five (scalars: a namespace-scope array is not usable in CUDA device code)
constexpr float slot_b0 = 0.965926f, slot_b1 = 0.866025f, slot_b2 = 0.707107f, slot_b3 = 0.5f, slot_b4 = 0.258819f;

/// The seed's original if / else-if chain.
WB_HOST_DEVICE inline uint32_t slot_chain(float x)
{
    uint32_t id = 5;
    if (x >= slot_b0)
        id = 0;
    else if (x >= slot_b1)
        id = 1;
    else if (x >= slot_b2)
        id = 2;
    else if (x >= slot_b3)
        id = 3;
    else if (x >= slot_b4)
        id = 4;
    return id;
}

// ---- subd: a 16-case switch calling one of three functions ----------------------------------------
/// The three "vertex" functions of the SubD11 shader, as arithmetic on the element's patch
/// (p0, p1, p2): each a chain of 24 multiply-adds whose constants depend on k.
WB_HOST_DEVICE inline float interior(uint32_t k, float p0, float p1, float p2)
{
    float v = p0;
    for (int j = 0; j < 24; ++j) v = fmaf(v, p1, 0.125f * float(k + 1));
    return v + p2;
}
WB_HOST_DEVICE inline float corner(uint32_t k, float p0, float p1, float p2)
{
    float v = p1;
    for (int j = 0; j < 24; ++j) v = fmaf(v, p2, 0.0625f * float(k + 2));
    return v - p0;
}
WB_HOST_DEVICE inline float edge(uint32_t k, float p0, float p1, float p2)
{
    float v = p2;
    for (int j = 0; j < 24; ++j) v = fmaf(v, p0, 0.03125f * float(k + 3));
    return v + p1;
}

/// Case i of the switch as (function, argument): 0 interior, 1 corner, 2 edge; the seed's table
/// (host code: the reference).
constexpr uint32_t subd_function[16] = {1, 2, 2, 1, 2, 0, 0, 2, 2, 0, 0, 2, 1, 2, 2, 1};
constexpr uint32_t subd_argument[16] = {0, 0, 1, 1, 4, 0, 1, 6, 5, 3, 2, 7, 3, 2, 3, 2};

// ---- the problem as a whole ------------------------------------------------------------------------
enum class problem { call, mode, slot, subd };

/// The `kernel` parameter's problem; false for a name that is none of them.
inline bool problem_of(std::string_view name, problem& out)
{
    if (name == "call")
        out = problem::call;
    else if (name == "mode")
        out = problem::mode;
    else if (name == "slot")
        out = problem::slot;
    else if (name == "subd")
        out = problem::subd;
    else
        return false;
    return true;
}

/// Input words per element: four for call (a, b, e, f) and subd (the case and a patch of three),
/// one for mode and slot.
constexpr uint64_t words_per_element(problem k) { return k == problem::call || k == problem::subd ? 4 : 1; }

/// Element e's output (its input words from e[0]) by the seed's original form of each kernel
/// (host code: the reference).
inline uint32_t expected(problem k, const uint32_t* e)
{
    auto f = [](uint32_t u) { return std::bit_cast<float>(u); };
    if (k == problem::call) {
        const float a = f(e[0]), b = f(e[1]), x = f(e[2]), y = f(e[3] & ~1u);
        return std::bit_cast<uint32_t>((e[3] & 1) ? long_function(a, b, y, x) : long_function(a, b, x, y));
    }
    if (k == problem::mode) return uint32_t(mode_chain(e[0]));
    if (k == problem::slot) return slot_chain(f(e[0]));
    const uint32_t i = e[0] & 15, fn = subd_function[i], arg = subd_argument[i];
    const float v = fn == 0   ? interior(arg, f(e[1]), f(e[2]), f(e[3]))
                    : fn == 1 ? corner(arg, f(e[1]), f(e[2]), f(e[3]))
                              : edge(arg, f(e[1]), f(e[2]), f(e[3]));
    return std::bit_cast<uint32_t>(v);
}

} // namespace wb::branch
