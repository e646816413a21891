// Test plugin: asks for more device memory than any device has (1 PiB) in prepare. The result
// must be 'error' with the sizes, not a crash.
#include "wavebench/hip_check.h"
#include "wavebench/plugin.h"

static void prepare(wb_args* a)
{
    void* p = nullptr;
    HIP_CHECK(hipMalloc(&p, size_t(1) << 50));
    a->state = p;
}

static void run(wb_args*) {}

static void release(wb_args* a) { (void)hipFree(a->state); }

WB_PLUGIN({.family = "reduce",
           .variant = "test_device_oom",
           .summary = "runs out of device memory in prepare",
           .seed = "none",
           .prepare = prepare,
           .run = run,
           .release = release})
