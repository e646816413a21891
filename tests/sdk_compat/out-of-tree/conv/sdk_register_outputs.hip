// conv/sdk_register_outputs (an out-of-tree example): each work-item computes `outputs`
// consecutive outputs in registers and reads each input it needs once, for all of them, instead of
// once per output. One kernel instance per value of the tunable (a template), chosen at run time.
#include "wavebench/families/conv.h" // wb::conv::n, wb::conv::m
#include "wavebench/plugin.h"

// Outputs i0 .. i0 + R - 1. Output i sums in[i + j - m/2] * taps[j] over j in [0, m) with zeros
// outside the input, wrapping modulo 2^32 (the family's definition): input x serves output i with
// tap j = x - i + m/2.
template <int R> __global__ void conv_outputs(const int* in, const int* taps, int* out, int64_t n, int m)
{
    const int64_t i0 = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) * R;
    if (i0 >= n) return;
    const int64_t half = m / 2;
    const int64_t lo = i0 - half > 0 ? i0 - half : 0, hi = i0 + R - 1 + half < n ? i0 + R - 1 + half : n - 1;
    uint32_t acc[R] = {};
    for (int64_t x = lo; x <= hi; ++x) {
        const uint32_t v = uint32_t(in[x]);
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const int64_t j = x - (i0 + r) + half;
            if (j >= 0 && j < m) acc[r] += v * uint32_t(taps[j]);
        }
    }
#pragma unroll
    for (int r = 0; r < R; ++r)
        if (i0 + r < n) out[i0 + r] = int(acc[r]);
}

static constexpr auto block = wb::tunable::power_of_two("block_size", 256, 32, 1024, "work-items per work-group");
static constexpr auto outputs = wb::tunable::one_of("outputs", 4, {1, 2, 4, 8}, "consecutive outputs per work-item");

// conv_outputs<R> runs where outputs = R (the harness reports the resources of the one that ran).
template <int R> auto instance(const char* name) { return wb::kernel{name, conv_outputs<R>, block}.when(outputs, R); }
static const auto out_1 = instance<1>("conv_outputs<1>"), out_2 = instance<2>("conv_outputs<2>"),
                  out_4 = instance<4>("conv_outputs<4>"), out_8 = instance<8>("conv_outputs<8>");

static void run(wb_args* a)
{
    const int64_t n = wb::conv::n(a), m = wb::conv::m(a), r = outputs(a);
    const auto& k = r == 1 ? out_1 : r == 2 ? out_2 : r == 4 ? out_4 : out_8;
    // One work-item per R outputs (launch_over: ceil(items / block) work-groups, none for none).
    k.launch_over(a, wb::ceil_div(n, r), wb::in<int>(a, 0), wb::in<int>(a, 1), wb::out<int>(a, 0), n, int(m));
}

WB_PLUGIN({.family = "conv",
           .variant = "sdk_register_outputs",
           .summary = "R consecutive outputs per work-item in registers, each input read once for all of them",
           .seed = "000 (out-of-tree example)",
           .kernels = {out_1, out_2, out_4, out_8},
           .tunables = {block, outputs},
           .run = run})
