// The host API of HIP, as ROCm lays its headers out: here the whole of hip_runtime.h, so code that
// includes only this header finds the platform's names and never the system's ROCm headers.
#pragma once

#include "hip_runtime.h"
