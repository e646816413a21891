#include "harness/platform.h"

#include <boost/dll/runtime_symbol_info.hpp>

#include <dlfcn.h>

namespace wb {

namespace fs = std::filesystem;

fs::path platform::build_dir() { return boost::dll::program_location().parent_path().parent_path(); }

static fs::path library_path(const std::string& name)
{
    return platform::build_dir() / "lib" / ("libwavebench_platform_" + name + ".so");
}

std::vector<std::string> platform::built()
{
    std::vector<std::string> r;
    for (const char* p : {"nvidia", "amd", "cpu"})
        if (fs::exists(library_path(p))) r.emplace_back(p);
    return r;
}

platform::platform(boost::dll::shared_library lib, const wb_platform* api, std::string name)
    : lib_(std::move(lib)), api_(api), name_(std::move(name))
{
}

std::shared_ptr<platform> platform::load(const std::string& name)
{
    if (name != "cpu" && name != "amd" && name != "nvidia")
        throw platform_unavailable("unknown platform '" + name + "': choose cpu, amd or nvidia");
    const fs::path path = library_path(name);
    if (!fs::exists(path))
        throw platform_unavailable("platform '" + name + "' is not built here (" + path.string() +
                                   " missing); the build found no compiler for it");
    boost::dll::fs::error_code ec;
    boost::dll::shared_library lib(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
    if (ec) {
        const char* why = dlerror();
        throw platform_unavailable("cannot load " + path.string() + ": " + (why ? why : ec.message()));
    }
    if (!lib.has(WB_PLATFORM_ENTRY)) throw platform_unavailable(path.string() + " has no " WB_PLATFORM_ENTRY " entry");
    const wb_platform* api = lib.get<const wb_platform*(uint32_t)>(WB_PLATFORM_ENTRY)(WB_PLATFORM_ABI_VERSION);
    if (!api || api->size < sizeof(wb_platform))
        throw platform_unavailable(path.string() + " was built for another platform ABI; rebuild wavebench");
    return std::shared_ptr<platform>(new platform(std::move(lib), api, name));
}

void platform::check(wb_err e, const std::string& what)
{
    if (e) throw std::runtime_error(what + ": " + e);
}

void platform::init(int device, int warp_size)
{
    if (wb_err e = api_->init(device, warp_size)) {
        const std::string why = e, detail = why.substr(why.find('(') + 1);
        if (why.rfind("no " + name_ + " device found", 0) == 0) {
            if (name_ == "amd")
                throw no_device("no AMD GPU found (" + detail +
                                "; `wavebench inspect --platform amd` reports the kernels' AMD resources without one");
            throw no_device("no NVIDIA GPU found, or its driver is older than the CUDA 13 runtime (" + detail);
        }
        if (why.rfind("device ", 0) == 0) throw no_device(why); // an index beyond the devices there are
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
