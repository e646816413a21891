// The platform ABI: what a platform library (libwavebench_platform_<name>.so) exports. The
// harness is plain C++ and reaches the HIP runtime of a platform only through this table; the
// library is core/platforms/platform.cpp compiled against that platform's HIP.
#pragma once

#include <stdint.h>

// 3: init returns a WB_PLATFORM_* status beside its message: a missing device is a code, not a wording.
// 4: probe_lanes, the runtime's own costs per lane.
// 7: launch_counts, what the cpu runtime counts of each launch (run --counters).
#define WB_PLATFORM_ABI_VERSION 7u
#define WB_PLATFORM_ENTRY "wavebench_platform"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wb_device_info {
    char name[256];
    char arch[64]; // "gfx90a", "sm_90", "cpu"
    int32_t warp_size;
    int32_t multiprocessors; // CUs / SMs / worker threads
    int32_t max_threads_per_block;
    int32_t max_threads_per_multiprocessor;
    int32_t regs_per_multiprocessor; // 0: not applicable
    int64_t shared_per_block;
    int64_t shared_per_multiprocessor;
    int64_t total_memory;
    int64_t l2_cache_bytes; // the last-level cache on the CPU
    double clock_mhz;
    double memory_clock_mhz;  // 0: unknown
    int32_t memory_bus_width; // bits, 0: unknown
    int32_t compute_major;
    int32_t compute_minor;
    int32_t max_blocks_per_multiprocessor; // 0: unknown
    int64_t reserved_shared_per_block;     // shared memory the system keeps per block
    char pci_bus_id[32];                   // "0000:1b:00.0": which device it is on its host; "" on cpu
} wb_device_info;

typedef struct wb_kernel_resources {
    int32_t registers;           // per thread; -1: unknown on this platform
    int64_t static_shared_bytes; // -1: unknown
    int64_t local_bytes;         // -1: unknown
    int32_t max_threads_per_block;
    int32_t active_blocks; // resident blocks per multiprocessor at the block size
} wb_kernel_resources;

/// What the platform's runtime counted of one launch (launch_counts).
typedef struct wb_launch_counts {
    uint64_t blocks;
    uint64_t wavefronts;       // launched
    uint64_t collectives;      // wavefront collectives completed (ballots, shuffles)
    uint64_t collective_lanes; // the lanes taking part, summed over those collectives
    uint32_t warp_size;
    uint32_t block_threads;
} wb_launch_counts;

enum { WB_COUNTS_START = 0, WB_COUNTS_STOP = 1 };

/// Every function but init returns null on success, or a message (valid until the next call on the
/// thread).
typedef const char* wb_err;

/// What init returns.
enum {
    WB_PLATFORM_OK = 0,         // the device is selected
    WB_PLATFORM_NO_DEVICE = 1,  // the runtime finds no device (no GPU, or no driver that fits)
    WB_PLATFORM_BAD_DEVICE = 2, // there are devices, but not the index asked for
    WB_PLATFORM_ERROR = 3       // anything else (e.g. a warp size the device does not have)
};

typedef struct wb_platform {
    uint32_t size;
    uint32_t abi_version;
    const char* name; // "cpu", "amd", "nvidia"
    /// Selects the device. warp_size 0 keeps the default; only cpu accepts another (32 or 64:
    /// wavebench/warp_size.h).
    /// Returns a WB_PLATFORM_* status; unless it is WB_PLATFORM_OK, *message says why (valid
    /// until the next call on the thread).
    int32_t (*init)(int32_t device, int32_t warp_size, const char** message);
    wb_err (*device_info)(wb_device_info* info);
    wb_err (*alloc)(void** ptr, uint64_t bytes);
    wb_err (*release)(void* ptr);
    wb_err (*copy)(void* dst, const void* src, uint64_t bytes, int32_t kind); // hipMemcpyKind values
    wb_err (*fill)(void* ptr, int32_t byte, uint64_t bytes, void* stream);
    wb_err (*stream_create)(void** stream);
    wb_err (*stream_destroy)(void* stream);
    wb_err (*stream_sync)(void* stream);
    wb_err (*event_create)(void** event);
    wb_err (*event_destroy)(void* event);
    wb_err (*event_record)(void* event, void* stream);
    wb_err (*event_elapsed_ms)(float* ms, void* start, void* stop);
    wb_err (*kernel_resources)(const void* fn, int32_t block_size, uint64_t dynamic_shared, wb_kernel_resources* out);
    wb_err (*copy_async)(void* dst, const void* src, uint64_t bytes, int32_t kind, void* stream);
    /// Probes (`wavebench probe`), enqueued on `stream`: a read-only pass over `bytes` of device
    /// memory with 16-byte loads that adds the int32 words into *sum; and `iterations` x 128
    /// dependent-free int32 multiply-adds per work-item, written to out[block * threads + thread].
    wb_err (*probe_read)(const void* data, uint64_t bytes, uint32_t blocks, uint32_t threads, int32_t* sum,
                         void* stream);
    wb_err (*probe_imad)(int32_t* out, uint32_t blocks, uint32_t threads, uint32_t iterations, int32_t a, int32_t b,
                         void* stream);
    /// What the runtime costs per lane, over n int32 in `in` (n a multiple of `threads`, which is
    /// at most 1024 and a multiple of the wavefront): WB_LANES_MAP writes out[i] = 3 in[i] + 1
    /// (no barrier); WB_LANES_BARRIERS sums each block in shared memory, a tree with
    /// log2(threads) + 1 barriers, into out[block]; WB_LANES_SHUFFLES sums each wavefront with
    /// log2(warp) shuffles into out[i / warp].
    wb_err (*probe_lanes)(int32_t kind, const int32_t* in, int32_t* out, uint64_t n, uint32_t threads, void* stream);
    /// Page-locks host memory for faster copies (hipHostRegister), and undoes it.
    wb_err (*host_pin)(void* ptr, uint64_t bytes);
    wb_err (*host_unpin)(void* ptr);
    /// Null where the runtime counts nothing itself (nvidia, amd: the harness reads their
    /// counters through the vendor's profiler). WB_COUNTS_START forgets what was counted and counts
    /// the launches from here; WB_COUNTS_STOP stops, copies up to `cap` launches in launch order
    /// to `out` and sets *n to the number counted.
    wb_err (*launch_counts)(int32_t op, wb_launch_counts* out, uint32_t cap, uint32_t* n);
} wb_platform;

enum { WB_LANES_MAP = 0, WB_LANES_BARRIERS = 1, WB_LANES_SHUFFLES = 2 };

typedef const wb_platform* (*wb_platform_entry)(uint32_t host_abi_version);

#ifdef __cplusplus
} // extern "C"
#endif
