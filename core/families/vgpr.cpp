// Family `vgpr` (seed 003): from an integral image of ushort (width x height, row stride = width),
// every output row y and group of 8 columns x_v: the four corners A1 = I[y][8x_v + .],
// A2 = I[y][8x_v + d + .], A3 = I[y + d][8x_v + .], A4 = I[y + d][8x_v + d + .], 8 lanes each;
// out = A4 + A1 - A2 - A3 (ushort, wrapping), lanes under the threshold zeroed. Output: height - d
// rows of (width - d) / 8 x 8 ushorts. Exact, compared bit for bit.
#include "core/family.h"
#include "core/random.h"

#include <cstring>

namespace wb {

namespace {

struct shape {
    int64_t width, height, d, threshold, out_width, out_height;
};

shape shape_of(const param_map& p)
{
    shape s{get_int(p, "width"), get_int(p, "height"), get_int(p, "dist"), get_int(p, "threshold"), 0, 0};
    s.out_width = s.width > s.d + 7 ? (s.width - s.d) / 8 * 8 : 0;
    s.out_height = s.height > s.d ? s.height - s.d : 0;
    return s;
}

std::string check(const param_map& p)
{
    const shape s = shape_of(p);
    if (s.width % 8) return "width must be a multiple of 8 (rows are read 8 ushorts at a time)";
    if (s.out_width == 0 || s.out_height == 0) return "dist leaves no output: it must be below width - 7 and height";
    return "";
}

// Both as 32-bit words holding two ushorts (a buffer of ushort is not among the harness's types).
std::vector<buffer_shape> inputs(const param_map& p)
{
    const shape s = shape_of(p);
    return {{"integral", elem::u32, size_t(s.width * s.height / 2)}};
}

std::vector<buffer_shape> outputs(const param_map& p)
{
    const shape s = shape_of(p);
    return {{"density", elem::u32, size_t(s.out_width * s.out_height / 2)}};
}

void generate(const param_map& p, uint64_t seed, std::vector<host_buffer>& in)
{
    // A real integral image (mod 2^16) of random counts 0..3 per pixel.
    const shape s = shape_of(p);
    auto* img = reinterpret_cast<uint16_t*>(in[0].bytes.data());
    const uint64_t base = mix64(seed);
    for (int64_t y = 0; y < s.height; ++y)
        for (int64_t x = 0, row = 0; x < s.width; ++x) {
            row += int64_t(mix64(base + uint64_t(y * s.width + x)) & 3);
            img[y * s.width + x] = uint16_t(row + (y ? img[(y - 1) * s.width + x] : 0));
        }
}

void reference(const param_map& p, const std::vector<host_buffer>& in, std::vector<host_buffer>& out)
{
    const shape s = shape_of(p);
    const auto* img = reinterpret_cast<const uint16_t*>(in[0].bytes.data());
    auto* o = reinterpret_cast<uint16_t*>(out[0].bytes.data());
    for (int64_t y = 0; y < s.out_height; ++y)
        for (int64_t x = 0; x < s.out_width; ++x) {
            const int64_t a1 = y * s.width + x, a3 = (y + s.d) * s.width + x;
            const uint16_t sum = uint16_t(img[a3 + s.d] + img[a1] - img[a1 + s.d] - img[a3]);
            o[y * s.out_width + x] = sum >= s.threshold ? sum : 0;
        }
}

double pixels(const param_map& p)
{
    const shape s = shape_of(p);
    return double(s.out_width * s.out_height);
}

} // namespace

const family& vgpr_family()
{
    static const family f{
        .name = "vgpr",
        .summary = "object density from an integral image, four 8-wide loads (seed 003)",
        .seed = "003 OpenCL effective concurrency: 41 VGPRs vs 6 for the same vload8 expression",
        .baseline = "density_expression",
        .library = "",
        .params = {{"width", int64_t(4096), 8, int64_t(1) << 16, "integral image width (row stride), multiple of 8"},
                   {"height", int64_t(4096), 1, int64_t(1) << 16, "integral image height"},
                   {"dist", int64_t(24), 1, int64_t(1) << 15, "face_dist_size: the window's side"},
                   {"threshold", int64_t(64), 0, 65535, "sum_threshold: lanes below it are zeroed"}},
        .metric = {"pixels", "Gpixel/s", 1e9, "", pixels},
        .tolerance = 0,
        .check = check,
        .inputs = inputs,
        .outputs = outputs,
        .generate = generate,
        .reference = reference,
    };
    return f;
}

} // namespace wb
