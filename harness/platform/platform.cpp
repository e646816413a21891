#include "harness/platform/platform.h"

#include <boost/dll/runtime_symbol_info.hpp>

#include <dlfcn.h>

namespace wb {

namespace fs = std::filesystem;

// The build folder (build/bin/wavebench: build/lib, build/plugins/<platform>) or, installed
// (<prefix>/bin/wavebench), <prefix>/lib/wavebench, which holds lib/ and plugins/<platform>/ as the
// build folder does (cmake/install.cmake).
fs::path platform::build_dir()
{
    const fs::path up = boost::dll::program_location().parent_path().parent_path();
    std::error_code ec;
    if (const fs::path installed = up / "lib" / "wavebench"; fs::is_directory(installed / "lib", ec)) return installed;
    return up;
}

static std::string library_file(platform_kind kind)
{
    return std::string("libwavebench_platform_") + to_string(kind) + ".so";
}

std::vector<platform_kind> platform::built()
{
    std::vector<platform_kind> r;
    for (platform_kind k : platform_kinds) // best first
        if (fs::exists(platform::build_dir() / "lib" / library_file(k))) r.push_back(k);
    return r;
}

platform::platform(boost::dll::shared_library lib, const wb_platform* api, platform_kind kind)
    : lib_(std::move(lib)), api_(api), kind_(kind)
{
}

std::shared_ptr<platform> platform::load(std::string_view name)
{
    const auto kind = parse_platform(name);
    if (!kind) throw platform_unavailable(unknown_platform(name));
    return load(*kind);
}

boost::dll::shared_library open_build_library(const std::string& file, const std::string& what, const std::string& fix,
                                              std::string& why)
{
    const fs::path path = platform::build_dir() / "lib" / file;
    if (!fs::exists(path)) {
        why = what + " is not built here (" + path.string() + " is missing): " + fix;
        return {};
    }
    boost::dll::fs::error_code ec;
    boost::dll::shared_library lib(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
    if (ec) {
        const char* loader = dlerror();
        why = "cannot load " + path.string() + ": " + (loader ? loader : ec.message());
        return {};
    }
    return lib;
}

std::shared_ptr<platform> platform::load(platform_kind kind)
{
    const std::string name = to_string(kind);
    const std::string path = (build_dir() / "lib" / library_file(kind)).string(); // for messages
    boost::dll::shared_library lib = load_build_library<platform_unavailable>(
        library_file(kind), "platform '" + name + "'", "the build found no compiler for it");
    if (!lib.has(WB_PLATFORM_ENTRY)) throw platform_unavailable(path + " has no " WB_PLATFORM_ENTRY " entry");
    const wb_platform* api = lib.get<const wb_platform*(uint32_t)>(WB_PLATFORM_ENTRY)(WB_PLATFORM_ABI_VERSION);
    if (!api || api->size < sizeof(wb_platform))
        throw platform_unavailable(path + " was built for another platform ABI; rebuild wavebench");
    return std::shared_ptr<platform>(new platform(std::move(lib), api, kind));
}

void platform::check(wb_err e, const std::string& what)
{
    if (e) throw std::runtime_error(what + ": " + e);
}

/// "no AMD GPU found (<why>)...": what a person should know when the runtime finds no device.
static std::string no_device_message(platform_kind kind, const std::string& why)
{
    switch (kind) {
    case platform_kind::amd:
        return "no AMD GPU found (" + why +
               "); `wavebench inspect --platform amd` reports the kernels' AMD resources without one";
    case platform_kind::nvidia:
        return "no NVIDIA GPU found, or its driver is older than the CUDA 13 runtime (" + why + ")";
    case platform_kind::cpu:
        break;
    }
    return std::string("no ") + to_string(kind) + " device found (" + why + ")";
}

void platform::init(int device, int warp_size)
{
    const char* message = nullptr;
    const int32_t st = api_->init(device, warp_size, &message);
    const std::string why = message ? message : "no reason given";
    switch (st) {
    case WB_PLATFORM_OK:
        break;
    case WB_PLATFORM_NO_DEVICE:
        throw no_device(no_device_message(kind_, why));
    case WB_PLATFORM_BAD_DEVICE:
        throw no_device(why); // an index beyond the devices there are
    default:
        throw platform_unavailable(why);
    }
    check(api_->device_info(&device_), "reading the device's properties");
}

void platform::copy_to_device(void* dst, const void* src, size_t bytes) const
{
    check(api_->copy(dst, src, bytes, 1 /* hipMemcpyHostToDevice */), "copying inputs to the device");
}

void platform::copy_to_host(void* dst, const void* src, size_t bytes) const
{
    check(api_->copy(dst, src, bytes, 2 /* hipMemcpyDeviceToHost */), "copying outputs to the host");
}

pinned_memory::pinned_memory(std::shared_ptr<platform> p, void* ptr, size_t bytes)
{
    if (ptr && bytes > 0 && !p->api().host_pin(ptr, bytes)) p_ = std::move(p), ptr_ = ptr;
}

pinned_memory::~pinned_memory()
{
    if (p_ && ptr_) (void)p_->api().host_unpin(ptr_); // nothing useful to do with an error here
}

device_buffer::device_buffer(std::shared_ptr<platform> p, size_t bytes) : p_(std::move(p)), bytes_(bytes)
{
    platform::check(p_->api().alloc(&ptr_, bytes), "allocating " + std::to_string(bytes) + " bytes of device memory");
}

device_buffer::~device_buffer()
{
    if (p_ && ptr_) (void)p_->api().release(ptr_); // nothing useful to do with an error here
}

timed_stream::timed_stream(std::shared_ptr<platform> p) : p_(std::move(p))
{
    platform::check(p_->api().stream_create(&stream_), "creating a stream");
    platform::check(p_->api().event_create(&start_), "creating an event");
    platform::check(p_->api().event_create(&stop_), "creating an event");
}

timed_stream::~timed_stream()
{
    (void)p_->api().event_destroy(start_);
    (void)p_->api().event_destroy(stop_);
    (void)p_->api().stream_destroy(stream_);
}

void timed_stream::start() { platform::check(p_->api().event_record(start_, stream_), "recording the start event"); }
void timed_stream::stop() { platform::check(p_->api().event_record(stop_, stream_), "recording the stop event"); }
void timed_stream::sync() { platform::check(p_->api().stream_sync(stream_), "waiting for the stream"); }

float timed_stream::elapsed_ms()
{
    float ms = 0;
    platform::check(p_->api().event_elapsed_ms(&ms, start_, stop_), "reading the events");
    return ms;
}

} // namespace wb
