// The reference loops for avx2 with fma3 (compiled with its -m flags, see CMakeLists.txt): the
// converge reference needs fused multiply-adds rounded once.
#include "simd_kernels_impl.hpp"

WB_REF_INSTANTIATE(xsimd::fma3<xsimd::avx2>)
