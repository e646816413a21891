// Reference and SIMD-step model for the converge family (seed 002; the problem is defined in
// wavebench/families/converge.h, shared with the plugins).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace wb::ref {

/// Each lane's fold, vectorized across lanes (xsimd, run-time dispatch, fused multiply-adds
/// rounded once) and spread over `threads` threads (0: one per hardware thread).
void converge_f32(const uint32_t* bits, uint32_t lanes, uint32_t iterations, int branch_len, int nonbranch_len,
                  uint32_t* out, unsigned threads = 0);

/// The scalar oracle: one lane, one iteration, one path at a time, as the baseline kernel does.
void converge_f32_scalar(const uint32_t* bits, uint32_t lanes, uint32_t iterations, int branch_len,
                         int nonbranch_len, uint32_t* out);

// ---- the SIMD-step model ------------------------------------------------------------------------
// A wavefront of `width` lanes runs a path once for all its lanes that want it (the others wait,
// masked off). The model replays each strategy's control flow on the branch matrix and counts,
// summed over wavefronts, the times a branch path and the non-branch code are executed.

enum class strategy { baseline, postpone_majority, postpone_roundrobin, advance };

/// The strategy a plugin of the converge family implements, by its variant name.
std::optional<strategy> strategy_of(std::string_view variant);

struct simd_steps {
    int64_t branch = 0;       // executions of path T or F by a wavefront
    int64_t nonbranch = 0;    // executions of the non-branch code by a wavefront
    int64_t loop = 0;         // trips of the loop, summed over wavefronts
    int64_t active_lanes = 0; // lanes doing useful work, summed over the branch executions
    /// Instructions issued: each branch execution is branch_len multiply-adds, each non-branch one
    /// nonbranch_len (the strategy's own bookkeeping is not counted).
    double instructions(int branch_len, int nonbranch_len) const
    {
        return double(branch) * branch_len + double(nonbranch) * nonbranch_len;
    }
};

/// `relief`: postpone_majority runs the minority path every relief-th step (0: never).
/// `trace`, when given, receives for the first wavefront the lanes (bit per lane) that ran each
/// branch execution, in order.
simd_steps count_steps(const uint32_t* bits, uint32_t lanes, uint32_t iterations, unsigned width, strategy s,
                       int relief = 0, std::vector<uint64_t>* trace = nullptr);

/// Bits of a branch matrix given as one string of 'T'/'F' per lane (tests and examples).
std::vector<uint32_t> branch_bits(const std::vector<std::string_view>& lanes);

} // namespace wb::ref
