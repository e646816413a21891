// WB_HOST_DEVICE: a function the plugins' kernels and the host reference both call (the families'
// problem headers); plain C++ where no GPU compiler is at work.
#pragma once

#if defined(__HIPCC__) || defined(__CUDACC__)
#define WB_HOST_DEVICE __host__ __device__
#else
#define WB_HOST_DEVICE
#endif
