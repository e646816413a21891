// Seeded inputs. Counter-based (element i depends only on the seed and i), so a buffer is the
// same however it is filled, and a failure is reproduced from the seed printed with it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace wb {

/// SplitMix64 of x: a good 64-bit mix, used as a counter-based generator.
constexpr uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/// Fills with uniformly random 32-bit words.
inline void fill_random(std::span<uint32_t> out, uint64_t seed)
{
    const uint64_t base = mix64(seed);
    size_t i = 0;
    for (; i + 1 < out.size(); i += 2) {
        const uint64_t r = mix64(base + i);
        out[i] = uint32_t(r);
        out[i + 1] = uint32_t(r >> 32);
    }
    if (i < out.size()) out[i] = uint32_t(mix64(base + i));
}

/// A seed for one configuration's inputs, from the suite's seed and a description of the inputs.
inline uint64_t derive_seed(uint64_t suite_seed, std::string_view what)
{
    uint64_t h = 0xcbf29ce484222325ull; // FNV-1a over the description, then mixed with the seed
    for (unsigned char c : what) h = (h ^ c) * 0x100000001b3ull;
    return mix64(h ^ mix64(suite_seed)) & ((uint64_t(1) << 53) - 1); // exact in any JSON reader
}

} // namespace wb
