// Which wavebench platform the including translation unit is compiled for, from the HIP header
// it was given: WB_PLATFORM_NAME is "cpu", "amd" or "nvidia".
#pragma once

#include <hip/hip_runtime.h>

#if defined(__HIP_PLATFORM_WAVEBENCH_CPU__)
#define WB_PLATFORM_NAME "cpu"
#elif defined(__HIP_PLATFORM_NVIDIA__)
#define WB_PLATFORM_NAME "nvidia"
#elif defined(__HIP_PLATFORM_AMD__)
#define WB_PLATFORM_NAME "amd"
#else
#error "unknown HIP platform: include a wavebench platform's hip/hip_runtime.h"
#endif
