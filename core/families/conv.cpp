// Family `conv` (seed 000): 1D integer convolution, out[i] = sum_j in[i + j - m/2] * k[j] with zeros
// outside the input; int32 with wrap-around, so every variant matches the reference bit for bit.
#include "core/family.h"
#include "core/random.h"
#include "reference/conv.h"

namespace wb {

namespace {

constexpr int64_t max_n = int64_t(1) << 31;
constexpr int64_t max_m = 4095;

std::string check(const param_map& p)
{
    const int64_t m = get_int(p, "m");
    if (m % 2 == 0) return "m (the taps) must be odd: the kernel is centred on each output";
    return "";
}

std::vector<buffer_shape> inputs(const param_map& p)
{
    return {{"in", elem::i32, size_t(get_int(p, "n"))}, {"kernel", elem::i32, size_t(get_int(p, "m"))}};
}

std::vector<buffer_shape> outputs(const param_map& p) { return {{"out", elem::i32, size_t(get_int(p, "n"))}}; }

void generate(const param_map&, uint64_t seed, std::vector<host_buffer>& in)
{
    // Full-range values: products and sums wrap, and every bit of every output counts.
    fill_random(in[0].as<uint32_t>(), seed);
    fill_random(in[1].as<uint32_t>(), mix64(seed ^ 0x6b65726e656cull));
}

void reference(const param_map&, const std::vector<host_buffer>& in, std::vector<host_buffer>& out)
{
    const auto x = in[0].as<int32_t>(), k = in[1].as<int32_t>();
    ref::conv_i32(x.data(), x.size(), k.data(), k.size(), out[0].as<int32_t>().data());
}

double multiply_adds(const param_map& p) { return double(get_int(p, "n")) * double(get_int(p, "m")); }

} // namespace

const family& conv_family()
{
    static const family f{
        .name = "conv",
        .summary = "1D int32 convolution, n outputs, m taps (odd), zeros outside the input",
        .seed = "000 Intel oneAPI GPU optimization guide, Removing Conditional Checks",
        .baseline = "conditional",
        .library = "",
        .params = {{"n", int64_t(1) << 20, 0, max_n, "outputs (and input elements)"},
                   {"m", int64_t(257), 1, max_m, "taps of the kernel, odd"}},
        .metric = {"multiply_adds", "GMAC/s", 1e9, "imad_rate", multiply_adds},
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
