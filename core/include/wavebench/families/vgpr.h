// The vgpr family's problem (seed 003), shared by its plugins and the host reference: object
// density from an integral image of ushort (width x height, row stride = width). For every output
// row y and column x: the four corners A1 = I[y][x], A2 = I[y][x + d], A3 = I[y + d][x],
// A4 = I[y + d][x + d]; out = A4 + A1 - A2 - A3 (ushort, wrapping), zero under the threshold.
// The output has height - d rows of (width - d) / 8 x 8 columns (the kernels work 8 at a time).
#pragma once

#include <cstdint>

#include "wavebench/host_device.h"
#include "wavebench/params.h"

namespace wb::vgpr {

// The parameters, each with its default, range and meaning (core/families/vgpr.cpp lists them).
inline constexpr auto width =
    int_param::range("width", 4096, 8, int64_t(1) << 16, "integral image width (row stride), multiple of 8");
inline constexpr auto height = int_param::range("height", 4096, 1, int64_t(1) << 16, "integral image height");
inline constexpr auto dist = int_param::range("dist", 24, 1, int64_t(1) << 15, "face_dist_size: the window's side");
inline constexpr auto threshold =
    int_param::range("threshold", 64, 0, 65535, "sum_threshold: lanes below it are zeroed");

struct shape {
    int64_t width, height, d, threshold, out_width, out_height;
};

WB_HOST_DEVICE constexpr shape shape_of(int64_t width, int64_t height, int64_t d, int64_t threshold)
{
    return {width, height, d, threshold, width > d + 7 ? (width - d) / 8 * 8 : 0, height > d ? height - d : 0};
}

/// The density at output (y, x) by the definition.
WB_HOST_DEVICE inline uint16_t density(const uint16_t* img, const shape& s, int64_t y, int64_t x)
{
    const int64_t a1 = y * s.width + x, a3 = (y + s.d) * s.width + x;
    const uint16_t sum = uint16_t(img[a3 + s.d] + img[a1] - img[a1 + s.d] - img[a3]);
    return sum >= s.threshold ? sum : 0;
}

} // namespace wb::vgpr
