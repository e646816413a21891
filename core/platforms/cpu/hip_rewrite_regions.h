// The region marks of wavebench-hip-rewrite (hip_rewrite_regions.cpp): in the functions that reach a
// warp collective, each function body, if/switch/loop statement and loop iteration that can reach
// one gets a frame (::hip_cpu_region, hip_cpu_warp.h) for as long as a lane is in it, and each
// branch of an if or switch says which branch the lane took. The cpu runtime groups a collective's
// lanes by these frames, so that a wavefront's lanes reconverge where the statement ends, as a GPU's.
#pragma once

#include "hip_rewrite_lex.h"

#include <string>
#include <vector>

namespace hip_rewrite {

/// Text to insert at a source offset. At one offset, closings come first, innermost first, then
/// openings, outermost first.
struct Insert {
    size_t at;
    bool opening;
    int depth;
    std::string text;
};

/// What the marks cannot be made for: the offset and why (a backward goto in a function that reaches
/// a collective).
struct RegionError {
    size_t at;
    std::string what;
};

/// The marks for `T`, sorted by offset as they are to be written. `preprocessed`: the source is
/// g++ -E output, whose line markers say which tokens come from system headers or from the cpu
/// platform's own headers (left alone). Functions whose statements cannot be read (unbalanced
/// brackets, a statement split by a conditional directive) are left alone with a note in `notes`.
/// Throws RegionError.
std::vector<Insert> region_marks(const Src& S, const Toks& T, bool preprocessed,
                                 std::vector<std::pair<size_t, std::string>>& notes);

} // namespace hip_rewrite
