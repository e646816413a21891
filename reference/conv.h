// Reference for the conv family (the problem is in wavebench/families/conv.h):
// out[i] = sum_j in[i + j - m/2] * k[j], zero outside the input, int32 with wrap-around.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wb::ref {

/// The convolution, vectorized across outputs with the best instruction set of this CPU and
/// spread over `threads` threads (0: one per hardware thread).
void conv_i32(const int32_t* in, size_t n, const int32_t* k, size_t m, int32_t* out, unsigned threads = 0);

/// The scalar oracle: one multiply-add at a time, never vectorized. Tests and the probe only.
void conv_i32_scalar(const int32_t* in, size_t n, const int32_t* k, size_t m, int32_t* out);

} // namespace wb::ref
