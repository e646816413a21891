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

} // namespace wb
