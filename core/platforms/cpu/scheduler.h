// The CPU runtime's scheduler: a launch's job, and the worker that runs its blocks. A worker runs a
// block's lanes one after another inside a single fiber; if a lane reaches a barrier or a warp
// collective, the block switches to one fiber per lane and the worker schedules them: it runs each
// wavefront until all its lanes are blocked, resolves the wavefront's collectives, and releases a
// barrier once every lane that has not exited is waiting at it. What a lane calls on that path
// (block_lane, next) is inline here; the rest is in scheduler.cpp.
#pragma once

#include "fibers.h"
#include "runtime_common.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {

/// Where the blocks of a cooperative launch meet (this_grid().sync()). A block that has finished
/// no longer counts, and a failed launch opens it for good, so that no block waits forever.
class grid_barrier {
public:
    void reset(uint64_t blocks) { expected_ = blocks; }
    void arrive_and_wait()
    {
        std::unique_lock lock(m_);
        if (aborted_) return;
        const uint64_t generation = generation_;
        if (++arrived_ >= expected_) return open();
        cv_.wait(lock, [&] { return generation_ != generation || aborted_; });
    }
    void drop()
    {
        std::lock_guard lock(m_);
        --expected_;
        if (arrived_ > 0 && arrived_ >= expected_) open();
    }
    void abort()
    {
        std::lock_guard lock(m_);
        aborted_ = true;
        cv_.notify_all();
    }

private:
    void open()
    {
        arrived_ = 0;
        ++generation_;
        cv_.notify_all();
    }
    std::mutex m_;
    std::condition_variable cv_;
    uint64_t expected_ = 0, arrived_ = 0, generation_ = 0;
    bool aborted_ = false;
};

struct launch_job {
    dim3 grid, block;
    unsigned (*body)(void*, unsigned);
    void* closure;
    uint64_t n_blocks;
    bool cooperative = false;
    lane_order_setting order;
    std::atomic<uint64_t> next{0};
    std::atomic<int> error{hipSuccess};                        // the first failure wins
    std::atomic<uint64_t> collectives{0}, collective_lanes{0}; // summed from the workers' own counts
    std::atomic<bool> noted{false};                            // a lane's broken regions, said once
    unsigned warp = 0;                                         // the wavefront width it ran at
    grid_barrier grid_sync;

    void fail(hipError_t e)
    {
        int expected = hipSuccess;
        error.compare_exchange_strong(expected, e);
        if (cooperative) grid_sync.abort();
    }
};

enum class lane_state : uint8_t { runnable, barrier, grid_barrier, collective, exited };

/// A lane's pending collective: one cache line, written by the lane as it blocks and read by the
/// scheduler for every lane of the wavefront.
struct alignas(64) lane {
    uint8_t op = 0;
    bool sync = false;  // a `_sync` form: its lanes are the ones `mask` names, from any call site
    bool quiet = false; // __activemask(): never reported as divergent (it is how code asks for the lanes)
    int8_t width = 0;   // as given where 1 to 64, else 0 (the wavefront)
    int arg = 0;
    uint64_t mask = 0;
    uint64_t value = 0;
    uint64_t result = 0;
    const char* file = nullptr;
    uint64_t line_column = 0;             // the call site: line << 32 | column
    uint64_t instance = 0;                // the region instance it was reached in, with its arm and count (0: none)
    const hip_cpu_frame* frame = nullptr; // the lane's innermost region then
};
static_assert(sizeof(lane) == 64);

class worker;
/// The worker running a block on this thread (null outside kernels): beside the lane's region in
/// hip_cpu_tls, so that a barrier reads both through one thread-local address.
inline worker*& tl_worker() { return reinterpret_cast<worker*&>(hip_cpu_tls.worker); }

/// The fibers made by all launches so far (hipCpuFibersCreated).
extern std::atomic<unsigned long long> g_fibers_created;

class worker {
public:
    worker();

    /// Runs blocks of `job` until none is left; a block that fails fails the job.
    void run_blocks(launch_job& job) noexcept;

    /// Called from a lane at a barrier or collective: hand the thread to the next lane that can
    /// run, and return once this lane can go on.
    void block_lane(lane_state why)
    {
        // (A lane in a region takes the general path, which carries it: hand_regions().)
        if (dense_ && why == lane_state::barrier && !hip_cpu_tls.region) [[likely]]
            return dense_barrier();
        block_lane_general(why);
    }
    /// block_lane() where the block is not dense_ (or the lane is not at a barrier).
    __attribute__((noinline)) void block_lane_general(lane_state why)
    {
        if (!fiber_mode_) [[unlikely]] {
            to_fibers();
            if (dense_ && why == lane_state::barrier && !hip_cpu_tls.region) return dense_barrier();
        }
        if (dense_) leave_dense();
        const unsigned me = current_;
        state_[me] = why;
        if (why == lane_state::collective)
            ++in_collective_;
        else
            ++at_barrier_, at_grid_ += why == lane_state::grid_barrier;
        const unsigned nx = next();
        if (nx != me) {
            hand_regions(me, nx);
            prefetch_lane_at(pos_ + prefetch_ahead - 1);
            enter(nx);
            asan_leave(&fake_[me], bounds_[nx]);
            switch_context<&worker::lane_start>(&sp_[me], sp_[nx]);
            asan_arrive(fake_[me]);
        }
        // whoever switched back to this lane has entered it
    }

