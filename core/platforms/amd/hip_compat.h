// What HIP 5's headers (Debian 12's ROCm 5.2) expect of the clang that compiles them and a newer
// clang (Debian's clang-22) no longer provides. Force-included (-include) into every amd compile
// only where a configure-time probe compile finds a need (cmake/amd_toolchain.cmake), each part
// switched on by its own macro; a ROCm 6/7 with its own compiler gets none of it. README.md beside
// this file says more.
#pragma once

// WAVEBENCH_HIP_COMPAT_RCP_F16 (probe "rcp"): hip/hip_fp16.h (rocPRIM includes it) calls
// __llvm_amdgcn_rcp_f16 and __llvm_amdgcn_rcp_2f16 from inline functions, counting on the
// declarations that older clang's HIP wrapper headers made and that its own copy skips when the
// wrapper is there; newer clang's wrapper no longer makes them. Declared here before any HIP
// header, with the half-precision reciprocal instruction every supported target has.
#if defined(WAVEBENCH_HIP_COMPAT_RCP_F16)
extern "C" __device__ inline __attribute__((const)) _Float16 __llvm_amdgcn_rcp_f16(_Float16 x)
{
    return __builtin_amdgcn_rcph(x);
}
extern "C" __device__ inline __attribute__((const)) __2f16 __llvm_amdgcn_rcp_2f16(__2f16 x)
{
    return __2f16{__llvm_amdgcn_rcp_f16(x.x), __llvm_amdgcn_rcp_f16(x.y)};
}
#endif

#include <hip/hip_runtime.h>

// WAVEBENCH_HIP_COMPAT_FENCE (probe "fence"): HIP 5's __threadfence, __threadfence_block and
// __threadfence_system call __atomic_work_item_fence, defined only in the device library hip.bc;
// newer clang no longer links hip.bc, and lld fails with "undefined hidden symbol". Defined here for
// device code, weak (one copy per module whatever its translation units), as a fence of the asked
// order at the asked scope.
#if defined(WAVEBENCH_HIP_COMPAT_FENCE) && defined(__HIP_DEVICE_COMPILE__)
// A fence of `order` (a __ATOMIC_* constant) at `scope`: the builtin takes both as literals, hence
// one call per case.
#define WAVEBENCH_FENCE_AT(order, scope)                                                                               \
    switch (scope) {                                                                                                   \
    case __memory_scope_work_item:                                                                                     \
        __builtin_amdgcn_fence(order, "singlethread");                                                                 \
        break;                                                                                                         \
    case __memory_scope_sub_group:                                                                                     \
        __builtin_amdgcn_fence(order, "wavefront");                                                                    \
        break;                                                                                                         \
    case __memory_scope_work_group:                                                                                    \
        __builtin_amdgcn_fence(order, "workgroup");                                                                    \
        break;                                                                                                         \
    case __memory_scope_device:                                                                                        \
        __builtin_amdgcn_fence(order, "agent");                                                                        \
        break;                                                                                                         \
    default:                                                                                                           \
        __builtin_amdgcn_fence(order, "");                                                                             \
        break; /* all SVM devices: the system */                                                                       \
    }

// The fence flags (local or global memory) do not narrow an AMDGPU fence: every order orders both.
extern "C" __device__ __attribute__((weak)) void __atomic_work_item_fence(__cl_mem_fence_flags, __memory_order order,
                                                                          __memory_scope scope)
{
    switch (order) {
    case __memory_order_relaxed:
        break; // a relaxed fence orders nothing
    case __memory_order_acquire:
        WAVEBENCH_FENCE_AT(__ATOMIC_ACQUIRE, scope) break;
    case __memory_order_release:
        WAVEBENCH_FENCE_AT(__ATOMIC_RELEASE, scope) break;
    case __memory_order_acq_rel:
        WAVEBENCH_FENCE_AT(__ATOMIC_ACQ_REL, scope) break;
    default:
        WAVEBENCH_FENCE_AT(__ATOMIC_SEQ_CST, scope) break;
    }
}
#undef WAVEBENCH_FENCE_AT
#endif
