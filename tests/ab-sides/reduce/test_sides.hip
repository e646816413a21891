// Test plugin: a sum (one atomicAdd per work-group) that logs its prepare, release and each run
// to the file named by WAVEBENCH_TEST_SIDES_LOG, each line with the path of its own library, so a
// test can see what an A/B run does to each build (tests/ab_test.py: which build is prepared first
// in each half, how the warm-ups and the blocks alternate). Where the variable is unset it logs
// nothing.
#include "../../../plugins/reduce/common.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

__global__ void sum_sides(const int* in, int* sum, size_t n)
{
    int s = 0;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        s += in[i];
    atomicAdd(sum, s);
}

static const auto kernel = WB_KERNEL(sum_sides, wb::block_size);

/// Appends "<what> <this library's file>" to the log.
static void log_line(const char* what)
{
    const char* path = std::getenv("WAVEBENCH_TEST_SIDES_LOG");
    Dl_info self{};
    if (!path || !dladdr(reinterpret_cast<void*>(&log_line), &self) || !self.dli_fname) return;
    if (FILE* f = std::fopen(path, "a")) {
        std::fprintf(f, "%s %s\n", what, self.dli_fname);
        std::fclose(f);
    }
}

static void prepare(wb_args*) { log_line("prepare"); }

static void release(wb_args*) { log_line("release"); }

static void run(wb_args* a)
{
    log_line("run");
    const int64_t n = wb::reduce::n(a);
    int* sum = wb::out<int>(a, 0);
    HIP_CHECK(hipMemsetAsync(sum, 0, sizeof(int), wb::stream(a)));
    kernel.launch(a, dim3(64), wb::in<int>(a, 0), sum, size_t(n));
}

WB_PLUGIN({.summary = "a sum that logs its prepare, release and runs with its library's path (a test plugin)",
           .seed = "none",
           .kernels = {kernel},
           .tunables = {wb::block_size},
           .prepare = prepare,
           .run = run,
           .release = release})
