// The seed's second kernel. The input is copied, untimed, into a buffer with m/2
// zeros on each side, and every work-item runs the plain loop with no check (seed 000, "padding
// buffers to remove conditional checks").
#include "common.h"

__global__ void conv_padded(const int* padded, const int* k, int* out, long long n, int m)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int t = 0;
    for (int j = 0; j < m; ++j) t += padded[i + j] * k[j];
    out[i] = t;
}

static void prepare(wb_args* a) // the padded buffer, zeros at both ends
{
    const common::problem p = common::of(a);
    const size_t elements = size_t(p.n) + 2 * size_t(p.m / 2);
    int* padded = nullptr;
    HIP_CHECK(hipMalloc(&padded, elements * sizeof(int)));
    a->state = padded;
    HIP_CHECK(hipMemset(padded, 0, elements * sizeof(int)));
    wb::note(a, "padded input: %zu elements", elements);
}

static void bind(wb_args* a) // these inputs, between the zeros
{
    const common::problem p = common::of(a);
    HIP_CHECK(hipMemcpy(wb::state<int>(a) + p.m / 2, p.in, size_t(p.n) * sizeof(int), hipMemcpyDeviceToDevice));
}

static const auto kernel = WB_KERNEL(conv_padded, wb::block_size);

static void run(wb_args* a) { common::launch_per_output(a, kernel, wb::state<const int>(a)); }

static void release(wb_args* a)
{
    if (a->state) HIP_CHECK(hipFree(a->state));
}

WB_PLUGIN({.summary = "input padded with m/2 zeros each side (untimed prepare); no checks in the kernel",
           .seed = "000: padding buffers to remove conditional checks",
           .kernels = {kernel},
           .tunables = {wb::block_size},
           .prepare = prepare,
           .run = run,
           .release = release,
           .bind = bind})
