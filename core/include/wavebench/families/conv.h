// The conv family's problem (seed 000), shared by its plugins and the host reference: a 1D int32
// convolution of n inputs with m taps (m odd), centred on each output, zeros outside the input,
// wrapping modulo 2^32, so every variant matches the reference bit for bit:
//     out[i] = sum_j in[i + j - m/2] * k[j]
#pragma once

#include <cstdint>

#include "wavebench/params.h"

namespace wb::conv {

// The parameters, each with its default, range and meaning (core/families/conv.cpp lists them).
inline constexpr auto n = int_param::range("n", int64_t(1) << 20, 0, int64_t(1) << 31, "outputs (and input elements)");
inline constexpr auto m = int_param::range("m", 257, 1, 4095, "taps of the kernel, odd");

} // namespace wb::conv
