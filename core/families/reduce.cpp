// Family `reduce` (seed 001): the int32 sum of n elements, wrap-around arithmetic.
#include "wavebench/families/reduce.h"
#include "core/family.h"
#include "core/random.h"

namespace wb {

namespace {

std::string check(const param_map& p)
{
    const int64_t n = get_int(p, reduce::n.name);
    if (n < reduce::n.min || n > reduce::n.max) return "n must be between 0 and 2^34";
    return "";
}

std::vector<buffer_shape> inputs(const param_map& p) { return {{"in", elem::i32, size_t(get_int(p, reduce::n.name))}}; }

std::vector<buffer_shape> outputs(const param_map&) { return {{"sum", elem::i32, 1}}; }

void generate(const param_map&, uint64_t seed, std::vector<host_buffer>& in)
{
    // Full-range values: every bit of the sum depends on every element.
    fill_random(in[0].as<uint32_t>(), seed);
}

double bytes_read(const param_map& p) { return 4.0 * double(get_int(p, reduce::n.name)); }

} // namespace

const family& family_reduce()
{
    static const family f{
        .name = "reduce",
        .summary = "int32 sum of n elements (wrap-around): one value out",
        .seed = "001 Intel oneAPI GPU optimization guide, Reduction",
        .baseline = "atomic",
        .library = "library",
        .params = {spec_of(reduce::n)},
        .metric = {"bandwidth", "GB/s", 1e9, "read_bandwidth", bytes_read},
        .tolerance = 0,
        .check = check,
        .inputs = inputs,
        .outputs = outputs,
        .generate = generate,
    };
    return f;
}

} // namespace wb
