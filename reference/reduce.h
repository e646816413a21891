// Reference for the reduce family: the int32 sum with wrap-around arithmetic
// (wavebench/families/reduce.h), exact and independent of the order of the additions.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wb::ref {

/// The sum, vectorized with the best instruction set of this CPU (xsimd run-time dispatch).
int32_t sum_i32(const int32_t* data, size_t n);

/// The scalar oracle: one element at a time, never vectorized. Tests and the probe only.
int32_t sum_i32_scalar(const int32_t* data, size_t n);

} // namespace wb::ref
