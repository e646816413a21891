// Test plugin: a sum (one atomicAdd per work-group) that logs its prepare, release and each run
// to the file named by WAVEBENCH_TEST_SIDES_LOG, each line with the path of its own library, so a
// test can see what an A/B run does to each build (tests/ab_test.py: which build is prepared first
// in each half, how the warm-ups and the blocks alternate). Where the variable is unset it logs
// nothing. With WAVEBENCH_TEST_SIDES_WRONG_IN=TEXT, a copy whose path holds TEXT sums off by one
// from its second prepare on: a plugin whose state goes wrong when prepared again.
#include "../../../plugins/reduce/common.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

__global__ void sum_sides(const int* in, int* sum, size_t n)
{
    int s = 0;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        s += in[i];
    atomicAdd(sum, s);
}

static const auto kernel = WB_KERNEL(sum_sides, wb::block_size);

/// This library's file, or "".
static const char* self_path()
{
    Dl_info self{};
    return dladdr(reinterpret_cast<void*>(&self_path), &self) && self.dli_fname ? self.dli_fname : "";
}

/// Appends "<what> <this library's file>" to the log.
static void log_line(const char* what)
{
    const char* path = std::getenv("WAVEBENCH_TEST_SIDES_LOG");
    if (!path) return;
    if (FILE* f = std::fopen(path, "a")) {
        std::fprintf(f, "%s %s\n", what, self_path());
        std::fclose(f);
    }
}

static int prepares = 0;   // this library's
static bool wrong = false; // its sums are off by one

static void prepare(wb_args*)
{
    log_line("prepare");
    const char* in = std::getenv("WAVEBENCH_TEST_SIDES_WRONG_IN");
    wrong = ++prepares >= 2 && in && std::strstr(self_path(), in);
}

static void release(wb_args*) { log_line("release"); }

static void run(wb_args* a)
{
    log_line("run");
    const int64_t n = wb::reduce::n(a);
    int* sum = wb::out<int>(a, 0);
    HIP_CHECK(hipMemsetAsync(sum, 0, sizeof(int), wb::stream(a)));
    if (wrong) HIP_CHECK(hipMemsetAsync(sum, 1, 1, wb::stream(a))); // little-endian: a sum that starts at 1
    kernel.launch(a, dim3(64), wb::in<int>(a, 0), sum, size_t(n));
}

WB_PLUGIN({.summary = "a sum that logs its prepare, release and runs with its library's path (a test plugin)",
           .seed = "none",
           .kernels = {kernel},
           .tunables = {wb::block_size},
           .prepare = prepare,
           .run = run,
           .release = release})
