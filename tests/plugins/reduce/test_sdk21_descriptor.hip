// Test plugin: a descriptor as SDK 2.1 built it, whose `size` ends before the constraints SDK 2.2
// added. Past its size it holds a constraint naming a tunable it does not declare: the harness must
// read no field beyond the size a descriptor declares, and load it with no constraints.
#include "wavebench/families/reduce.h"
#include "wavebench/plugin.h"

#include <cstddef>

__global__ void reduce_atomic_sdk21(const int* in, int* sum, size_t n)
{
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(sum, in[i]);
}

static const auto kernel = WB_KERNEL(reduce_atomic_sdk21, wb::block_size);

static void run(wb_args* a)
{
    const int64_t n = wb::reduce::n(a);
    int* sum = wb::out<int>(a, 0);
    HIP_CHECK(hipMemsetAsync(sum, 0, sizeof(int), wb::stream(a)));
    kernel.launch_over(a, n, wb::in<int>(a, 0), sum, size_t(n));
}

static const wb::plugin_def definition = {.family = "reduce",
                                          .variant = "test_sdk21_descriptor",
                                          .summary = "reduce/atomic with an SDK 2.1 descriptor",
                                          .seed = "none",
                                          .kernels = {kernel},
                                          .tunables = {wb::block_size},
                                          .run = run};

static const wb_constraint beyond[1] = {{WB_REQUIRE_AT_MOST, "block_size", "no_such_tunable", nullptr, 0, nullptr}};

extern "C" __attribute__((visibility("default"))) const wb_plugin* wavebench_plugin(uint32_t host_abi_version)
{
    if (host_abi_version != WB_PLUGIN_ABI_VERSION) return nullptr;
    static wb_plugin old = *wb::detail::describe<&definition>();
    old.size = offsetof(wb_plugin, constraints);
    old.sdk_version = 201;
    old.constraints = beyond;
    old.n_constraints = 1;
    return &old;
}
