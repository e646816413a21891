// The plugin SDK: what a plugin author includes. A plugin is kernels plus launch code, in a file
// <family>/<variant>.hip, say reduce/mine.hip:
//
//     #include "wavebench/families/reduce.h"   // the family's parameters (wb::reduce::n, ...)
//     #include "wavebench/plugin.h"
//
//     __global__ void add_all(const int* in, int* sum, size_t n) { ... }
//
//     static const auto kernel = WB_KERNEL(add_all, wb::block_size); // named after the function
//
//     static void run(wb_args* a)
//     {
//         const int64_t n = wb::reduce::n(a);
//         kernel.launch_over(a, n, wb::in<int>(a, 0), wb::out<int>(a, 0), size_t(n)); // one work-item each
//     }
//
//     WB_PLUGIN({.summary = "...", .seed = "...", .kernels = {kernel}, .tunables = {wb::block_size}, .run = run})
//
// Tunables that cannot take every combination of their values say so in `.constraints`, e.g.
// `.constraints = {wb::require::product_at_most(items, wb::block_size, 4096)}` (wb::require).
//
// The family and variant come from the file's path (wavebench_add_plugin passes them as
// WAVEBENCH_FAMILY and WAVEBENCH_VARIANT); `.family` and `.variant`, where given, are used instead.
// Plugin functions take a wb_args*, throw on error (HIP_CHECK, std::exception) and throw wb::skip
// to decline a configuration; the entry point WB_PLUGIN exports turns both into the C status codes
// of plugin_abi.h. A kernel's launch takes its block size and dynamic shared memory from its
// declaration and checks the launch itself; the harness asks the plugin for the same launch
// (wb_plugin::launch) when it reports the kernel's resources.
#pragma once

#include "wavebench/hip_check.h"
#include "wavebench/hip_platform.h"
#include "wavebench/params.h"
#include "wavebench/plugin_abi.h"

#include <array>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <map>
#include <source_location>
#include <stdexcept>
#include <string>
#include <vector>

