// Reference for the vgpr family: the density of every output pixel by the problem's definition
// (wavebench/families/vgpr.h), spread over threads. Exact, compared bit for bit.
#pragma once

#include "wavebench/families/vgpr.h"

#include <cstdint>

namespace wb::ref {

/// The out_height x out_width densities of the integral image `img` of shape `s`.
void density_u16(const uint16_t* img, const vgpr::shape& s, uint16_t* out, unsigned threads = 0);

} // namespace wb::ref
