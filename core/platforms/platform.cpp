// The platform library: the HIP calls the harness needs, behind the C table of platform_abi.h.
// The same source is compiled against each platform's HIP (cpu, amd, nvidia).
#include "wavebench/hip_check.h"
#include "wavebench/hip_platform.h"
#include "wavebench/platform_abi.h"

#include <cstdint>
#include <cstdio>
#include <string>

#if defined(__HIP_PLATFORM_WAVEBENCH_CPU__)
#include <hip/hip_cpu_counters.h> // the runtime's own counts (launch_counts)
#endif

namespace {

// ---- probe kernels ------------------------------------------------------------------------------

/// Read-only pass: rounds of tiles, one per work-group, four 16-byte loads in flight per
/// work-item; the rest after the last full round spread over every work-item (no idle tail);
/// one atomic per work-group. The best reading pattern wavebench knows on GPUs.
__global__ void probe_read_kernel(const int4* data, size_t n4, int* sum)
{
    __shared__ int partial;
    if (threadIdx.x == 0) partial = 0;
    __syncthreads();
    const size_t tile = size_t(4) * blockDim.x, round = tile * gridDim.x, full = n4 / round * round;
    int s = 0;
    for (size_t i = blockIdx.x * tile + threadIdx.x; i < full; i += round) {
        const int4 a = data[i], b = data[i + blockDim.x], c = data[i + 2 * blockDim.x], d = data[i + 3 * blockDim.x];
        s += (a.x + a.y + a.z + a.w) + (b.x + b.y + b.z + b.w) + (c.x + c.y + c.z + c.w) + (d.x + d.y + d.z + d.w);
    }
    for (size_t i = full + blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += size_t(gridDim.x) * blockDim.x)
        s += data[i].x + data[i].y + data[i].z + data[i].w;
    atomicAdd(&partial, s);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(sum, partial);
}

/// Integer multiply-add rate: eight independent chains, 128 multiply-adds per iteration.
__global__ void probe_imad_kernel(int* out, unsigned iterations, int a, int b)
{
    int x[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) x[k] = int(threadIdx.x) + k;
    for (unsigned i = 0; i < iterations; ++i)
#pragma unroll
        for (int r = 0; r < 16; ++r)
#pragma unroll
            for (int k = 0; k < 8; ++k) x[k] = x[k] * b + a;
    int s = 0;
#pragma unroll
    for (int k = 0; k < 8; ++k) s += x[k];
    out[size_t(blockIdx.x) * blockDim.x + threadIdx.x] = s;
}

// What the runtime costs per lane (the cpu platform's probe): a lane without barriers, a
// barrier, a wavefront shuffle.
__global__ void lanes_map_kernel(const int* in, int* out)
{
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    out[i] = in[i] * 3 + 1;
}

__global__ void lanes_barriers_kernel(const int* in, int* out)
{
    __shared__ int s[1024];
    const unsigned t = threadIdx.x;
    s[t] = in[size_t(blockIdx.x) * blockDim.x + t];
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void lanes_shuffles_kernel(const int* in, int* out)
{
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    int v = in[i];
    for (int k = warpSize / 2; k > 0; k >>= 1) v += __shfl_down(v, k, warpSize);
    if (i % warpSize == 0) out[i / warpSize] = v;
}

thread_local std::string tl_message;

template <class F> wb_err guarded(F&& f) noexcept
{
    try {
        f();
        return nullptr;
    } catch (const std::exception& e) {
        tl_message = e.what();
    } catch (...) {
        tl_message = "unknown error";
    }
    return tl_message.c_str();
}

int g_device = 0;

int32_t init(int32_t device, int32_t warp_size, const char** message)
{
    int32_t status = WB_PLATFORM_ERROR; // what a failure is, until the device is known to be there
    *message = guarded([&] {
        int count = 0;
        const hipError_t e = hipGetDeviceCount(&count);
        if (e != hipSuccess || count == 0) {
            status = WB_PLATFORM_NO_DEVICE;
            throw std::runtime_error(std::string("hipGetDeviceCount: ") + hipGetErrorString(e));
        }
        if (device < 0 || device >= count) {
            status = WB_PLATFORM_BAD_DEVICE;
            throw std::runtime_error("device " + std::to_string(device) + " does not exist: " + std::to_string(count) +
                                     " found");
        }
        HIP_CHECK(hipSetDevice(device));
        g_device = device;
        if (warp_size != 0) {
#if defined(__HIP_PLATFORM_WAVEBENCH_CPU__)
            HIP_CHECK(hipCpuSetWarpSize(warp_size));
#else
            hipDeviceProp_t p;
            HIP_CHECK(hipGetDeviceProperties(&p, device));
            if (p.warpSize != warp_size)
                throw std::runtime_error("the warp size of " + std::string(p.name) + " is fixed at " +
                                         std::to_string(p.warpSize) + "; only the cpu platform can change it");
#endif
        }
        status = WB_PLATFORM_OK;
    });
    return status;
}

wb_err device_info(wb_device_info* out)
{
    return guarded([&] {
        hipDeviceProp_t p;
        HIP_CHECK(hipGetDeviceProperties(&p, g_device));
        *out = wb_device_info{};
        std::snprintf(out->name, sizeof out->name, "%s", p.name);
#if defined(__HIP_PLATFORM_NVIDIA__)
        std::snprintf(out->arch, sizeof out->arch, "sm_%d%d", p.major, p.minor);
#else
        std::snprintf(out->arch, sizeof out->arch, "%.63s", p.gcnArchName);
#endif
        out->warp_size = p.warpSize;
        out->multiprocessors = p.multiProcessorCount;
        out->max_threads_per_block = p.maxThreadsPerBlock;
        out->max_threads_per_multiprocessor = p.maxThreadsPerMultiProcessor;
#if defined(__HIP_PLATFORM_AMD__)
        out->regs_per_multiprocessor = p.regsPerBlock; // ROCm 5.2 has no per-multiprocessor figure
#else
        out->regs_per_multiprocessor = p.regsPerMultiprocessor;
#endif
        out->shared_per_block = int64_t(p.sharedMemPerBlock);
        out->shared_per_multiprocessor = int64_t(p.maxSharedMemoryPerMultiProcessor);
        out->total_memory = int64_t(p.totalGlobalMem);
        out->l2_cache_bytes = p.l2CacheSize;
        out->clock_mhz = p.clockRate / 1000.0;
        out->memory_clock_mhz = p.memoryClockRate / 1000.0;
        out->memory_bus_width = p.memoryBusWidth;
        out->compute_major = p.major;
        out->compute_minor = p.minor;
#if !defined(__HIP_PLATFORM_AMD__) // fields of wavebench's own HIP layers (hip_subset.h)
        out->max_blocks_per_multiprocessor = p.maxBlocksPerMultiProcessor;
        out->reserved_shared_per_block = int64_t(p.reservedSharedMemPerBlock);
#endif
        // Tells two devices of one model on one host apart, whatever index *_VISIBLE_DEVICES gave
        // them (shards merged from the tasks of one Slurm node). None on cpu.
        if (hipDeviceGetPCIBusId(out->pci_bus_id, int(sizeof out->pci_bus_id), g_device) != hipSuccess)
            out->pci_bus_id[0] = 0;
        (void)hipGetLastError();
    });
}

wb_err alloc(void** ptr, uint64_t bytes)
{
    return guarded([&] { HIP_CHECK(hipMalloc(ptr, bytes)); });
}

wb_err release(void* ptr)
{
    return guarded([&] { HIP_CHECK(hipFree(ptr)); });
}

wb_err copy(void* dst, const void* src, uint64_t bytes, int32_t kind)
{
    return guarded([&] { HIP_CHECK(hipMemcpy(dst, src, bytes, hipMemcpyKind(kind))); });
}

wb_err fill(void* ptr, int32_t byte, uint64_t bytes, void* stream)
{
    return guarded([&] { HIP_CHECK(hipMemsetAsync(ptr, byte, bytes, hipStream_t(stream))); });
}

wb_err stream_create(void** stream)
{
    return guarded([&] { HIP_CHECK(hipStreamCreate(reinterpret_cast<hipStream_t*>(stream))); });
}

wb_err stream_destroy(void* stream)
{
    return guarded([&] { HIP_CHECK(hipStreamDestroy(hipStream_t(stream))); });
}

wb_err stream_sync(void* stream)
{
    return guarded([&] { HIP_CHECK(hipStreamSynchronize(hipStream_t(stream))); });
}

wb_err event_create(void** event)
{
    return guarded([&] { HIP_CHECK(hipEventCreate(reinterpret_cast<hipEvent_t*>(event))); });
}

wb_err event_destroy(void* event)
{
    return guarded([&] { HIP_CHECK(hipEventDestroy(hipEvent_t(event))); });
}

wb_err event_record(void* event, void* stream)
{
    return guarded([&] { HIP_CHECK(hipEventRecord(hipEvent_t(event), hipStream_t(stream))); });
}

wb_err event_elapsed_ms(float* ms, void* start, void* stop)
{
    return guarded([&] { HIP_CHECK(hipEventElapsedTime(ms, hipEvent_t(start), hipEvent_t(stop))); });
}

wb_err kernel_resources(const void* fn, int32_t block_size, uint64_t dynamic_shared, wb_kernel_resources* out)
{
    return guarded([&] {
        hipFuncAttributes a;
        HIP_CHECK(hipFuncGetAttributes(&a, fn));
        int blocks = 0;
        HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn, block_size, dynamic_shared));
#if defined(__HIP_PLATFORM_WAVEBENCH_CPU__)
        const bool known = false; // g++ does not tell what a kernel's lanes hold
#else
        const bool known = true;
#endif
        *out = wb_kernel_resources{};
        out->registers = known ? a.numRegs : -1;
        out->static_shared_bytes = known ? int64_t(a.sharedSizeBytes) : -1;
        out->local_bytes = known ? int64_t(a.localSizeBytes) : -1;
        out->max_threads_per_block = a.maxThreadsPerBlock;
        out->active_blocks = blocks;
    });
}

