// The CPU runtime's launches (hip_cpu_launch, which hipLaunchKernelGGL and the triple chevrons
// reach) and what a kernel's lanes call: barriers, the grid's sync, collectives, dynamic LDS.
#include "pool.h"
#include "runtime_common.h"
#include "scheduler.h"

#include <hip/hip_cpu_counters.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

using namespace cpu_runtime;

namespace {

/// The launches counted while hipCpuCountLaunches is on (under launch_mutex()).
struct launch_counting {
    bool on = false;
    std::vector<hipCpuLaunchCounts> launches;
};
launch_counting& counting()
{
    static launch_counting c;
    return c;
}

void count(const launch_job& job, uint64_t threads)
{
    launch_counting& c = counting();
    if (!c.on || c.launches.size() >= 100000) return; // a bound: a run of a million launches keeps the first
    const uint64_t waves_per_block = (threads + job.warp - 1) / job.warp;
    c.launches.push_back({job.n_blocks, job.n_blocks * waves_per_block, job.collectives.load(),
                          job.collective_lanes.load(), job.warp, unsigned(threads)});
}

} // namespace

extern "C" {

hipError_t hip_cpu_launch(dim3 grid, dim3 block, size_t shared_bytes, hipStream_t, unsigned flags,
                          unsigned (*body)(void*, unsigned), void* closure)
{
    if (const hipError_t e = launch_config_error(grid, block, shared_bytes); e != hipSuccess) return fail(e);
    if (tl_worker()) return fail(hipErrorNotSupported); // no launches from kernels

    launch_job job;
    job.grid = grid;
    job.block = block;
    job.body = body;
    job.closure = closure;
    job.n_blocks = uint64_t(grid.x) * grid.y * grid.z;
    job.cooperative = flags & hip_cpu_launch_cooperative;
    {
        std::lock_guard lock(launch_mutex());
        // Every block of a cooperative launch runs at once, one per worker.
        if (job.cooperative && job.n_blocks > the_pool().size()) return fail(hipErrorCooperativeLaunchTooLarge);
        job.order = lane_order();
        job.grid_sync.reset(job.n_blocks);
        job.warp = unsigned(hip_cpu_warp_size);
        the_pool().run(job);
        count(job, uint64_t(block.x) * block.y * block.z);
    }
    return fail(hipError_t(job.error.load()));
}

void hip_cpu_syncthreads(void)
{
    if (worker* w = tl_worker()) w->block_lane(lane_state::barrier);
}

/// A grid is not a cooperative one: its blocks need not run at once, and cannot wait for each other.
struct not_cooperative : std::logic_error {
    not_cooperative() : std::logic_error("this_grid().sync() outside a cooperative launch") {}
};

void hip_cpu_grid_sync(void)
{
    worker* w = tl_worker();
    if (!w) return;
    if (!w->cooperative()) throw not_cooperative(); // the lane fails: hipErrorLaunchFailure
    w->block_lane(lane_state::grid_barrier);
}

int hip_cpu_launch_is_cooperative(void) { return tl_worker() && tl_worker()->cooperative(); }

hipError_t hip_cpu_fail(hipError_t e) { return fail(e); }

/// Whether the calling thread is running a kernel's lane (what `wavebench-hipcc --checked` asks).
extern "C" int hip_cpu_in_lane(void) { return tl_worker() != nullptr; }

/// A device assert that failed (device_assert.cpp): in a kernel's lane, the message a GPU prints,
/// naming the block and the thread, and the launch fails with hipErrorAssert; 1 then, 0 outside a
/// kernel (the host's assert).
extern "C" int hip_cpu_lane_assert(const char* expression, const char* file, unsigned line, const char* function)
{
    worker* w = tl_worker();
    if (!w) return 0;
    const uint3 b = blockIdx, t = threadIdx;
    std::fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file, line,
                 function, b.x, b.y, b.z, t.x, t.y, t.z, expression);
    w->fail(hipErrorAssert);
    return 1;
}

hipError_t hipCpuCountLaunches(int on)
{
    std::lock_guard lock(launch_mutex());
    counting().on = on != 0;
    if (on) counting().launches.clear();
    return hipSuccess;
}

hipError_t hipCpuCountedLaunches(hipCpuLaunchCounts* out, unsigned cap, unsigned* n)
{
    if (!n || (cap && !out)) return fail(hipErrorInvalidValue);
    std::lock_guard lock(launch_mutex());
    const auto& l = counting().launches;
    *n = unsigned(l.size());
    for (unsigned i = 0; i < cap && i < l.size(); ++i) out[i] = l[i];
    return hipSuccess;
}

void* hip_cpu_dynamic_shared_base(void) { return this_worker().dynamic_shared(); }

uint64_t hip_cpu_collective_masked(int op, uint64_t value, int arg, int width, uint64_t mask, const char* file,
                                   uint64_t line_column)
{
    const bool sync = op & hip_cpu_sync, quiet = op & hip_cpu_active;
    op &= ~(hip_cpu_sync | hip_cpu_active);
    worker* w = tl_worker();
    if (!w) {
        if (op == hip_cpu_ballot) return value != 0;
        return op == hip_cpu_match ? 1 : value;
    }
    lane& l = w->current();
    l.op = uint8_t(op);
    l.value = value;
    l.arg = arg;
    l.width = int8_t(width >= 1 && width <= 64 ? width : 0);
    l.sync = sync;
    l.quiet = quiet;
    l.mask = mask;
    l.file = file;
    l.line_column = line_column;
    const auto* f = static_cast<const hip_cpu_frame*>(hip_cpu_tls.region);
    // A region's frame lives on the lane's stack, above the frames of the calls it made: one below
    // this call's was left without being ended (longjmp), and its lanes cannot be grouped.
#ifndef __SANITIZE_ADDRESS__ // (ASan may keep frames off the stack)
    if (f && static_cast<const void*>(f) < __builtin_frame_address(0)) [[unlikely]] {
        if (w->first_note())
            std::fprintf(stderr,
                         "wavebench cpu runtime: the collective at %s:%u is reached by a lane that left a region "
                         "without ending it (longjmp, or a region's frame overwritten); the launch fails\n",
                         file ? file : "?", unsigned(line_column >> 32));
        w->fail(hipErrorLaunchFailure);
        f = nullptr;
        hip_cpu_tls.region = nullptr;
    }
#endif
    const uint64_t here = f ? hip_cpu_tls.here : 0;
    l.frame = f;
    l.instance = here;
    w->block_lane(lane_state::collective);
    return w->current().result;
}

uint64_t hip_cpu_collective(int op, uint64_t value, int arg, int width, const char* file, unsigned line,
                            unsigned column)
{
    return hip_cpu_collective_masked(op, value, arg, width, 0, file, uint64_t(line) << 32 | column);
}

} // extern "C"
