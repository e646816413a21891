// The warp size (a wavefront's width) a run may choose: only the cpu platform lets it choose, 32 or
// 64, 64 unless asked; a GPU's is its hardware's. Read by the cpu runtime and by the harness.
#pragma once

namespace wb {

/// The cpu platform's warp size when the run does not ask for another (--warp-size).
inline constexpr int cpu_default_warp_size = 64;

/// Whether the cpu platform can run wavefronts of `warp_size` lanes.
constexpr bool cpu_warp_size_allowed(int warp_size) { return warp_size == 32 || warp_size == 64; }

/// The warp size to ask a platform's init for when the run asked for `asked` (0: none): `asked` on
/// the cpu platform, 0 (the device's own) on the others, whose width is fixed.
constexpr int warp_size_to_ask(bool cpu_platform, int asked) { return cpu_platform ? asked : 0; }

} // namespace wb
