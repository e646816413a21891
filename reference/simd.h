// The references' shared SIMD machinery, as the probe uses it: which instruction set the
// reference loops run with on this CPU, and the CPU's own ceilings measured with those loops.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wb::ref {

/// The instruction set the references dispatch to on this CPU ("avx512f", "avx2", "sse2").
const char* simd_isa();

/// A read-only pass with the widest loads of this CPU (OR of all 64-bit words): the probe's
/// measure of how fast one thread can stream memory.
uint64_t stream_read(const void* data, size_t bytes);

/// Multiply-adds per second one thread sustains, int32, with the widest vectors of this CPU:
/// the compute ceiling of conv on the cpu platform (times the threads).
double imad_rate_one_thread();

} // namespace wb::ref
