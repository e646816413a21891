// The platform library the harness runs on (libwavebench_platform_<name>.so), loaded with
// Boost.DLL, and RAII handles for what it allocates.
#pragma once

#include "harness/platform/platform_kind.h"
#include "wavebench/platform_abi.h"

#ifndef BOOST_DLL_USE_STD_FS
#define BOOST_DLL_USE_STD_FS // Boost.DLL on std::filesystem (also set by CMake)
#endif
#include <boost/dll/shared_library.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// The platform could not be started (unknown, not built, cannot be loaded): the run cannot go on.
struct platform_unavailable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The platform is built and loads, but finds no device to run on (or not the one asked for).
struct no_device : platform_unavailable {
    using platform_unavailable::platform_unavailable;
};

/// A library of this build (platform::build_dir()/lib/<file>: a platform, the AMD code-object
/// reader, the PostgreSQL history), loaded at once and kept to itself (rtld_now, rtld_local).
/// Where it cannot be, an empty library and `why`: "<what> is not built here (<path> is missing):
/// <fix>", or "cannot load <path>: <the loader's reason>".
boost::dll::shared_library open_build_library(const std::string& file, const std::string& what, const std::string& fix,
                                              std::string& why);

/// open_build_library, throwing E with `why`.
template <class E = std::runtime_error>
boost::dll::shared_library load_build_library(const std::string& file, const std::string& what, const std::string& fix)
{
    std::string why;
    boost::dll::shared_library lib = open_build_library(file, what, fix, why);
    if (!lib.is_loaded()) throw E(why);
    return lib;
}

class platform {
public:
    /// Loads the platform library built next to the executable (<bin>/../lib).
    static std::shared_ptr<platform> load(platform_kind kind);
    /// The same by name, as the command line gives it; an unknown name is platform_unavailable.
    static std::shared_ptr<platform> load(std::string_view name);
    /// The platforms this build has a library for, best first (nvidia, amd, cpu).
    static std::vector<platform_kind> built();
    /// Where the platform libraries (lib/) and plugins (plugins/<platform>/) are: <bin>/.. in a build
    /// folder, <bin>/../lib/wavebench in an installed tree.
    static std::filesystem::path build_dir();

    platform(const platform&) = delete;
    platform& operator=(const platform&) = delete;

    platform_kind kind() const { return kind_; }
    std::string name() const { return to_string(kind_); }
    /// Selects the device (and on cpu the warp size). Throws no_device when there is none, or not
    /// the one asked for; platform_unavailable when the platform fails otherwise.
    void init(int device, int warp_size);
    const wb_device_info& device() const { return device_; }
    const wb_platform& api() const { return *api_; }

    /// Throws std::runtime_error("<what>: <message>") if `e` is an error.
    static void check(wb_err e, const std::string& what);

    void copy_to_device(void* dst, const void* src, size_t bytes) const;
    void copy_to_host(void* dst, const void* src, size_t bytes) const;

private:
    platform(boost::dll::shared_library lib, const wb_platform* api, platform_kind kind);
    boost::dll::shared_library lib_;
    const wb_platform* api_;
    platform_kind kind_;
    wb_device_info device_{};
};

/// Host memory page-locked while this lives, for faster copies to and from the device (the
/// outputs copied back after every checked run). Where the platform refuses, the memory stays as
/// it was: copies work, only slower.
class pinned_memory {
public:
    pinned_memory() = default;
    pinned_memory(std::shared_ptr<platform> p, void* ptr, size_t bytes);
    pinned_memory(pinned_memory&& o) noexcept { swap(o); }
    pinned_memory& operator=(pinned_memory&& o) noexcept
    {
        swap(o);
        return *this;
    }
    ~pinned_memory();

private:
    void swap(pinned_memory& o) noexcept
    {
        std::swap(p_, o.p_);
        std::swap(ptr_, o.ptr_);
    }
    std::shared_ptr<platform> p_;
    void* ptr_ = nullptr; // null unless locked
};

/// Device memory.
class device_buffer {
public:
    device_buffer() = default;
    device_buffer(std::shared_ptr<platform> p, size_t bytes);
    device_buffer(device_buffer&& o) noexcept { swap(o); }
    device_buffer& operator=(device_buffer&& o) noexcept
    {
        swap(o);
        return *this;
    }
    ~device_buffer();
    void* get() const { return ptr_; }
    size_t bytes() const { return bytes_; }

private:
    void swap(device_buffer& o) noexcept
    {
        std::swap(p_, o.p_);
        std::swap(ptr_, o.ptr_);
        std::swap(bytes_, o.bytes_);
    }
    std::shared_ptr<platform> p_;
    void* ptr_ = nullptr;
    size_t bytes_ = 0;
};

/// A stream and the two events that time the region enqueued between them.
class timed_stream {
public:
    explicit timed_stream(std::shared_ptr<platform> p);
    ~timed_stream();
    timed_stream(const timed_stream&) = delete;
    timed_stream& operator=(const timed_stream&) = delete;
    void* get() const { return stream_; }
    void start();
    void stop();
    void sync();
    /// Milliseconds between start() and stop() (after sync()).
    float elapsed_ms();

private:
    std::shared_ptr<platform> p_;
    void* stream_ = nullptr;
    void* start_ = nullptr;
    void* stop_ = nullptr;
};

} // namespace wb
