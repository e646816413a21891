// The reference loops for sse2 (compiled with its -m flags, see CMakeLists.txt).
#include "simd_kernels_impl.hpp"

WB_REF_INSTANTIATE(xsimd::sse2)
