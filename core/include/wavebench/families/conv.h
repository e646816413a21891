// The conv family's problem (seed 000), shared by its plugins and the host reference: a 1D int32
// convolution of n inputs with m taps (m odd), centred on each output, zeros outside the input,
// wrapping modulo 2^32, so every variant matches the reference bit for bit:
//     out[i] = sum_j in[i + j - m/2] * k[j]
#pragma once

#include <cstdint>

#include "wavebench/params.h"

namespace wb::conv {

// The parameters (core/families/conv.cpp gives their ranges).
inline constexpr int_param n{"n"}, m{"m"};

} // namespace wb::conv
