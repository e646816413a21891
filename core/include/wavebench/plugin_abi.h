// The plugin ABI: what a plugin .so exports and what the harness passes to it.
//
// Plain C so that a plugin built by g++, nvcc or hipcc can be loaded by the harness. A plugin
// exports exactly one symbol, `wavebench_plugin`, which takes the harness's ABI version and
// returns a descriptor (or null to decline). Plugin authors do not write this by hand: see
// wavebench/plugin.h.
#pragma once

#include <stddef.h>
#include <stdint.h>

// Changelog of the version (a plugin of another version is refused, with the reason):
//   1  the first descriptor.
//   2  the cpu runtime's hipDeviceProp_t grew (maxBlocksPerMultiProcessor, reservedSharedMemPerBlock).
//   (2 still) the C++ SDK in wavebench/plugin.h was rewritten (typed parameters, wb::tunable,
//      wb::kernel with its launch) on top of this unchanged C layout: plugins built against the
//      earlier plugin.h still load; their sources need the new API to rebuild.
//   (2 still) SDK 2.1: wb_plugin grew `sdk_version` and `launch` at its end. A descriptor says its
//      own size: one of SDK 2.0 ends before them and still loads (the harness resolves its
//      kernels' launch from the declarations, as before).
//   (2 still) SDK 2.2: wb_plugin grew `constraints` and `n_constraints` at its end (wb_constraint:
//      combinations of tunables a plugin cannot run). A descriptor of SDK 2.0 or 2.1 ends before
//      them and still loads, with no constraints.
#define WB_PLUGIN_ABI_VERSION 2u
#define WB_PLUGIN_ENTRY "wavebench_plugin"

// The version of the plugin SDK (these headers and cmake/wavebench_plugin.cmake): the minor number
// grows with additions a plugin may use, the major one where a plugin's source must change. See
// CHANGELOG.md for what each version brought.
#define WAVEBENCH_SDK_VERSION_MAJOR 2
#define WAVEBENCH_SDK_VERSION_MINOR 2
#define WAVEBENCH_SDK_VERSION (WAVEBENCH_SDK_VERSION_MAJOR * 100 + WAVEBENCH_SDK_VERSION_MINOR)