namespace wb {

/// Thrown by a plugin function to skip a configuration it does not support; the reason is shown.
struct skip : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// ---- buffers, stream, state ----------------------------------------------------------------------

template <class T> const T* in(const wb_args* a, uint32_t i)
{
    if (i >= a->n_in) throw std::runtime_error("input buffer " + std::to_string(i) + " does not exist");
    return static_cast<const T*>(a->in[i]);
}

template <class T> T* out(const wb_args* a, uint32_t i)
{
    if (i >= a->n_out) throw std::runtime_error("output buffer " + std::to_string(i) + " does not exist");
    return static_cast<T*>(a->out[i]);
}

template <class T> T* host_out(const wb_args* a, uint32_t i)
{
    if (i >= a->n_out) throw std::runtime_error("output buffer " + std::to_string(i) + " does not exist");
    return static_cast<T*>(a->host_out[i]);
}

inline hipStream_t stream(const wb_args* a) { return static_cast<hipStream_t>(a->stream); }

template <class T> T* state(const wb_args* a) { return static_cast<T*>(a->state); }

/// Records settings the plugin resolved itself (shown in the results as `note`).
inline void note(wb_args* a, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
inline void note(wb_args* a, const char* fmt, ...)
{
    if (!a->note || a->note_size == 0) return;
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(a->note, a->note_size, fmt, ap);
    va_end(ap);
}

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The properties of the device the plugin runs on, read once per device.
inline const hipDeviceProp_t& device()
{
    static std::map<int, hipDeviceProp_t> known;
    int dev = 0;
    HIP_CHECK(hipGetDevice(&dev));
    auto it = known.find(dev);
    if (it == known.end()) {
        hipDeviceProp_t p;
        HIP_CHECK(hipGetDeviceProperties(&p, dev));
        it = known.emplace(dev, p).first;
    }
    return it->second;
}

// ---- tunables ------------------------------------------------------------------------------------

/// An integer the suite may sweep. Declare it once (constexpr), list it in WB_PLUGIN's .tunables,
/// read it with `name(args)`, and give it to the kernels whose block size it is.
struct tunable {
    static constexpr size_t max_values = 16;

    const char* name = nullptr;
    int64_t default_value = 0;
    int64_t min = 0, max = 0;
    bool pow2 = false;
    std::array<int64_t, max_values> values{}; // an explicit list (n_values > 0) instead of [min, max]
    uint32_t n_values = 0;
    const char* help = "";

    /// A power of two in [min, max] (a block size, say).
    static constexpr tunable power_of_two(const char* name, int64_t def, int64_t min, int64_t max, const char* help)
    {
        return {name, def, min, max, true, {}, 0, help};
    }
    /// Any integer in [min, max].
    static constexpr tunable range(const char* name, int64_t def, int64_t min, int64_t max, const char* help)
    {
        return {name, def, min, max, false, {}, 0, help};
    }
    /// One of the listed values (at most 16), e.g. the instances of a kernel template.
    static constexpr tunable one_of(const char* name, int64_t def, std::initializer_list<int64_t> list,
                                    const char* help)
    {
        tunable t{name, def, 0, 0, false, {}, 0, help};
        if (list.size() > max_values) throw std::logic_error("wb::tunable::one_of takes at most 16 values");
        for (int64_t v : list) t.values[t.n_values++] = v;
        return t;
    }

    /// Its value in this configuration.
    int64_t operator()(const wb_args* a) const { return integer(a, name); }

    /// The same with another default value, or another lower bound.
    constexpr tunable with_default(int64_t def) const
    {
        tunable t = *this;
        t.default_value = def;
        return t;
    }
    constexpr tunable at_least(int64_t lowest) const
    {
        tunable t = *this;
        t.min = lowest;
        return t;
    }

    wb_tunable describe() const
    {
        return {name, default_value, n_values ? values.data() : nullptr, n_values, min, max, pow2 ? 1 : 0, help};
    }
};

/// The work-group size most kernels take: `wb::block_size`, or `wb::block_size.with_default(64)`.
inline constexpr tunable block_size = tunable::power_of_two("block_size", 256, 32, 1024, "work-items per work-group");

// ---- constraints between tunables ----------------------------------------------------------------

/// A combination of tunables the plugin cannot run, as data: the harness skips a configuration
/// that breaks it, with the reason, without running plugin code. Made by wb::require::*, listed
/// in WB_PLUGIN's .constraints.
struct constraint {
    int32_t kind = WB_REQUIRE_PRODUCT_AT_MOST;
    const char* a = nullptr; // the tunables' names
    const char* b = nullptr;
    const char* c = nullptr;
    int64_t limit = 0;
    const char* help = nullptr;

    /// The same with the reason it exists, shown with a configuration that breaks it.
    constexpr constraint because(const char* why) const
    {
        constraint r = *this;
        r.help = why;
        return r;
    }
    wb_constraint describe() const { return {kind, a, b, c, limit, help}; }
};

namespace require {

/// a x b is at most `limit` (say, work-items x items per work-item within a tile).
constexpr constraint product_at_most(const tunable& a, const tunable& b, int64_t limit)
{
    return {WB_REQUIRE_PRODUCT_AT_MOST, a.name, b.name, nullptr, limit, nullptr};
}
/// a x b x c is at most `limit`.
constexpr constraint product_at_most(const tunable& a, const tunable& b, const tunable& c, int64_t limit)
{
    return {WB_REQUIRE_PRODUCT_AT_MOST, a.name, b.name, c.name, limit, nullptr};
}
/// a divides b (b % a == 0): a tile that divides the block size, say.
constexpr constraint divides(const tunable& a, const tunable& b)
{
    return {WB_REQUIRE_DIVIDES, a.name, b.name, nullptr, 0, nullptr};
}
/// a is at most b.
constexpr constraint at_most(const tunable& a, const tunable& b)
{
    return {WB_REQUIRE_AT_MOST, a.name, b.name, nullptr, 0, nullptr};
}

} // namespace require

// ---- kernels -------------------------------------------------------------------------------------

/// The plugin's arguments, and where in the plugin a launch was asked for: a failed launch names
/// the plugin's file and line. Made implicitly from the wb_args* a launch is given.
struct launch_site {
    const wb_args* args;
    std::source_location where;
    launch_site(const wb_args* a, std::source_location w = std::source_location::current()) : args(a), where(w) {}
};

/// What the harness needs of a kernel, whatever its parameters: see wb::kernel.
class kernel_info {
public:
    /// Work-items per work-group in this configuration.
    int block(const wb_args* a) const { return block_ ? int((*block_)(a)) : fixed_block_; }
    /// Dynamic shared memory in bytes in this configuration.
    size_t dynamic_lds(const wb_args* a) const
    {
        return lds_fn_ ? size_t(lds_fn_(a)) : size_t(lds_per_thread_) * size_t(block(a));
    }
    /// Work-groups of this kernel the whole device holds at once, at this configuration's launch.
    int64_t resident_groups(const wb_args* a) const
    {
        int per_mp = 0;
        HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_mp, fn_, block(a), dynamic_lds(a)));
        return int64_t(device().multiProcessorCount) * (per_mp > 0 ? per_mp : 1);
    }
    wb_kernel describe() const
    {
        return {name_,      fn_,        block_ ? block_->name : nullptr, block_ ? 0 : fixed_block_, lds_per_thread_,
                when_name_, when_value_};
    }
    bool computes_lds() const { return lds_fn_ != nullptr; }

protected:
    const char* name_ = nullptr;
    const void* fn_ = nullptr;
    const tunable* block_ = nullptr; // the tunable that is the block size, or null for fixed_block_
    int fixed_block_ = 0;
    int lds_per_thread_ = 0;
    int64_t (*lds_fn_)(const wb_args*) = nullptr;
    const char* when_name_ = nullptr;
    int64_t when_value_ = 0;
};