wb_err copy_async(void* dst, const void* src, uint64_t bytes, int32_t kind, void* stream)
{
    return guarded([&] { HIP_CHECK(hipMemcpyAsync(dst, src, bytes, hipMemcpyKind(kind), hipStream_t(stream))); });
}

wb_err probe_read(const void* data, uint64_t bytes, uint32_t blocks, uint32_t threads, int32_t* sum, void* stream)
{
    return guarded([&] {
        if (reinterpret_cast<uintptr_t>(data) % 16 || bytes % 16) throw std::runtime_error("probe_read: 16-byte units");
        hipLaunchKernelGGL(probe_read_kernel, dim3(blocks), dim3(threads), 0, hipStream_t(stream),
                           static_cast<const int4*>(data), size_t(bytes / 16), sum);
        HIP_CHECK(hipGetLastError());
    });
}

wb_err probe_imad(int32_t* out, uint32_t blocks, uint32_t threads, uint32_t iterations, int32_t a, int32_t b,
                  void* stream)
{
    return guarded([&] {
        hipLaunchKernelGGL(probe_imad_kernel, dim3(blocks), dim3(threads), 0, hipStream_t(stream), out, iterations, a,
                           b);
        HIP_CHECK(hipGetLastError());
    });
}

wb_err probe_lanes(int32_t kind, const int32_t* in, int32_t* out, uint64_t n, uint32_t threads, void* stream)
{
    return guarded([&] {
        if (threads == 0 || threads > 1024 || n % threads || n / threads > 0x7fffffffu)
            throw std::runtime_error("probe_lanes: n must be a multiple of threads (1..1024)");
        const dim3 grid(unsigned(n / threads)), block(threads);
        switch (kind) {
        case WB_LANES_MAP:
            hipLaunchKernelGGL(lanes_map_kernel, grid, block, 0, hipStream_t(stream), in, out);
            break;
        case WB_LANES_BARRIERS:
            hipLaunchKernelGGL(lanes_barriers_kernel, grid, block, 0, hipStream_t(stream), in, out);
            break;
        case WB_LANES_SHUFFLES:
            hipLaunchKernelGGL(lanes_shuffles_kernel, grid, block, 0, hipStream_t(stream), in, out);
            break;
        default:
            throw std::runtime_error("probe_lanes: no kernel " + std::to_string(kind));
        }
        HIP_CHECK(hipGetLastError());
    });
}

