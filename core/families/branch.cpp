// Family `branch` (seed 004): four small kernels (wavebench/families/branch.h), each written two ways by a
// plugin pair; `kernel` picks the problem, `distribution` whether neighbouring elements take
// different branches (divergent) or every 64 consecutive elements the same one (uniform, the
// control). Outputs are exact, compared bit for bit.
#include "wavebench/families/branch.h"
#include "core/chunks.h"
#include "core/family.h"
#include "core/random.h"

#include <bit>

namespace wb {

namespace {

std::string check(const param_map& p)
{
    const std::string& k = get_string(p, branch::kernel.name);
    if (branch::problem k_; !branch::problem_of(k, k_))
        return "kernel '" + k + "' is not one of call, mode, slot, subd";
    const std::string& d = get_string(p, branch::distribution.name);
    if (d != "divergent" && d != "uniform") return "distribution '" + d + "' is not divergent or uniform";
    return "";
}

using kernel = branch::problem;

/// The parameter resolved once (check() has refused any other value).
kernel kernel_of(const param_map& p)
{
    kernel k = kernel::call;
    branch::problem_of(get_string(p, branch::kernel.name), k);
    return k;
}

std::vector<buffer_shape> inputs(const param_map& p)
{
    return {{"in", elem::u32, size_t(branch::words_per_element(kernel_of(p))) * size_t(get_int(p, branch::n.name))}};
}
std::vector<buffer_shape> outputs(const param_map& p)
{
    return {{"out", elem::u32, size_t(get_int(p, branch::n.name))}};
}

float unit(uint64_t x) { return float(mix64(x) >> 40) * 0x1.0p-24f; } // [0, 1), exact

void generate(const param_map& p, uint64_t seed, std::vector<host_buffer>& in)
{
    const kernel k = kernel_of(p);
    const bool uniform = get_string(p, branch::distribution.name) == "uniform";
    auto w = in[0].as<uint32_t>();
    const uint64_t base = mix64(seed);
    const size_t words = size_t(branch::words_per_element(k)), n = w.size() / words;
    // Each element depends only on the seed and its index: generated over threads.
    for_chunks(n, size_t(1) << 16, 1, 0, [&](size_t first, size_t last) {
        for (size_t i = first; i < last; ++i) {
            const uint64_t r = base + 8 * (uniform ? i / 64 : i); // what decides the branch
            const uint64_t own = base ^ (uint64_t(i) << 24);      // what does not
            uint32_t* e = &w[words * i];
            if (k == kernel::call) {
                e[0] = std::bit_cast<uint32_t>(unit(own + 1));
                e[1] = std::bit_cast<uint32_t>(unit(own + 2));
                e[2] = std::bit_cast<uint32_t>(0.5f + 0.4f * unit(own + 3));
                e[3] = mix64(r) & 1; // the condition; f comes from e (below) so the swap matters
                e[3] |= std::bit_cast<uint32_t>(0.5f + 0.4f * unit(own + 4)) & ~1u;
            } else if (k == kernel::mode) {
                e[0] = uint32_t(mix64(r));
            } else if (k == kernel::slot) {
                e[0] = std::bit_cast<uint32_t>(2 * unit(r) - 1); // [-1, 1)
            } else {
                e[0] = uint32_t(mix64(r) % 16);
                e[1] = std::bit_cast<uint32_t>(0.5f + 0.4f * unit(own + 1));
                e[2] = std::bit_cast<uint32_t>(0.5f + 0.4f * unit(own + 2));
                e[3] = std::bit_cast<uint32_t>(0.5f + 0.4f * unit(own + 3));
            }
        }
    });
}

double elements(const param_map& p) { return double(get_int(p, branch::n.name)); }

} // namespace

const family& family_branch()
{
    static const family f{
        .name = "branch",
        .summary = "four small kernels, each written two ways (seed 004): if/else call, if-chain, slot, switch",
        .seed = "004 OpenCL if-else / switch-case optimization case study",
        .baseline = "",
        .library = "",
        .params = {spec_of(branch::n), spec_of(branch::kernel), spec_of(branch::distribution)},
        .metric = {"elements", "Gelem/s", 1e9, "", elements},
        .tolerance = 0,
        .check = check,
        .inputs = inputs,
        .outputs = outputs,
        .generate = generate,
    };
    return f;
}

} // namespace wb
