// The reduce family's problem (seed 001), shared by its plugins and the host reference: the sum
// of n int32 elements with wrap-around arithmetic, so the result is exact and independent of the
// order of the additions (every variant matches the reference bit for bit).
#pragma once

#include <cstdint>

#include "wavebench/params.h"

namespace wb::reduce {

// The parameter (core/families/reduce.cpp gives its range).
inline constexpr int_param n{"n"};

} // namespace wb::reduce
