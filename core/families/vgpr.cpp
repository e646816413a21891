// Family `vgpr` (seed 003): object density from an integral image (the problem is in
// wavebench/families/vgpr.h). Exact, compared bit for bit.
#include "wavebench/families/vgpr.h"
#include "core/family.h"
#include "core/random.h"

#include <cstring>

namespace wb {

namespace {

using vgpr::shape;

shape shape_of(const param_map& p)
{
    return vgpr::shape_of(get_int(p, vgpr::width.name), get_int(p, vgpr::height.name), get_int(p, vgpr::dist.name),
                          get_int(p, vgpr::threshold.name));
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

double pixels(const param_map& p)
{
    const shape s = shape_of(p);
    return double(s.out_width * s.out_height);
}

} // namespace

const family& family_vgpr()
{
    static const family f{
        .name = "vgpr",
        .summary = "object density from an integral image, four 8-wide loads (seed 003)",
        .seed = "003 OpenCL effective concurrency: 41 VGPRs vs 6 for the same vload8 expression",
        .baseline = "density_expression",
        .library = "",
        .params = {spec_of(vgpr::width), spec_of(vgpr::height), spec_of(vgpr::dist), spec_of(vgpr::threshold)},
        .metric = {"pixels", "Gpixel/s", 1e9, "", pixels},
        .tolerance = 0,
        .check = check,
        .inputs = inputs,
        .outputs = outputs,
        .generate = generate,
    };
    return f;
}

} // namespace wb