    /// The lane running now (in the block's first fiber, the lane of threadIdx).
    lane& current()
    {
        if (!fiber_mode_) current_ = lane_index(threadIdx);
        return lanes_[current_];
    }
    bool cooperative() const { return job_ && job_->cooperative; }
    /// Whether nothing has been said yet of this launch's broken regions (then it is now).
    bool first_note() { return job_ && !job_->noted.exchange(true); }
    /// Fails the launch running (the first failure wins).
    void fail(hipError_t e)
    {
        if (job_) job_->fail(e);
    }
    void* dynamic_shared() { return align64(shared_.data()); }

private:
    static constexpr unsigned none = ~0u;
    /// How many lanes ahead a lane's stack is asked for (prefetch_fiber).
    static constexpr unsigned prefetch_ahead = 8;

    // A block, from its start to its end (scheduler.cpp).
    void run_block(launch_job& job, uint64_t b);
    void begin_block(launch_job& job, uint64_t b);
    void arrange_order(const launch_job& job, uint64_t b);
    static void block_start();
    [[noreturn]] void run_in_turn();
    static void lane_start();
    [[noreturn]] __attribute__((noinline)) void run_lane();
    static unsigned end_lane(void* w, unsigned);
    __attribute__((noinline)) void to_fibers();

    /// A lane of a block in fibers has finished: on to the next lane, or the end of the block.
    [[noreturn]] __attribute__((always_inline)) void exit_lane()
    {
        if (dense_) leave_dense();
        state_[current_] = lane_state::exited;
        const unsigned nx = next();
        if (nx == none) finish_block();
        hand_regions(none, nx);
        prefetch_lane_at(pos_ + prefetch_ahead - 1);
        enter(nx);
        asan_leave(nullptr, bounds_[nx]);
        leave_context<&worker::lane_start>(sp_[nx]);
    }

    [[noreturn]] void finish_block()
    {
        asan_leave(nullptr, thread_stack_);
        leave_context<&worker::lane_start>(thread_sp_); // the thread: a suspended fiber
    }

    // The scheduler's choice of the next lane, and the collectives it completes.
    /// The lane at position k of the running order. In forward order, k itself: one load less on
    /// the path from one lane to the next, which is a chain of dependent loads.
    unsigned lane_at(unsigned k) const { return order_mode_ == hipCpuLaneOrderForward ? k : order_[k]; }

    /// prefetch_fiber() for the lane at position k of the running order, if there is one.
    void prefetch_lane_at(unsigned k) const
    {
        if (k < n_lanes_) prefetch_fiber(sp_[lane_at(k)]);
    }

    unsigned lane_index(const uint3& t) const { return t.x + dim_x_ * t.y + dim_xy_ * t.z; }

    void enter(unsigned i)
    {
        current_ = i;
        threadIdx = dim_x_ == n_lanes_ ? uint3{i, 0, 0} : thread_idx_[i];
    }

    void set_wave(unsigned w);

    /// Before the thread goes from lane `me` (`none`: it has finished) to lane `nx`: the lanes'
    /// regions (hip_cpu_tls.region and .here, whose frames are on each lane's own stack) go with
    /// them. Until a lane blocks in one, none is: nothing is kept (every lane's is null).
    __attribute__((always_inline)) void hand_regions(unsigned me, unsigned nx)
    {
        if (!regions_seen_) [[likely]] {
            if (!hip_cpu_tls.region) [[likely]]
                return;
            first_regions();
        }
        if (me != none) {
            lanes_[me].frame = static_cast<const hip_cpu_frame*>(hip_cpu_tls.region);
            lanes_[me].instance = hip_cpu_tls.here;
        }
        hip_cpu_tls.region = const_cast<hip_cpu_frame*>(lanes_[nx].frame);
        hip_cpu_tls.here = lanes_[nx].instance;
    }
    /// A lane of the block blocks in a region for the first time: every other lane is in none.
    __attribute__((noinline)) void first_regions();

