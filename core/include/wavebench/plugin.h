// What a plugin author includes: parameter access, tunable and kernel descriptions, and the
// WB_PLUGIN registration macro that exports the one entry point. A plugin's functions take a
// wb_args*, throw on error (HIP_CHECK) and throw wb::skip to decline a configuration; the
// entry point turns both into the C status codes of plugin_abi.h.
#pragma once

#include "wavebench/hip_check.h"
#include "wavebench/hip_platform.h"
#include "wavebench/plugin_abi.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>

namespace wb {

/// Thrown by a plugin function to skip a configuration it does not support; the reason is shown.
struct skip : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline const wb_param& param_entry(const wb_args* a, const char* name)
{
    for (uint32_t i = 0; i < a->n_params; ++i)
        if (std::strcmp(a->params[i].name, name) == 0) return a->params[i];
    throw std::runtime_error(std::string("parameter '") + name + "' was not passed to the plugin");
}

/// An integer parameter or tunable by name.
inline int64_t param(const wb_args* a, const char* name)
{
    const wb_param& p = param_entry(a, name);
    if (p.kind != WB_INT) throw std::runtime_error(std::string("parameter '") + name + "' is not an integer");
    return p.i;
}

template <class T> const T* in(const wb_args* a, uint32_t i)
{
    if (i >= a->n_in) throw std::runtime_error("input buffer index out of range");
    return static_cast<const T*>(a->in[i]);
}

template <class T> T* out(const wb_args* a, uint32_t i)
{
    if (i >= a->n_out) throw std::runtime_error("output buffer index out of range");
    return static_cast<T*>(a->out[i]);
}

template <class T> T* host_out(const wb_args* a, uint32_t i)
{
    if (i >= a->n_out) throw std::runtime_error("output buffer index out of range");
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

/// A kernel the plugin launches: its block size is the tunable `block_size_param`, and it gets
/// `lds_bytes_per_thread` x block size bytes of dynamic shared memory.
template <class F>
wb_kernel kernel(const char* name, F* fn, const char* block_size_param, int lds_bytes_per_thread = 0)
{
    return {name, reinterpret_cast<const void*>(fn), block_size_param, 0, lds_bytes_per_thread, nullptr, 0};
}
/// A kernel launched with a fixed block size.
template <class F> wb_kernel kernel(const char* name, F* fn, int fixed_block_size, int lds_bytes_per_thread = 0)
{
    return {name, reinterpret_cast<const void*>(fn), nullptr, fixed_block_size, lds_bytes_per_thread, nullptr, 0};
}
/// The kernel runs only where tunable `param` is `value` (an instance of a template per value).
inline wb_kernel when(wb_kernel k, const char* param, int64_t value)
{
    k.when_param = param;
    k.when_value = value;
    return k;
}

/// A power-of-two tunable in [min, max].
inline wb_tunable tunable_pow2(const char* name, int64_t def, int64_t min, int64_t max, const char* help)
{
    return {name, def, nullptr, 0, min, max, 1, help};
}
/// An integer tunable in [min, max].
inline wb_tunable tunable_range(const char* name, int64_t def, int64_t min, int64_t max, const char* help)
{
    return {name, def, nullptr, 0, min, max, 0, help};
}

using plugin_fn = void (*)(wb_args*);

struct plugin_def {
    const char* family;
    const char* variant;
    const char* summary;
    const char* seed;
    std::span<const wb_kernel> kernels;
    std::span<const wb_tunable> tunables;
    plugin_fn prepare = nullptr;
    plugin_fn run = nullptr;
    plugin_fn finish = nullptr;
    plugin_fn release = nullptr;
    int64_t (*dynamic_lds)(const wb_args*, uint32_t kernel) = nullptr;
    plugin_fn bind = nullptr;
};

namespace detail {

inline void copy_message(wb_args* a, const char* what)
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

template <const plugin_def* D> wb_plugin describe()
{
    return {sizeof(wb_plugin),
            WB_PLUGIN_ABI_VERSION,
            D->family,
            D->variant,
            D->summary,
            D->seed,
            WB_PLATFORM_NAME,
            D->kernels.data(),
            static_cast<uint32_t>(D->kernels.size()),
            D->tunables.data(),
            static_cast<uint32_t>(D->tunables.size()),
            D->prepare ? &prepare<D> : nullptr,
            D->run ? &run<D> : nullptr,
            D->finish ? &finish<D> : nullptr,
            D->release ? &release<D> : nullptr,
            D->dynamic_lds,
            D->bind ? &bind<D> : nullptr};
}

} // namespace detail
} // namespace wb

/// Defines the plugin's descriptor and exports its entry point. Use once per plugin file:
///   WB_PLUGIN({.family = "reduce", .variant = "atomic", ..., .run = run})
#define WB_PLUGIN(...)                                                                             \
    static const ::wb::plugin_def wb_plugin_def_ = __VA_ARGS__;                                    \
    extern "C" __attribute__((visibility("default"))) const wb_plugin* wavebench_plugin(           \
        uint32_t host_abi_version)                                                                 \
    {                                                                                              \
        static const wb_plugin descriptor = ::wb::detail::describe<&wb_plugin_def_>();             \
        return host_abi_version == WB_PLUGIN_ABI_VERSION ? &descriptor : nullptr;                  \
    }