/// A __global__ function with its launch: block size from a tunable (or fixed), dynamic shared
/// memory per work-item (or from a function of the parameters).
template <class... P> class kernel : public kernel_info {
public:
    using function = void (*)(P...);

    kernel(const char* name, function fn, const tunable& block, int lds_bytes_per_thread = 0) : fn_typed_(fn)
    {
        init(name, fn, lds_bytes_per_thread);
        block_ = &block;
    }
    kernel(const char* name, function fn, int fixed_block, int lds_bytes_per_thread = 0) : fn_typed_(fn)
    {
        init(name, fn, lds_bytes_per_thread);
        fixed_block_ = fixed_block;
    }

    /// Dynamic shared memory from the configuration (bytes), instead of a fixed amount per work-item.
    kernel lds(int64_t (*bytes)(const wb_args*)) const
    {
        kernel k = *this;
        k.lds_fn_ = bytes;
        return k;
    }
    /// The kernel runs only where tunable `t` is `value` (one instance of a template per value).
    kernel when(const tunable& t, int64_t value) const
    {
        kernel k = *this;
        k.when_name_ = t.name;
        k.when_value_ = value;
        return k;
    }

    /// Launches `groups` work-groups on the plugin's stream and checks the launch: an error
    /// names the plugin's file and line, the kernel and the runtime's description.
    void launch(launch_site at, dim3 groups, P... args) const
    {
        const wb_args* a = at.args;
        hipLaunchKernelGGL(fn_typed_, groups, dim3(unsigned(block(a))), dynamic_lds(a), stream(a), args...);
        if (const hipError_t e = hipGetLastError(); e != hipSuccess)
            throw_hip_error(e, (std::string("launching ") + name_).c_str(), at.where.file_name(), int(at.where.line()));
    }
    /// One work-item per item: ceil(items / block) work-groups; nothing to launch for none.
    void launch_over(launch_site at, int64_t items, P... args) const
    {
        if (items > 0) launch(at, dim3(unsigned(ceil_div(items, block(at.args)))), args...);
    }

private:
    void init(const char* name, function fn, int lds_bytes_per_thread)
    {
        name_ = name;
        fn_ = reinterpret_cast<const void*>(fn);
        lds_per_thread_ = lds_bytes_per_thread;
    }
    function fn_typed_;
};

