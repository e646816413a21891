// Reference and SIMD-step model for the converge family (seed 002; the problem is defined in
// wavebench/families/converge.h, shared with the plugins).
#pragma once

#include "converge_costs.h"

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
void converge_f32_scalar(const uint32_t* bits, uint32_t lanes, uint32_t iterations, int branch_len, int nonbranch_len,
                         uint32_t* out);

// ---- the SIMD-step model ------------------------------------------------------------------------
// A wavefront of `warp_size` lanes runs a path once for all its lanes that want it (the others wait,
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
    // For the overhead-aware model (issued): the facts that decide which code blocks a trip issues.
    int64_t t_runs = 0, f_runs = 0; // branch executions of path T / F (branch = t_runs + f_runs)
    int64_t load_trips = 0;         // postpone, advance: trips in which some pending lane needed a new direction word
    int64_t next_trips = 0;         // advance: trips in which some pending lane had i + 1 < iterations
    int64_t next_load_trips = 0;    // advance: ... and some such lane's i + 1 is in a word it had not loaded
    /// Instructions issued: each branch execution is branch_len multiply-adds, each non-branch one
    /// nonbranch_len (the strategy's own bookkeeping is not counted).
    double instructions(int branch_len, int nonbranch_len) const
    {
        return double(branch) * branch_len + double(nonbranch) * nonbranch_len;
    }
    simd_steps& operator+=(const simd_steps& o)
    {
        branch += o.branch, nonbranch += o.nonbranch, loop += o.loop, active_lanes += o.active_lanes;
        t_runs += o.t_runs, f_runs += o.f_runs, load_trips += o.load_trips;
        next_trips += o.next_trips, next_load_trips += o.next_load_trips;
        return *this;
    }
};

/// `relief`: postpone_majority runs the minority path every relief-th step (0: never).
/// `trace`, when given, receives for the first wavefront the lanes (bit per lane) that ran each
/// branch execution, in order.
simd_steps count_steps(const uint32_t* bits, uint32_t lanes, uint32_t iterations, unsigned warp_size, strategy s,
                       int relief = 0, std::vector<uint64_t>* trace = nullptr);

/// The overhead-aware model (issue 16): instructions issued by the wavefronts, summed over loop
/// trips, with the per-trip costs `c` of strategy `s`'s kernel (counted from its SASS/ISA) for
/// these lengths; `relief` as for count_steps (postpone_majority).
double issued(const simd_steps& steps, strategy s, const step_costs& c, int branch_len, int nonbranch_len,
              int relief = 0);

/// Bits of a branch matrix given as one string of 'T'/'F' per lane (tests and examples).
std::vector<uint32_t> branch_bits(const std::vector<std::string_view>& lanes);

} // namespace wb::ref
