// The reference loops for avx512f (compiled with its -m flags, see CMakeLists.txt).
#include "simd_kernels_impl.hpp"

WB_REF_INSTANTIATE(xsimd::avx512f)
