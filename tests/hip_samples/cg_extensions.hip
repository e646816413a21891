// Cooperative groups' optional headers: scans (hip_scan.h) and reduce (hip_reduce.h) over 32- and
// 64-wide tiles and a coalesced group, with plus and with an operation that does not commute
// (composing affine maps), inclusive and exclusive; memcpy_async (memcpy_async.h) into shared
// memory, read after the block synchronizes, double-buffered behind a split barrier
// (barrier_arrive, barrier_wait), and a copy whose size the block does not divide.
#include <hip/cooperative_groups/hip_reduce.h>
#include <hip/cooperative_groups/hip_scan.h>
#include <hip/cooperative_groups/memcpy_async.h>
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <utility>
#include <vector>

namespace cg = cooperative_groups;

/// x -> a x + b (mod 2^bits of U); f then g is compose(f, g).
template <class U> struct affine {
    U a, b;
};
template <class U> struct compose {
    __device__ affine<U> operator()(const affine<U>& f, const affine<U>& g) const
    {
        return {U(g.a * f.a), U(g.a * f.b + g.b)};
    }
};

constexpr unsigned scan_block = 192, scan_outputs = 8;

// Each thread's scans in its tile of N, and (odd values only) in the coalesced group of the odd values.
template <unsigned N, class U> __global__ void scans(const unsigned* in, unsigned long long* out)
{
    cg::thread_block_tile<N> tile = cg::tiled_partition<N>(cg::this_thread_block());
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i];
    const affine<U> f = {U(2 * v + 1), U(v * v + 1)};
    const affine<U> inc = cg::inclusive_scan(tile, f, compose<U>()), exc = cg::exclusive_scan(tile, f, compose<U>());
    unsigned long long* o = out + scan_outputs * i;
    o[0] = cg::inclusive_scan(tile, v);
    o[1] = cg::exclusive_scan(tile, v);
    o[2] = inc.a, o[3] = inc.b, o[4] = exc.a, o[5] = exc.b;
    o[6] = cg::reduce(tile, v, cg::plus<unsigned>());
    o[7] = 0;
    if (v % 2) {
        cg::coalesced_group odd = cg::coalesced_threads();
        o[7] = cg::inclusive_scan(odd, v) + (unsigned long long)cg::reduce(odd, 1u, cg::plus<unsigned>()) * 100000;
    }
}

