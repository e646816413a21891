// The cpu runtime's fiber stacks have no guard pages (they sit side by side in huge pages): a
// lane that overflows its stack must still be caught. Lane 1 of a two-lane block, in fibers since
// the barrier, fills a local array larger than its 64 KiB stack; lane 0 has finished by then, so
// what lane 1 overwrites below its stack is lane 0's dead stack, and the block's end finds the
// canary at the bottom of lane 1's stack overwritten. Expected: the runtime's message, and an
// abort. Usage: cpu_stack_overflow [KIB] (the array's size, default 80).
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>

__global__ void overflow(int* out, unsigned kib)
{
    __syncthreads();
    if (threadIdx.x == 1) {
        volatile char* big = static_cast<volatile char*>(__builtin_alloca(size_t(kib) * 1024));
        for (size_t i = 0; i < size_t(kib) * 1024; ++i) big[i] = char(i);
        out[0] = big[kib * 512];
    }
}

int main(int argc, char** argv)
{
    const unsigned kib = argc > 1 ? unsigned(std::atoi(argv[1])) : 80;
    int* out = nullptr;
    if (hipMalloc(&out, sizeof(int)) != hipSuccess) return 1;
    hipLaunchKernelGGL(overflow, dim3(1), dim3(2), 0, 0, out, kib);
    const hipError_t e = hipDeviceSynchronize();
    (void)hipFree(out);
    std::printf("cpu_stack_overflow %u KiB: the launch returned %s (no overflow reported)\n", kib,
                hipGetErrorString(e));
    return 0;
}
