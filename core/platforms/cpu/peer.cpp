// The CPU runtime's peer access: every device shares host memory, so each can access every other
// one. What hipDeviceEnablePeerAccess enabled is recorded per pair (the current device, the peer),
// for HIP's errors; copies between devices are plain copies.
#include "device_state.h"
#include "runtime_common.h"

#include <mutex>
#include <set>
#include <utility>

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {
namespace {

struct peer_state {
    std::mutex m;
    std::set<std::pair<int, int>> enabled; // (device, peer): the device may access the peer's memory
};
peer_state& peers()
{
    static peer_state p;
    return p;
}

bool valid_device(int device)
{
    int count = 0;
    return hipGetDeviceCount(&count) == hipSuccess && device >= 0 && device < count;
}

/// The current device and `peer` as a pair, or hipErrorInvalidDevice: a peer that is not a
/// device, or the current device itself.
hipError_t peer_pair(int peer, std::pair<int, int>& pair)
{
    int current = 0;
    if (const hipError_t e = hipGetDevice(&current); e != hipSuccess) return e;
    if (!valid_device(peer) || peer == current) return fail(hipErrorInvalidDevice);
    pair = {current, peer};
    return hipSuccess;
}

} // namespace

void reset_peer_access(int device)
{
    peer_state& p = peers();
    std::lock_guard lock(p.m);
    for (auto it = p.enabled.begin(); it != p.enabled.end();)
        it = it->first == device ? p.enabled.erase(it) : std::next(it);
}

} // namespace cpu_runtime
#pragma GCC visibility pop

using namespace cpu_runtime;

extern "C" {

hipError_t hipDeviceCanAccessPeer(int* can_access, int device, int peer_device)
{
    if (!can_access) return fail(hipErrorInvalidValue);
    if (!valid_device(device) || !valid_device(peer_device)) return fail(hipErrorInvalidDevice);
    *can_access = device != peer_device ? 1 : 0;
    return hipSuccess;
}

hipError_t hipDeviceEnablePeerAccess(int peer_device, unsigned flags)
{
    if (flags != 0) return fail(hipErrorInvalidValue); // checked first, as HIP does
    std::pair<int, int> pair;
    if (const hipError_t e = peer_pair(peer_device, pair); e != hipSuccess) return e;
    peer_state& p = peers();
    std::lock_guard lock(p.m);
    return p.enabled.insert(pair).second ? hipSuccess : fail(hipErrorPeerAccessAlreadyEnabled);
}

hipError_t hipDeviceDisablePeerAccess(int peer_device)
{
    std::pair<int, int> pair;
    if (const hipError_t e = peer_pair(peer_device, pair); e != hipSuccess) return e;
    peer_state& p = peers();
    std::lock_guard lock(p.m);
    return p.enabled.erase(pair) ? hipSuccess : fail(hipErrorPeerAccessNotEnabled);
}

hipError_t hipMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, size_t bytes)
{
    if (!valid_device(dst_device) || !valid_device(src_device)) return fail(hipErrorInvalidDevice);
    return hipMemcpy(dst, src, bytes, hipMemcpyDeviceToDevice);
}

hipError_t hipMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t bytes,
                              hipStream_t stream)
{
    if (!valid_device(dst_device) || !valid_device(src_device)) return fail(hipErrorInvalidDevice);
    return hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToDevice, stream); // recorded on a capturing stream
}

} // extern "C"