/// Host check of one launch of scans<N, U>.
template <unsigned N, class U> int check_scans(const std::vector<unsigned>& in, unsigned warp)
{
    unsigned* din;
    unsigned long long* dout;
    const size_t n = in.size();
    SAMPLE_CHECK(hipMalloc(&din, n * sizeof(unsigned)));
    SAMPLE_CHECK(hipMalloc(&dout, n * scan_outputs * sizeof(unsigned long long)));
    SAMPLE_CHECK(hipMemcpy(din, in.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
    scans<N, U><<<unsigned(n) / scan_block, scan_block>>>(din, dout);
    SAMPLE_CHECK(hipGetLastError());
    std::vector<unsigned long long> out(n * scan_outputs);
    SAMPLE_CHECK(hipMemcpy(out.data(), dout, out.size() * sizeof(out[0]), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipFree(din));
    SAMPLE_CHECK(hipFree(dout));
    int errors = 0;
    for (size_t t = 0; t < n; t += N) {
        unsigned sum = 0, total = 0;
        affine<U> f = {1, 0};
        for (size_t k = t; k < t + N; ++k) total += in[k];
        for (size_t k = t; k < t + N; ++k) {
            const affine<U> g = {U(2 * in[k] + 1), U(in[k] * in[k] + 1)}, h = {U(g.a * f.a), U(g.a * f.b + g.b)};
            const unsigned long long* o = &out[scan_outputs * k];
#if defined(__HIP_PLATFORM_NVIDIA__) // CUDA's scans take an operation that commutes: compose is not checked
            const bool ordered = true;
#else
            const bool first = k == t; // the exclusive scan's first value: 0 for plus; not checked for compose
            const bool ordered = o[2] == h.a && o[3] == h.b && (first || (o[4] == f.a && o[5] == f.b));
#endif
            if (o[0] != sum + in[k] || o[1] != sum || o[6] != total || !ordered) {
                if (errors++ < 5)
                    std::printf("tile %u, thread %zu: %llu %llu %llu %llu\n", N, k, o[0], o[1], o[2], o[6]);
            }
            sum += in[k], f = h;
        }
    }
    for (size_t w = 0; w < n; w += warp) { // the odd values of each wavefront
        unsigned sum = 0, count = 0;
        for (size_t k = w; k < w + warp; ++k) count += in[k] % 2;
        for (size_t k = w; k < w + warp; ++k) {
            sum += in[k] % 2 ? in[k] : 0;
            if (out[scan_outputs * k + 7] != (in[k] % 2 ? sum + count * 100000ull : 0) && errors++ < 5)
                std::printf("coalesced group, thread %zu: %llu\n", k, out[scan_outputs * k + 7]);
        }
    }
    return errors;
}

constexpr unsigned copy_block = 256, copy_stages = 4, raw_bytes = 1001;

// Stage after stage of `in` copied into shared memory (two buffers: the next copy is issued while
// the current one is read), each read reversed; then raw_bytes bytes, reversed and flipped.
__global__ void staged_copy(const float* in, float* out, const unsigned char* bytes_in, unsigned char* bytes_out)
{
    __shared__ float stage[2][copy_block];
    __shared__ unsigned char raw[raw_bytes];
    cg::thread_block block = cg::this_thread_block();
    const unsigned t = block.thread_rank();
    cg::memcpy_async(block, stage[0], in, sizeof(float) * copy_block);
    block.sync();
    for (unsigned s = 0; s < copy_stages; ++s) {
        if (s + 1 < copy_stages) // by element counts: the smaller one
            cg::memcpy_async(block, stage[(s + 1) % 2], copy_block + 7, in + (s + 1) * copy_block,
                             unsigned(copy_block));
        auto token = block.barrier_arrive();
        out[s * copy_block + t] = 2.0f * stage[s % 2][copy_block - 1 - t] + 1.0f; // another thread's copy
        block.barrier_wait(std::move(token)); // the next copy is complete, this stage read by all
    }
    cg::memcpy_async(block, raw, bytes_in, size_t(raw_bytes));
    block.sync();
    for (unsigned k = t; k < raw_bytes; k += copy_block) bytes_out[k] = raw[raw_bytes - 1 - k] ^ 0x5a;
}

int check_copies()
{
    std::vector<float> in(copy_stages * copy_block), out(in.size());
    std::vector<unsigned char> bytes(raw_bytes), bytes_out(raw_bytes);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.5f;
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = (unsigned char)(i * 37 + 11);
    float *din, *dout;
    unsigned char *dbytes, *dbytes_out;
    SAMPLE_CHECK(hipMalloc(&din, in.size() * sizeof(float)));
    SAMPLE_CHECK(hipMalloc(&dout, in.size() * sizeof(float)));
    SAMPLE_CHECK(hipMalloc(&dbytes, raw_bytes));
    SAMPLE_CHECK(hipMalloc(&dbytes_out, raw_bytes));
    SAMPLE_CHECK(hipMemcpy(din, in.data(), in.size() * sizeof(float), hipMemcpyHostToDevice));
    SAMPLE_CHECK(hipMemcpy(dbytes, bytes.data(), raw_bytes, hipMemcpyHostToDevice));
    staged_copy<<<1, copy_block>>>(din, dout, dbytes, dbytes_out);
    SAMPLE_CHECK(hipGetLastError());
    SAMPLE_CHECK(hipMemcpy(out.data(), dout, out.size() * sizeof(float), hipMemcpyDeviceToHost));
    SAMPLE_CHECK(hipMemcpy(bytes_out.data(), dbytes_out, raw_bytes, hipMemcpyDeviceToHost));
    for (void* p : {(void*)din, (void*)dout, (void*)dbytes, (void*)dbytes_out}) SAMPLE_CHECK(hipFree(p));
    int errors = 0;
    for (unsigned s = 0; s < copy_stages; ++s)
        for (unsigned t = 0; t < copy_block; ++t)
            if (out[s * copy_block + t] != 2.0f * in[s * copy_block + copy_block - 1 - t] + 1.0f && errors++ < 5)
                std::printf("stage %u, thread %u: %g\n", s, t, out[s * copy_block + t]);
    for (unsigned k = 0; k < raw_bytes; ++k)
        if (bytes_out[k] != (bytes[raw_bytes - 1 - k] ^ 0x5a) && errors++ < 5) std::printf("byte %u\n", k);
    return errors;
}

int main()
{
    int warp = 0;
    SAMPLE_CHECK(hipDeviceGetAttribute(&warp, hipDeviceAttributeWarpSize, 0));
    std::vector<unsigned> in(4 * scan_block);
    for (size_t i = 0; i < in.size(); ++i) in[i] = unsigned((i * 7919 + 13) % 1000);
    int errors = check_scans<32, unsigned long long>(in, unsigned(warp)) + check_copies();
    // A tile is at most a wavefront on AMD (and here); CUDA's tiles wider than a warp need the block's
    // scratch memory (cg::block_tile_memory), which HIP does not have: 64-wide tiles where warps are.
    if (warp >= 64) errors += check_scans<64, unsigned>(in, unsigned(warp));
    return sample_result("cg_extensions", errors);
}
