// What the CPU runtime's files share for hipDeviceReset: the current device's memory (host_api.cpp)
// and its peer access (peer.cpp) are reset from devices.cpp.
#pragma once

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {

/// Frees the memory allocated while `device` was current (hipMalloc and what is made through it).
void free_device_allocations(int device);

/// Disables the peer access that `device` enabled.
void reset_peer_access(int device);

} // namespace cpu_runtime
#pragma GCC visibility pop
