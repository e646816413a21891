// The vendor's device-wide reduction, the yardstick of the hand-written variants:
// CUB DeviceReduce::Sum on nvidia, rocPRIM reduce on amd. The cpu platform has no such library.
#include "common.h"

#if defined(__HIP_PLATFORM_NVIDIA__)
#include <cub/device/device_reduce.cuh>
#elif defined(__HIP_PLATFORM_AMD__)
#include <iostream> // rocPRIM 5.2's device_reduce.hpp uses std::cout without including it
#include <rocprim/device/device_reduce.hpp>
#endif

struct scratch {
    void* temp = nullptr;
    size_t bytes = 0;
};

// With temp == nullptr: only sets `bytes` to the scratch space the library needs.
static void library_sum(scratch& s, const int* in, int* out, size_t n, hipStream_t stream)
{
#if defined(__HIP_PLATFORM_NVIDIA__)
    HIP_CHECK(hip_from_cuda(cub::DeviceReduce::Sum(s.temp, s.bytes, in, out, n, stream)));
#elif defined(__HIP_PLATFORM_AMD__)
    HIP_CHECK(rocprim::reduce(s.temp, s.bytes, in, out, 0, n, rocprim::plus<int>(), stream));
#else
    (void)s, (void)in, (void)out, (void)n, (void)stream;
    throw wb::skip("the cpu platform has no vendor reduction library (CUB on nvidia, rocPRIM on amd)");
#endif
}

static void prepare(wb_args* a)
{
    auto* s = new scratch;
    a->state = s;
    library_sum(*s, wb::in<int>(a, 0), wb::out<int>(a, 0), size_t(wb::reduce::n(a)), wb::stream(a));
    HIP_CHECK(hipMalloc(&s->temp, s->bytes > 0 ? s->bytes : 1));
    wb::note(a, "scratch=%zu bytes", s->bytes);
}

static void run(wb_args* a)
{
    library_sum(*wb::state<scratch>(a), wb::in<int>(a, 0), wb::out<int>(a, 0), size_t(wb::reduce::n(a)), wb::stream(a));
}

static void release(wb_args* a)
{
    auto* s = wb::state<scratch>(a);
    if (!s) return;
    if (s->temp) HIP_CHECK(hipFree(s->temp));
    delete s;
}

WB_PLUGIN({.summary = "the vendor library: CUB DeviceReduce::Sum (nvidia), rocPRIM reduce (amd)",
           .seed = "001: the built-in reduction, as the platform's library provides it",
           // no .kernels: the library's own are not visible to the plugin
           .prepare = prepare,
           .run = run,
           .release = release})
