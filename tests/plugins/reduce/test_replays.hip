// Test plugin: computes the sum once into a scratch buffer, then only copies that answer out.
// Every run writes its output, so only inputs that change between runs catch it.
#include "wavebench/families/reduce.h"
#include "wavebench/plugin.h"

__global__ void serial_sum(const int* in, int* out, size_t n)
{
    int s = 0;
    for (size_t i = 0; i < n; ++i) s += in[i];
    *out = s;
}

static const wb::kernel serial_sum_k{"serial_sum", serial_sum, 1};

struct state {
    int* answer = nullptr;
    bool known = false;
};

static void prepare(wb_args* a)
{
    auto* s = new state;
    a->state = s;
    HIP_CHECK(hipMalloc(&s->answer, sizeof(int)));
}

static void run(wb_args* a)
{
    auto* s = wb::state<state>(a);
    if (!s->known) {
        serial_sum_k.launch(a, dim3(1), wb::in<int>(a, 0), s->answer, size_t(wb::reduce::n(a)));
        s->known = true;
    }
    HIP_CHECK(hipMemcpyAsync(wb::out<int>(a, 0), s->answer, sizeof(int), hipMemcpyDeviceToDevice, wb::stream(a)));
}

static void release(wb_args* a)
{
    auto* s = wb::state<state>(a);
    if (!s) return;
    HIP_CHECK(hipFree(s->answer));
    delete s;
}

WB_PLUGIN({.family = "reduce",
           .variant = "test_replays",
           .summary = "replays its first answer (changing inputs must catch it)",
           .seed = "none",
           .kernels = {serial_sum_k},
           .tunables = {},
           .prepare = prepare,
           .run = run,
           .release = release})