/// A wb::kernel named after its function: WB_KERNEL(reduce_atomic, wb::block_size) is
/// wb::kernel{"reduce_atomic", reduce_atomic, wb::block_size}; the arguments after the function are
/// wb::kernel's (a block size tunable or a fixed size, then dynamic shared memory per work-item).
/// A template instance is named as written: WB_KERNEL(conv_tiled<4>, block) is "conv_tiled<4>".
#define WB_KERNEL(fn, ...)                                                                                             \
    ::wb::kernel { #fn, fn, __VA_ARGS__ }

// ---- the plugin ----------------------------------------------------------------------------------

using plugin_fn = void (*)(wb_args*);

struct plugin_def {
    const char* family = nullptr;  // the family it implements; default: its folder's name
    const char* variant = nullptr; // its name within the family; default: its file's name
    const char* summary = "";      // one line
    const char* seed = "";         // the seed section it implements
    std::vector<std::reference_wrapper<const kernel_info>> kernels = {}; // for resource and occupancy reports
    std::vector<std::reference_wrapper<const tunable>> tunables = {};
    // Combinations of tunables it cannot run (wb::require::*).
    std::vector<constraint> constraints = {};
    plugin_fn prepare = nullptr; // untimed set-up; may store a pointer in args->state
    plugin_fn run = nullptr;     // the timed part: enqueue device work on wb::stream(args)
    plugin_fn finish = nullptr;  // host-side finishing into wb::host_out (counted in wall time)
    plugin_fn release = nullptr; // frees what prepare made
    plugin_fn bind = nullptr;    // the plugin's own layout of each new input set, untimed
};

namespace detail {

inline void copy_message(const wb_args* a, const char* what)
{
    if (a->message && a->message_size) std::snprintf(a->message, a->message_size, "%s", what);
}

inline int32_t guarded(plugin_fn fn, wb_args* a) noexcept
{
    try {
        fn(a);
        return WB_OK;
    } catch (const skip& e) {
        copy_message(a, e.what());
        return WB_SKIP;
    } catch (const std::exception& e) {
        copy_message(a, e.what());
        return WB_ERROR;
    } catch (...) {
        copy_message(a, "unknown exception in plugin");
        return WB_ERROR;
    }
}

template <const plugin_def* D> int32_t prepare(wb_args* a) { return guarded(D->prepare, a); }
template <const plugin_def* D> int32_t run(wb_args* a) { return guarded(D->run, a); }
template <const plugin_def* D> int32_t finish(wb_args* a) { return guarded(D->finish, a); }
template <const plugin_def* D> void release(wb_args* a) { (void)guarded(D->release, a); }
template <const plugin_def* D> int32_t bind(wb_args* a) { return guarded(D->bind, a); }
template <const plugin_def* D> int64_t dynamic_lds(const wb_args* a, uint32_t k)
{
    try {
        return k < D->kernels.size() && D->kernels[k].get().computes_lds() ? int64_t(D->kernels[k].get().dynamic_lds(a))
                                                                           : -1;
    } catch (...) {
        return -1;
    }
}

/// Kernel k's launch in this configuration, as wb::kernel::launch makes it.
template <const plugin_def* D> int32_t launch(const wb_args* a, uint32_t k, wb_launch* out)
{
    try {
        if (k >= D->kernels.size()) throw std::out_of_range("the plugin has no kernel " + std::to_string(k));
        const kernel_info& info = D->kernels[k].get();
        out->block_size = info.block(a);
        out->dynamic_lds = int64_t(info.dynamic_lds(a));
        return WB_OK;
    } catch (const std::exception& e) {
        copy_message(a, e.what());
    } catch (...) {
        copy_message(a, "unknown exception in plugin");
    }
    return WB_ERROR;
}

/// The family and variant the build passes (wavebench_add_plugin: the file's <family>/<variant>.hip).
#ifdef WAVEBENCH_FAMILY
inline constexpr const char* path_family = WAVEBENCH_FAMILY;
#else
inline constexpr const char* path_family = nullptr;
#endif
#ifdef WAVEBENCH_VARIANT
inline constexpr const char* path_variant = WAVEBENCH_VARIANT;
#else
inline constexpr const char* path_variant = nullptr;
#endif

template <const plugin_def* D> const wb_plugin* describe()
{
    static const std::vector<wb_kernel> kernels = [] {
        std::vector<wb_kernel> v;
        for (const kernel_info& k : D->kernels) v.push_back(k.describe());
        return v;
    }();
    static const std::vector<wb_tunable> tunables = [] {
        std::vector<wb_tunable> v;
        for (const tunable& t : D->tunables) v.push_back(t.describe());
        return v;
    }();
    static const std::vector<wb_constraint> constraints = [] {
        std::vector<wb_constraint> v;
        for (const constraint& c : D->constraints) v.push_back(c.describe());
        return v;
    }();
    bool computed_lds = false;
    for (const kernel_info& k : D->kernels) computed_lds |= k.computes_lds();
    static const wb_plugin descriptor{sizeof(wb_plugin),
                                      WB_PLUGIN_ABI_VERSION,
                                      D->family ? D->family : path_family,
                                      D->variant ? D->variant : path_variant,
                                      D->summary,
                                      D->seed,
                                      WB_PLATFORM_NAME,
                                      kernels.data(),
                                      static_cast<uint32_t>(kernels.size()),
                                      tunables.data(),
                                      static_cast<uint32_t>(tunables.size()),
                                      D->prepare ? &prepare<D> : nullptr,
                                      D->run ? &run<D> : nullptr,
                                      D->finish ? &finish<D> : nullptr,
                                      D->release ? &release<D> : nullptr,
                                      computed_lds ? &dynamic_lds<D> : nullptr,
                                      D->bind ? &bind<D> : nullptr,
                                      WAVEBENCH_SDK_VERSION,
                                      &launch<D>,
                                      constraints.data(),
                                      static_cast<uint32_t>(constraints.size())};
    return &descriptor;
}

} // namespace detail
} // namespace wb

/// Defines the plugin's descriptor and exports its entry point. Use once per plugin file:
///   WB_PLUGIN({.family = "reduce", .variant = "atomic", ..., .run = run})
#define WB_PLUGIN(...)                                                                                                 \
    static const ::wb::plugin_def wb_plugin_def_ = __VA_ARGS__;                                                        \
    extern "C" __attribute__((visibility("default"))) const wb_plugin* wavebench_plugin(uint32_t host_abi_version)     \
    {                                                                                                                  \
        return host_abi_version == WB_PLUGIN_ABI_VERSION ? ::wb::detail::describe<&wb_plugin_def_>() : nullptr;        \
    }