#ifdef __cplusplus
extern "C" {
#endif

/// Status returned by prepare / run / finish.
enum wb_status { WB_OK = 0, WB_ERROR = 1, WB_SKIP = 2 };

/// One resolved parameter: a family parameter (n, m, ...) or a tunable (block_size, ...).
/// Integers in `i`, reals in `f`, strings in `s`; `kind` says which one is meaningful.
enum wb_value_kind { WB_INT = 0, WB_REAL = 1, WB_STRING = 2 };
typedef struct wb_param {
    const char* name;
    int32_t kind;
    int64_t i;
    double f;
    const char* s;
} wb_param;

/// A kernel the plugin launches, for resource and occupancy queries. `fn` is the kernel's host
/// handle (what hipFuncGetAttributes takes); `block_size_param` names the tunable that sets its
/// block size (or null when `fixed_block_size` applies); it launches with
/// `lds_bytes_per_thread` x block size bytes of dynamic shared memory. With `when_param` set, it
/// runs only in configurations where that tunable equals `when_value` (one instance of a template
/// per tunable value).
typedef struct wb_kernel {
    const char* name;
    const void* fn;
    const char* block_size_param;
    int32_t fixed_block_size;
    int32_t lds_bytes_per_thread;
    const char* when_param;
    int64_t when_value;
} wb_kernel;

/// A kernel's launch in one configuration: work-items per work-group and bytes of dynamic shared
/// memory (what wb_plugin::launch answers).
typedef struct wb_launch {
    int32_t block_size;
    int64_t dynamic_lds;
} wb_launch;

/// A tunable: an integer the suite may sweep. Allowed values are either the explicit list
/// `allowed` (n_allowed > 0) or the range [min, max], optionally restricted to powers of two.
typedef struct wb_tunable {
    const char* name;
    int64_t default_value;
    const int64_t* allowed;
    uint32_t n_allowed;
    int64_t min;
    int64_t max;
    int32_t power_of_two;
    const char* help;
} wb_tunable;

/// What a constraint between tunables requires (wb_constraint::kind).
enum wb_constraint_kind {
    WB_REQUIRE_PRODUCT_AT_MOST = 0, ///< a x b (x c, where c is not null) is at most `limit`
    WB_REQUIRE_DIVIDES = 1,         ///< a divides b: b % a == 0
    WB_REQUIRE_AT_MOST = 2,         ///< a <= b
};

/// A constraint between tunables (SDK 2.2): a configuration that breaks it is skipped, with the
/// reason, before any plugin code runs. `a`, `b` and `c` name tunables the plugin declares; `c`
/// and `limit` are only for WB_REQUIRE_PRODUCT_AT_MOST (null and 0 otherwise). `help`, optional,
/// says why (shown with the reason and by `wavebench list`).
typedef struct wb_constraint {
    int32_t kind;
    const char* a;
    const char* b;
    const char* c;
    int64_t limit;
    const char* help;
} wb_constraint;

/// What the harness passes to prepare / run / finish.
typedef struct wb_args {
    uint32_t size;          // sizeof(wb_args) of the harness that built it
    void* stream;           // hipStream_t of the plugin's platform
    const wb_param* params; // family parameters first, then every tunable (defaults filled)
    uint32_t n_params;
    const void* const* in; // device input buffers, in the family's order; every buffer starts on a 256-byte boundary
    uint32_t n_in;
    void* const* out;      // device output buffers, in the family's order
    void* const* host_out; // host mirrors of `out`: a plugin with `finish` writes these
    uint32_t n_out;
    void* state;   // what prepare stored (null before prepare, or without one)
    char* message; // error or skip reason, written by the plugin
    uint32_t message_size;
    char* note; // optional: settings the plugin resolved (e.g. "work_items=...")
    uint32_t note_size;
} wb_args;

typedef struct wb_plugin {
    uint32_t size;        // sizeof(wb_plugin) of the plugin's build
    uint32_t abi_version; // WB_PLUGIN_ABI_VERSION of the plugin's build
    const char* family;
    const char* variant;
    const char* summary;  // one line
    const char* seed;     // the seed section it implements
    const char* platform; // "cpu", "amd" or "nvidia"
    const wb_kernel* kernels;
    uint32_t n_kernels;
    const wb_tunable* tunables;
    uint32_t n_tunables;
    /// Untimed set-up (scratch buffers; the room for a layout `bind` fills). May store a pointer in
    /// args->state.
    /// May return WB_SKIP with a reason in args->message. Optional.
    int32_t (*prepare)(wb_args* args);
    /// The timed part: enqueue device work on args->stream. Required.
    int32_t (*run)(wb_args* args);
    /// Host-side finishing after the stream is idle (counted in wall time, not kernel time).
    /// A plugin with `finish` leaves its output in args->host_out. Optional.
    int32_t (*finish)(wb_args* args);
    /// Frees what prepare made. Optional.
    void (*release)(wb_args* args);
    /// The dynamic shared memory kernel `kernel` (an index into `kernels`) launches with for these
    /// parameters, where it is not `lds_bytes_per_thread` x block size; -1 to keep that. Optional.
    int64_t (*dynamic_lds)(const wb_args* args, uint32_t kernel);
    /// Untimed, before every run whose inputs are not the previous run's (the harness rotates
    /// through copies and datasets): where a plugin derives its own layout from the inputs
    /// (padding, transposing), it does it here, from args->in. Optional.
    int32_t (*bind)(wb_args* args);
    // ---- SDK 2.1: a descriptor whose `size` ends before here has neither ----
    uint32_t sdk_version; ///< WAVEBENCH_SDK_VERSION of the plugin's build
    /// Kernel `kernel`'s (an index into `kernels`) launch for these parameters: the block size
    /// and dynamic shared memory it is launched with. WB_OK with *out filled, else WB_ERROR with
    /// the reason in args->message. The one answer the harness uses where a plugin gives it.
    int32_t (*launch)(const wb_args* args, uint32_t kernel, wb_launch* out);
    // ---- SDK 2.2: a descriptor whose `size` ends before here has no constraints ----
    const wb_constraint* constraints; ///< combinations of tunables the plugin cannot run
    uint32_t n_constraints;
} wb_plugin;

/// Whether descriptor `d` (of `d->size` bytes) has `field`: fields added later sit at the end.
#define WB_PLUGIN_HAS(d, field) ((d)->size >= offsetof(wb_plugin, field) + sizeof((d)->field))

typedef const wb_plugin* (*wb_plugin_entry)(uint32_t host_abi_version);

#ifdef __cplusplus
} // extern "C"
#endif
