// Family `conv` (seed 000): 1D integer convolution, out[i] = sum_j in[i + j - m/2] * k[j] with zeros
// outside the input; int32 with wrap-around, so every variant matches the reference bit for bit.
#include "wavebench/families/conv.h"
#include "core/family.h"
#include "core/random.h"

namespace wb {

namespace {

std::string check(const param_map& p)
{
    const int64_t m = get_int(p, conv::m.name);
    if (m % 2 == 0) return "m (the taps) must be odd: the kernel is centred on each output";
    return "";
}

std::vector<buffer_shape> inputs(const param_map& p)
{
    return {{"in", elem::i32, size_t(get_int(p, conv::n.name))},
            {"kernel", elem::i32, size_t(get_int(p, conv::m.name))}};
}

std::vector<buffer_shape> outputs(const param_map& p) { return {{"out", elem::i32, size_t(get_int(p, conv::n.name))}}; }

void generate(const param_map&, uint64_t seed, std::vector<host_buffer>& in)
{
    // Full-range values: products and sums wrap, and every bit of every output counts.
    fill_random(in[0].as<uint32_t>(), seed);
    fill_random(in[1].as<uint32_t>(), mix64(seed ^ 0x6b65726e656cull));
}

double multiply_adds(const param_map& p) { return double(get_int(p, conv::n.name)) * double(get_int(p, conv::m.name)); }

} // namespace

const family& family_conv()
{
    static const family f{
        .name = "conv",
        .summary = "1D int32 convolution, n outputs, m taps (odd), zeros outside the input",
        .seed = "000 Intel oneAPI GPU optimization guide, Removing Conditional Checks",
        .baseline = "conditional",
        .library = "",
        .params = {spec_of(conv::n), spec_of(conv::m)},
        .metric = {"multiply_adds", "GMAC/s", 1e9, "imad_rate", multiply_adds},
        .tolerance = 0,
        .check = check,
        .inputs = inputs,
        .outputs = outputs,
        .generate = generate,
    };
    return f;
}

} // namespace wb
