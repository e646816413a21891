// The reference loops for avx2 (compiled with its -m flags, see CMakeLists.txt).
#include "simd_kernels_impl.hpp"

WB_REF_INSTANTIATE(xsimd::avx2)
