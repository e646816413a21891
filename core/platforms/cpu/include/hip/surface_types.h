// ROCm's name for part of the cpu platform's texture, surface and array types: all of them are in one header.
#pragma once

#include <hip/hip_texture_types.h>
