// Reference for the reduce family: the int32 sum with wrap-around arithmetic (exact and
// independent of the order of additions, so every variant must match it bit for bit).
#pragma once

#include <cstddef>
#include <cstdint>

namespace wb::ref {

/// The sum, vectorized with the best instruction set of this CPU (xsimd run-time dispatch).
int32_t sum_i32(const int32_t* data, size_t n);

/// The instruction set sum_i32 dispatches to on this CPU ("avx512f", "avx2", "sse2").
const char* simd_isa();

/// The scalar oracle: one element at a time, never vectorized. Tests and the probe only.
int32_t sum_i32_scalar(const int32_t* data, size_t n);

/// A read-only pass with the widest loads of this CPU (OR of all 64-bit words): the probe's
/// measure of how fast one thread can stream memory.
uint64_t stream_read(const void* data, size_t bytes);

} // namespace wb::ref
