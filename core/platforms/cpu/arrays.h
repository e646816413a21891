// What the CPU runtime's arrays (arrays.cpp) share with its texture and surface objects
// (textures.cpp): the element layouts a channel description allows, and which arrays are live.
#pragma once

#include <hip/hip_runtime.h>

#include <mutex>
#include <unordered_set>

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {

/// The handles of one kind that are alive (arrays, texture and surface objects): what the calls that
/// take one check it against.
class live_handles {
public:
    void add(const void* h)
    {
        std::lock_guard lock(m_);
        live_.insert(h);
    }
    bool remove(const void* h)
    {
        std::lock_guard lock(m_);
        return live_.erase(h) != 0;
    }
    bool alive(const void* h)
    {
        std::lock_guard lock(m_);
        return h && live_.count(h) != 0;
    }

private:
    std::mutex m_;
    std::unordered_set<const void*> live_;
};

/// The elements a channel description makes: 1, 2 or 4 channels of the same width, 8, 16 or 32
/// bits (floats 16 or 32), from x on.
struct element_layout {
    unsigned channels = 0;
    unsigned channel_bytes = 0;
    size_t bytes() const { return size_t(channels) * channel_bytes; }
};

/// The layout of `desc`; false when the description is not one the platform takes.
bool layout_of(const hipChannelFormatDesc& desc, element_layout& layout);

/// Whether `array` was made by hipMallocArray or hipMalloc3DArray and not freed since.
bool live_array(hipArray_const_t array);

} // namespace cpu_runtime
#pragma GCC visibility pop
