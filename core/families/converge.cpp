// Family `converge` (seed 002): lanes each run `iterations` loop iterations with a divergent
// branch inside (path T or F, branch_len dependent fused multiply-adds, then nonbranch_len more);
// the problem itself is in wavebench/families/converge.h. The variants reorder the iterations so that
// lanes taking the same path run together; the result, a sum of the values' bits, does not depend
// on the order, so every variant must match the reference bit for bit.
#include "wavebench/families/converge.h"
#include "core/chunks.h"
#include "core/family.h"
#include "core/random.h"

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

uint32_t lanes_of(const param_map& p) { return uint32_t(get_int(p, converge::lanes.name)); }
uint32_t iterations_of(const param_map& p) { return uint32_t(get_int(p, converge::iterations.name)); }

std::string check(const param_map& p)
{
    const std::string& pattern = get_string(p, converge::pattern.name);
    const double prob = get_real(p, converge::p.name);
    if (pattern != "random" && pattern != "biased" && pattern != "alternating" && pattern != "advanceable")
        return "pattern '" + pattern + "' is not one of random, biased, alternating, advanceable";
    if (!(prob >= 0 && prob <= 1)) return "p must be in 0..1";
    if (pattern == "advanceable" && prob > 0.5)
        return "p, the advanceable fraction, is at most 0.5: an advanced iteration takes its neighbour with it";
    return "";
}

std::vector<buffer_shape> inputs(const param_map& p)
{
    return {{"branches", elem::u32, size_t(converge::words(lanes_of(p), iterations_of(p)))}};
}

std::vector<buffer_shape> outputs(const param_map& p) { return {{"folds", elem::u32, size_t(lanes_of(p))}}; }

/// A uniform double in [0, 1) from a counter.
double unit(uint64_t x) { return double(mix64(x) >> 11) * 0x1.0p-53; }

void generate(const param_map& p, uint64_t seed, std::vector<host_buffer>& in)
{
    const uint32_t lanes = lanes_of(p), iterations = iterations_of(p);
    const std::string& pattern = get_string(p, converge::pattern.name);
    const double prob = get_real(p, converge::p.name);
    auto bits = in[0].as<uint32_t>();
    std::fill(bits.begin(), bits.end(), 0u);
    const uint64_t base = mix64(seed);
    // Each lane has its own stream and its own bits: the lanes are generated over threads.
    for_chunks(lanes, 4096, 1, 0, [&](size_t first, size_t last) {
        std::vector<bool> row(iterations);
        std::vector<uint8_t> tokens;
        for (uint32_t lane = uint32_t(first); lane < last; ++lane) {
            const uint64_t ls = mix64(base ^ (uint64_t(lane) << 20)); // this lane's stream
            if (pattern == "random" || pattern == "biased") {
                // biased: each lane takes T with probability p or 1 - p, chosen per lane
                const double q = pattern == "random" || (ls & 1) ? prob : 1 - prob;
                for (uint32_t i = 0; i < iterations; ++i) row[i] = unit(ls + 1 + i) < q;
            } else if (pattern == "alternating") { // T, F, T, ... from a random phase per lane
                for (uint32_t i = 0; i < iterations; ++i) row[i] = ((i + (ls & 1)) & 1) == 0;
            } else {
                // advanceable: exactly round(p x iterations) pairs of differing neighbours as the
                // advance variant scans them (greedily from the start), the rest single iterations
                // whose successor takes the same path; tokens shuffled per lane.
                const uint32_t pairs = std::min(iterations / 2, uint32_t(std::lround(prob * iterations)));
                tokens.assign(iterations - 2 * pairs, 0);
                tokens.insert(tokens.end(), pairs, 1);
                for (size_t k = tokens.size(); k > 1; --k) std::swap(tokens[k - 1], tokens[mix64(ls + k) % k]);
                bool v = ls & 2;
                uint32_t i = 0;
                for (size_t k = 0; k < tokens.size(); ++k) {
                    if (tokens[k]) {
                        row[i++] = v;
                        row[i++] = !v;
                        v = mix64(ls ^ (k << 32)) & 1; // the next token starts anywhere
                    } else {
                        row[i++] = v; // the next token starts on the same path
                    }
                }
            }
            for (uint32_t i = 0; i < iterations; ++i)
                if (row[i]) bits[uint64_t(i / 32) * lanes + lane] |= 1u << (i % 32);
        }
    });
}

double multiply_adds(const param_map& p)
{
    return double(lanes_of(p)) * iterations_of(p) *
           double(get_int(p, converge::branch_len.name) + get_int(p, converge::nonbranch_len.name));
}

} // namespace

const family& family_converge()
{
    static const family f{
        .name = "converge",
        .summary = "a divergent branch in a loop: lanes x iterations, paths of dependent FMAs, order-free fold",
        .seed = "002 software SIMD branch convergence (loop postpone, loop advance)",
        .baseline = "baseline",
        .library = "",
        .params = {spec_of(converge::lanes), spec_of(converge::iterations), spec_of(converge::branch_len),
                   spec_of(converge::nonbranch_len), spec_of(converge::pattern), spec_of(converge::p)},
        .metric = {"multiply_adds", "GFMA/s", 1e9, "", multiply_adds},
        .tolerance = 0,
        .check = check,
        .inputs = inputs,
        .outputs = outputs,
        .generate = generate,
    };
    return f;
}

} // namespace wb