    /// A barrier while the block is dense_: every lane before this one waits at it, every lane
    /// after it can run, so the next lane is the one after, and after the last lane the barrier
    /// opens (lane 0 again). The same choice as next()'s, with nothing written down. No lane of a
    /// dense block is in a region (a block where one has been is never dense again).
    void dense_barrier()
    {
        const unsigned me = current_;
        const unsigned nx = me + 1 == n_lanes_ ? 0 : me + 1;
        prefetch_fiber(sp_[nx + prefetch_ahead]); // past the last lane: another stack, or null
        enter(nx);
        asan_leave(&fake_[me], bounds_[nx]);
        switch_context<&worker::lane_start>(&sp_[me], sp_[nx]);
        asan_arrive(fake_[me]);
    }
    /// Writes down what dense_ leaves implicit (the lanes before current_ wait at the barrier),
    /// for the general scheduler to go on from.
    __attribute__((noinline)) void leave_dense();

    /// The next lane to run: the runnable lanes of the current wavefront in order; when it is
    /// all blocked, its collectives complete and it goes on; when every wavefront waits, the
    /// barrier opens. `none` once every lane has exited.
    __attribute__((always_inline)) unsigned next()
    {
        while (pos_ < wave_end_) {
            const unsigned i = lane_at(pos_++);
            if (state_[i] == lane_state::runnable) return i;
        }
        return next_wave();
    }

    __attribute__((noinline)) unsigned next_wave();
    void open_barrier();
    void arrange_wave(unsigned w);
    void resolve_collectives(unsigned w0, unsigned w1);
    uint64_t group_of(unsigned w0, uint64_t pending, unsigned i, bool& same) const;
    bool can_complete(unsigned w0, unsigned w1, uint64_t pending, uint64_t group, unsigned i) const;
    void complete(unsigned w0, uint64_t group, bool same);
    void fail_stuck(unsigned w0, unsigned w1, uint64_t pending);
    void note_divergent(unsigned w0, unsigned w1, uint64_t group) const;
    void resolve_ballot(unsigned w0, uint64_t mask);
    void resolve_match(unsigned w0, uint64_t mask);
    void resolve_reduce(unsigned w0, uint64_t mask);
    void resolve_shuffles(unsigned w0, uint64_t mask);
    void resolve_shuffles(unsigned w0, uint64_t mask, int op, int width);
    template <class Source> void shuffle_each(unsigned w0, uint64_t mask, Source source);
    int source_lane(int op, int self, int arg, int width) const;

    static void* align64(std::byte* p)
    {
        return reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(p) + 63) & ~uintptr_t(63));
    }

    stack_cache stacks_;
    std::vector<std::byte> shared_;
    // per lane
    std::vector<lane_state> state_;
    std::vector<void*> sp_;                     // its suspended fiber
    std::vector<stack_bounds> bounds_;          // where its fiber runs
    std::vector<void*> fake_;                   // ASan's fake frames of its fiber while it is switched away from
    std::vector<lane> lanes_;                   // its pending collective
    std::vector<unsigned> order_;               // the running order: position -> lane
    std::vector<uint3> thread_idx_;             // threadIdx by lane, in 2-D and 3-D blocks
    dim3 thread_idx_dims_{0, 0, 0};             // the block thread_idx_ was filled for
    unsigned order_lanes_ = 0, order_warp_ = 0; // what order_ was arranged for
    hipCpuLaneOrder order_arranged_ = hipCpuLaneOrderForward;
    hipCpuLaneOrder order_mode_ = hipCpuLaneOrderForward;
    uint64_t rng_ = 0;
    unsigned (*body_)(void*, unsigned) = nullptr;
    void* closure_ = nullptr;
    void* thread_sp_ = nullptr;               // the worker thread, while it runs a block
    stack_bounds block_stack_, thread_stack_; // the block's first fiber's stack, the worker thread's
    void* thread_fake_ = nullptr;             // ASan's fake frames of the thread while in the block
    launch_job* job_ = nullptr;
    unsigned n_lanes_ = 0, dim_x_ = 0, dim_xy_ = 0, warp_ = 64, current_ = 0;
    unsigned wave_ = 0, wave_end_ = 0, pos_ = 0; // the scheduler's place: wavefront, next position to look at
    unsigned in_collective_ = 0, at_barrier_ = 0, at_grid_ = 0; // lanes waiting at each
    unsigned fibers_ = 0;                                       // created for the current block
    uint64_t collectives_ = 0, collective_lanes_ = 0;           // counted in this job, added to it at the end
    bool aborted_ = false; // no stack for the block's fibers: the block is abandoned
    bool fiber_mode_ = false;
    bool regions_seen_ = false;
    // Forward order, no lane has exited and nothing waits but at the barrier, which the lanes
    // before current_ have reached (their state_ still says runnable): see dense_barrier().
    bool dense_ = false;
};

/// This thread's worker (made at its first launch).
worker& this_worker();

} // namespace cpu_runtime
#pragma GCC visibility pop
