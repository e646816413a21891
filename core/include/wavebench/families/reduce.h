// The reduce family's problem (seed 001), shared by its plugins and the host reference: the sum
// of n int32 elements with wrap-around arithmetic, so the result is exact and independent of the
// order of the additions (every variant matches the reference bit for bit).
#pragma once

#include <cstdint>

#include "wavebench/params.h"

namespace wb::reduce {

// The parameter, with its default, range and meaning (core/families/reduce.cpp lists it): up to
// 2^34 elements, 64 GiB of int32, more than any device here.
inline constexpr auto n = int_param::range("n", int64_t(1) << 20, 0, int64_t(1) << 34, "number of int32 elements");

} // namespace wb::reduce
