// Reference for the branch family: each element's output by the seed's original form of its
// kernel (wavebench/families/branch.h), spread over threads. Exact, compared bit for bit.
#pragma once

#include "wavebench/families/branch.h"

#include <cstddef>
#include <cstdint>

namespace wb::ref {

/// out[i] for the n elements of problem k, whose input words start at in (words_per_element(k) each).
void branch_u32(branch::problem k, const uint32_t* in, size_t n, uint32_t* out, unsigned threads = 0);

} // namespace wb::ref
