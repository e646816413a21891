// What code that includes ROCm's detail header by name gets on the cpu platform: hip/hip_fp16.h.
#pragma once

#include <hip/hip_fp16.h>
