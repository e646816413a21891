// The CPU runtime's scheduler (scheduler.h): how a worker runs a block, first in one fiber, then in
// one fiber per lane once a lane blocks, and how it picks the next lane, opens a barrier and
// completes a wavefront's collectives.
#include "scheduler.h"

#include "wavebench/warp_size.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

extern "C" {
__attribute__((visibility("default"))) __thread hip_cpu_tls_t hip_cpu_tls
    __attribute__((tls_model("initial-exec"))) = {};
__attribute__((visibility("default"))) __thread uint3 threadIdx __attribute__((tls_model("initial-exec"))) = {};
__attribute__((visibility("default"))) __thread uint3 blockIdx __attribute__((tls_model("initial-exec"))) = {};
__attribute__((visibility("default"))) __thread uint3 blockDim __attribute__((tls_model("initial-exec"))) = {};
__attribute__((visibility("default"))) __thread uint3 gridDim __attribute__((tls_model("initial-exec"))) = {};
__attribute__((visibility("default"))) int hip_cpu_warp_size = wb::cpu_default_warp_size;
}

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {

std::atomic<unsigned long long> g_fibers_created{0};

worker::worker() : stacks_(env_size("WAVEBENCH_CPU_STACK_KB", 64) * 1024), shared_(max_shared_bytes + 64) {}

void worker::run_blocks(launch_job& job) noexcept
{
    struct current {
        explicit current(worker* w) { tl_worker() = w; }
        ~current() { tl_worker() = nullptr; }
    } scope(this);
    for (uint64_t b; (b = job.next.fetch_add(1, std::memory_order_relaxed)) < job.n_blocks;) {
        try {
            run_block(job, b);
        } catch (const out_of_stacks&) {
            job.fail(hipErrorLaunchOutOfResources);
        } catch (...) {
            job.fail(hipErrorLaunchFailure);
        }
        if (!stacks_.intact()) [[unlikely]] {
            // A lane wrote below its stack, into a neighbour's: this process's memory cannot
            // be trusted any more (the harness runs plugins in worker processes for this).
            std::fprintf(stderr,
                         "wavebench cpu runtime: a lane of block %llu overflowed its %zu KiB fiber stack; "
                         "set WAVEBENCH_CPU_STACK_KB to more\n",
                         static_cast<unsigned long long>(b), stacks_.stack_bytes() / 1024);
            std::abort();
        }
        if (job.cooperative) job.grid_sync.drop();
        job_ = nullptr;
    }
    if (collectives_) { // once per worker and launch: no shared counter on the lanes' path
        job.collectives.fetch_add(collectives_, std::memory_order_relaxed);
        job.collective_lanes.fetch_add(collective_lanes_, std::memory_order_relaxed);
        collectives_ = collective_lanes_ = 0;
    }
}

/// The block's place in the grid, its size and the wavefront width, for the lanes to read.
void worker::begin_block(launch_job& job, uint64_t b)
{
    job_ = &job;
    body_ = job.body;
    closure_ = job.closure;
    const dim3 g = job.grid, d = job.block;
    blockIdx = {unsigned(b % g.x), unsigned((b / g.x) % g.y), unsigned(b / (uint64_t(g.x) * g.y))};
    blockDim = {d.x, d.y, d.z};
    gridDim = {g.x, g.y, g.z};
    hip_cpu_tls.dynamic_shared = align64(shared_.data());
    hip_cpu_tls.stop = 0;
    n_lanes_ = d.x * d.y * d.z;
    dim_x_ = d.x;
    dim_xy_ = d.x * d.y;
    warp_ = unsigned(hip_cpu_warp_size);
    if (state_.size() < n_lanes_) {
        state_.resize(n_lanes_);
        sp_.resize(n_lanes_ + prefetch_ahead);
        bounds_.resize(n_lanes_);
        fake_.resize(n_lanes_);
        lanes_.resize(n_lanes_);
        order_.resize(n_lanes_);
    }
    if (d.x != n_lanes_ && (thread_idx_dims_.x != d.x || thread_idx_dims_.y != d.y || thread_idx_dims_.z != d.z)) {
        thread_idx_.resize(n_lanes_);
        for (unsigned i = 0; i < n_lanes_; ++i) thread_idx_[i] = {i % d.x, (i / d.x) % d.y, i / dim_xy_};
        thread_idx_dims_ = d;
    }
    fiber_mode_ = aborted_ = dense_ = regions_seen_ = false;
    fibers_ = 1;
}

/// The running order: position k runs lane order_[k]. Positions [w, w + warp) are the lanes of the
/// wavefront starting at lane w, in the order the setting asks for. Forward and reverse orders
/// stay as they are from block to block; a random one is drawn per block.
void worker::arrange_order(const launch_job& job, uint64_t b)
{
    order_mode_ = job.order.order;
    rng_ = job.order.seed ^ (b * 0xd1b54a32d192ed03ull);
    if (order_mode_ == hipCpuLaneOrderRandom || order_lanes_ != n_lanes_ || order_warp_ != warp_ ||
        order_arranged_ != order_mode_) {
        for (unsigned i = 0; i < n_lanes_; ++i) order_[i] = i;
        for (unsigned w = 0; w < n_lanes_; w += warp_) arrange_wave(w);
        order_lanes_ = n_lanes_;
        order_warp_ = warp_;
        order_arranged_ = order_mode_;
    }
}

void worker::run_block(launch_job& job, uint64_t b)
{
    begin_block(job, b);
    arrange_order(job, b);
    // One fiber runs the lanes in turn; it stays the only one unless a lane blocks. The
    // block is done when a fiber switches back to thread_sp_.
    stacks_.reset();
    const fiber_stack s = stacks_.take();
    block_stack_ = {s.top - s.size, s.size};
    void* f = make_context<&worker::block_start>(s);
    // The block's lanes start in no region (the launching thread's host code may be in some).
    void* const host_region = hip_cpu_tls.region;
    const unsigned long long host_here = hip_cpu_tls.here;
    hip_cpu_tls.region = nullptr;
    hip_cpu_tls.here = 0;
    asan_leave(&thread_fake_, block_stack_);
    switch_context<&worker::block_start>(&thread_sp_, f);
    asan_arrive(thread_fake_);
    hip_cpu_tls.region = host_region;
    hip_cpu_tls.here = host_here;
    g_fibers_created.fetch_add(fibers_, std::memory_order_relaxed);
}

/// The block's first fiber: runs the lanes one after another until one blocks.
void worker::block_start()
{
    worker* w = tl_worker();
    asan_arrive(nullptr, &w->thread_stack_);
    w->run_in_turn();
}

void worker::run_in_turn()
{
    // In forward order position k runs lane k, and the lanes run in one call of the body
    // (the kernel inlined in a loop) until one blocks; in the other orders, one call a lane.
    const bool batch = order_mode_ == hipCpuLaneOrderForward;
    for (pos_ = 0; pos_ < n_lanes_;) {
        const unsigned first = pos_;
        enter(order_[first]);
        unsigned ran = 1;
        try {
            ran = body_(closure_, batch ? n_lanes_ - first : 1);
        } catch (const out_of_stacks&) {
            job_->fail(hipErrorLaunchOutOfResources);
            ran = batch ? lane_index(threadIdx) - first + 1 : 1;
        } catch (...) {
            job_->fail(hipErrorLaunchFailure);
            ran = batch ? lane_index(threadIdx) - first + 1 : 1;
        }
        if (fiber_mode_ | aborted_) [[unlikely]] {
            if (aborted_) break;
            exit_lane(); // it blocked once, and is done now
        }
        pos_ = first + ran;
    }
    finish_block();
}

/// A lane's own fiber.
void worker::lane_start()
{
    worker* w = tl_worker();
    asan_arrive(nullptr);
    hip_cpu_tls.region = nullptr; // a lane starts in no region (the lane before it may be in some)
    hip_cpu_tls.here = 0;
    w->run_lane();
}

/// A lane's fiber (the lane has been entered). The lane's body, and once it has returned the
/// switch to the next lane (end_lane), are called from the same call instruction, and that
/// switch ends in a jump: the lane resumed next, suspended in frames like these, returns
/// through them with the return-address predictor holding the addresses it returns to. (With a
/// call of its own from elsewhere, each of those returns was mispredicted.)
void worker::run_lane()
{
    unsigned (*fn)(void*, unsigned) = body_;
    void* arg = closure_;
    for (;;) {
        asm volatile("" : "+r"(fn), "+r"(arg)); // one call site for both
        try {
            fn(arg, 1);
        } catch (const out_of_stacks&) {
            job_->fail(hipErrorLaunchOutOfResources);
        } catch (...) {
            job_->fail(hipErrorLaunchFailure);
        }
        fn = &worker::end_lane;
        arg = this;
    }
}

unsigned worker::end_lane(void* w, unsigned) { static_cast<worker*>(w)->exit_lane(); }

/// The first time a lane (`me`, at position pos_) blocks: lanes before it have exited, the
/// ones after it have not started. Every fiber the block needs is made now, the one place
/// where a stack can be missing; the lane that blocked is told by an exception (the block is
/// abandoned). The fiber running now becomes me's, and the run of lanes it was in ends with
/// this lane (hip_cpu_tls.stop).
void worker::to_fibers()
{
    // A run of lanes in forward order keeps neither current_ nor pos_: threadIdx says where it is.
    const unsigned me = current_ = lane_index(threadIdx);
    if (order_mode_ == hipCpuLaneOrderForward) pos_ = me;
    const unsigned at = pos_;
    hip_cpu_tls.stop = 1;
    try {
        for (unsigned k = at + 1; k < n_lanes_; ++k) {
            const unsigned i = order_[k];
            const fiber_stack s = stacks_.take();
            sp_[i] = make_context<&worker::lane_start>(s);
#ifdef WAVEBENCH_ASAN_FIBERS
            bounds_[i] = {s.top - s.size, s.size}; // only ASan is told where a fiber runs
#endif
            state_[i] = lane_state::runnable;
        }
    } catch (...) {
        aborted_ = true;
        throw;
    }
    fibers_ += n_lanes_ - at - 1;
    for (unsigned k = 0; k < at; ++k) state_[order_[k]] = lane_state::exited;
    state_[me] = lane_state::runnable;
    in_collective_ = at_barrier_ = at_grid_ = 0;
    fiber_mode_ = true;
    dense_ = order_mode_ == hipCpuLaneOrderForward && at == 0 && n_lanes_ > 1;
    bounds_[me] = block_stack_;
    set_wave(at - at % warp_);
    pos_ = at + 1;
}

void worker::leave_dense()
{
    dense_ = false;
    const unsigned me = current_;
    std::fill(state_.begin(), state_.begin() + me, lane_state::barrier);
    at_barrier_ = me;
    set_wave(me - me % warp_);
    pos_ = me + 1;
}

void worker::first_regions()
{
    regions_seen_ = true;
    for (unsigned i = 0; i < n_lanes_; ++i) lanes_[i].frame = nullptr, lanes_[i].instance = 0;
}

void worker::set_wave(unsigned w)
{
    wave_ = w;
    wave_end_ = std::min(w + warp_, n_lanes_);
}

/// next() at the end of a wavefront.
unsigned worker::next_wave()
{
    for (;;) {
        if (in_collective_) {
            // Lanes of later wavefronts have not run since the last barrier, and earlier ones
            // had their collectives completed: the ones pending are this wavefront's.
            resolve_collectives(wave_, wave_end_);
            if (order_mode_ == hipCpuLaneOrderRandom) arrange_wave(wave_);
        } else if (wave_end_ < n_lanes_) {
            set_wave(wave_end_);
        } else {
            if (at_barrier_ == 0) return none;
            open_barrier();
        }
        for (pos_ = wave_; pos_ < wave_end_;) {
            const unsigned i = lane_at(pos_++);
            if (state_[i] == lane_state::runnable) return i;
        }
    }
}

/// Every lane that has not exited waits at a barrier: open it, and start again from wavefront 0.
void worker::open_barrier()
{
    const bool grid = at_grid_ != 0;
    at_barrier_ = at_grid_ = 0;
    lane_state* st = state_.data();
    bool exited = false;
    for (unsigned i = 0; i < n_lanes_; ++i) {
        exited |= st[i] == lane_state::exited;
        st[i] = st[i] == lane_state::exited ? lane_state::exited : lane_state::runnable;
    }
    // Every lane runs again, in forward order from lane 0: the block is dense.
    dense_ = order_mode_ == hipCpuLaneOrderForward && !exited && n_lanes_ > 1 && !regions_seen_;
    // Every lane of the block is at the grid's barrier: wait there for the other blocks
    // (each on its own worker: a cooperative launch has no more blocks than workers).
    if (grid) job_->grid_sync.arrive_and_wait();
    set_wave(0);
    if (order_mode_ == hipCpuLaneOrderRandom)
        for (unsigned w = 0; w < n_lanes_; w += warp_) arrange_wave(w);
}

/// Puts the positions of the wavefront starting at lane w in the running order.
void worker::arrange_wave(unsigned w)
{
    const unsigned end = std::min(w + warp_, n_lanes_);
    switch (order_mode_) {
    case hipCpuLaneOrderForward:
        break;
    case hipCpuLaneOrderReverse:
        for (unsigned k = w; k < end; ++k) order_[k] = w + end - 1 - k;
        break;
    case hipCpuLaneOrderRandom: // Fisher-Yates
        for (unsigned k = end - 1; k > w; --k) std::swap(order_[k], order_[w + unsigned(mix(rng_) % (k - w + 1))]);
        break;
    }
}

worker& this_worker()
{
    thread_local worker w;
    return w;
}

} // namespace cpu_runtime
#pragma GCC visibility pop
