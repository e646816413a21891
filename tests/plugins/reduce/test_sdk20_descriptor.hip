// Test plugin: a descriptor as SDK 2.0 built it, whose `size` ends before the fields SDK 2.1 added
// (sdk_version, launch). Past its size it holds a launch that aborts: the harness must read no
// field beyond the size a descriptor declares, and resolve the kernel's launch from its declaration.
#include "wavebench/families/reduce.h"
#include "wavebench/plugin.h"

#include <cstddef>
#include <cstdlib>

__global__ void reduce_atomic_sdk20(const int* in, int* sum, size_t n)
{
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(sum, in[i]);
}

static const auto kernel = WB_KERNEL(reduce_atomic_sdk20, wb::block_size);

static void run(wb_args* a)
{
    const int64_t n = wb::reduce::n(a);
    int* sum = wb::out<int>(a, 0);
    HIP_CHECK(hipMemsetAsync(sum, 0, sizeof(int), wb::stream(a)));
    kernel.launch_over(a, n, wb::in<int>(a, 0), sum, size_t(n));
}

static const wb::plugin_def definition = {.family = "reduce",
                                          .variant = "test_sdk20_descriptor",
                                          .summary = "reduce/atomic with an SDK 2.0 descriptor",
                                          .seed = "none",
                                          .kernels = {kernel},
                                          .tunables = {wb::block_size},
                                          .run = run};

static int32_t never_called(const wb_args*, uint32_t, wb_launch*) { std::abort(); }

extern "C" __attribute__((visibility("default"))) const wb_plugin* wavebench_plugin(uint32_t host_abi_version)
{
    if (host_abi_version != WB_PLUGIN_ABI_VERSION) return nullptr;
    static wb_plugin old = *wb::detail::describe<&definition>();
    old.size = offsetof(wb_plugin, sdk_version);
    old.sdk_version = 0;
    old.launch = never_called;
    return &old;
}