wb_err host_pin(void* ptr, uint64_t bytes)
{
    return guarded([&] { HIP_CHECK(hipHostRegister(ptr, bytes, hipHostRegisterDefault)); });
}

wb_err host_unpin(void* ptr)
{
    return guarded([&] { HIP_CHECK(hipHostUnregister(ptr)); });
}

#if defined(__HIP_PLATFORM_WAVEBENCH_CPU__)
wb_err launch_counts(int32_t op, wb_launch_counts* out, uint32_t cap, uint32_t* n)
{
    static_assert(sizeof(wb_launch_counts) == sizeof(hipCpuLaunchCounts), "the same six fields");
    return guarded([&] {
        if (op == WB_COUNTS_START) {
            HIP_CHECK(hipCpuCountLaunches(1));
            return;
        }
        HIP_CHECK(hipCpuCountLaunches(0));
        HIP_CHECK(hipCpuCountedLaunches(reinterpret_cast<hipCpuLaunchCounts*>(out), cap, n));
    });
}
#else
constexpr wb_err (*launch_counts)(int32_t, wb_launch_counts*, uint32_t, uint32_t*) = nullptr;
#endif

const wb_platform table = {sizeof(wb_platform),
                           WB_PLATFORM_ABI_VERSION,
                           WB_PLATFORM_NAME,
                           init,
                           device_info,
                           alloc,
                           release,
                           copy,
                           fill,
                           stream_create,
                           stream_destroy,
                           stream_sync,
                           event_create,
                           event_destroy,
                           event_record,
                           event_elapsed_ms,
                           kernel_resources,
                           copy_async,
                           probe_read,
                           probe_imad,
                           probe_lanes,
                           host_pin,
                           host_unpin,
                           launch_counts};

} // namespace

extern "C" __attribute__((visibility("default"))) const wb_platform* wavebench_platform(uint32_t host_abi_version)
{
    return host_abi_version == WB_PLATFORM_ABI_VERSION ? &table : nullptr;
}
