// The one comparison helper: expected against actual, for every family. Integer outputs must
// match bit for bit; real outputs within a relative tolerance the family states.
#pragma once

#include "core/family.h"

#include <string>

namespace wb {

struct comparison {
    bool ok = true;
    size_t mismatches = 0;
    size_t first = 0;   // index of the first wrong element
    std::string detail; // "element 12 of 1000: expected 5, got -1431655766"
};

/// tolerance 0 (or an integer type): bit for bit. Otherwise |got - want| <= tolerance * max(1, |want|).
comparison compare(const host_buffer& expected, const host_buffer& actual, double tolerance);

/// Whether `bytes` bytes at a and b are the same (memcmp, over threads for large buffers: outputs
/// and inputs of hundreds of MB are compared after many runs). Null pointers only with 0 bytes.
bool same_bytes(const void* a, const void* b, size_t bytes);

} // namespace wb
