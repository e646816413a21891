// wavebench CPU runtime: implementation of hip/hip_runtime.h for the CPU.
//
// A launch hands its blocks to a pool of worker threads (the launching thread works too). A
// worker runs a block's lanes one after another inside a single fiber; if a lane reaches a
// barrier or a warp collective, the block switches to one fiber per lane and a small scheduler
// takes over: it runs each wavefront until all its lanes are blocked, resolves the wavefront's
// collectives, and releases a barrier once every lane that has not exited is waiting at it.
#include <hip/hip_runtime.h>

#include <boost/context/fiber.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <stdexcept>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

#if defined(__SANITIZE_ADDRESS__) // g++ -fsanitize=address (the asan preset)
#include <sanitizer/asan_interface.h>
#include <utility>
#define WAVEBENCH_ASAN_FIBERS 1
#else
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

extern "C" {
__attribute__((visibility("default"))) __thread hip_cpu_tls_t hip_cpu_tls
    __attribute__((tls_model("initial-exec"))) = {};
__attribute__((visibility("default"))) int hip_cpu_warp_size = 64;
}

namespace {

namespace ctx = boost::context;

constexpr unsigned max_block_threads = 1024;
constexpr size_t max_shared_bytes = 64 * 1024;

thread_local hipError_t tl_last_error = hipSuccess;

hipError_t fail(hipError_t e)
{
    if (e != hipSuccess) tl_last_error = e;
    return e;
}

size_t env_size(const char* name, size_t fallback)
{
    const char* v = std::getenv(name);
    if (!v || !*v) return fallback;
    char* end = nullptr;
    unsigned long long x = std::strtoull(v, &end, 10);
    return (end && *end == 0 && x > 0) ? size_t(x) : fallback;
}

// ---- AddressSanitizer and fiber switches ------------------------------------------------------------
// ASan keeps one stack per thread. Each jump to another stack (a lane's fiber, or back to the
// worker thread's own) is announced to it: before, the stack it goes to; after, on that stack,
// that it arrived. Otherwise it believes a lane runs on the thread's stack, and an exception thrown
// there unpoisons the wrong range ("ASan is ignoring requested __asan_handle_no_return ... False
// positive error reports may follow": github.com/google/sanitizers/issues/189).
// Without ASan these do nothing.
struct stack_bounds {
    const void* bottom = nullptr;
    size_t size = 0;
};

#ifdef WAVEBENCH_ASAN_FIBERS
thread_local stack_bounds tl_asan_to;       // the stack of the switch under way
thread_local void* tl_asan_spent = nullptr; // the fake frames of a fiber that finished in it
#endif

/// Before a switch to `to`. `fake` keeps this stack's fake frames (ASan's use-after-return
/// frames) until it is switched back to; null when it never is (the fiber has finished).
inline void asan_leave([[maybe_unused]] void** fake, [[maybe_unused]] const stack_bounds& to)
{
#ifdef WAVEBENCH_ASAN_FIBERS
    tl_asan_to = to;
    // A finished fiber still returns through Boost.Context's frames after this, so its fake
    // frames are dropped only on arrival.
    __sanitizer_start_switch_fiber(fake ? fake : &tl_asan_spent, to.bottom, to.size);
#endif
}

/// On the new stack, right after the switch; `from`, if given, learns the stack that was left.
inline void asan_arrive([[maybe_unused]] void* fake, [[maybe_unused]] stack_bounds* from = nullptr)
{
#ifdef WAVEBENCH_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(fake, from ? &from->bottom : nullptr, from ? &from->size : nullptr);
    if (void* spent = std::exchange(tl_asan_spent, nullptr)) {
        // Drop them: current here for a moment, then a "switch" to this same stack that says
        // they are not needed again.
        const stack_bounds here = tl_asan_to;
        void* mine = nullptr;
        __sanitizer_start_switch_fiber(&mine, here.bottom, here.size);
        __sanitizer_finish_switch_fiber(spent, nullptr, nullptr);
        __sanitizer_start_switch_fiber(nullptr, here.bottom, here.size);
        __sanitizer_finish_switch_fiber(mine, nullptr, nullptr);
    }
#endif
}

/// Runs `jump`, which goes to the stack `there` and comes back (Boost.Context making a fiber runs
/// its first frame on the new stack; destroying one that never ran unwinds it on its own), as a
/// switch under way: ASan hands out no fake frames meanwhile, which would belong to this stack's
/// and outlive them. Returns this stack's bounds.
template <class F> stack_bounds asan_round_trip([[maybe_unused]] const stack_bounds& there, F&& jump)
{
    stack_bounds here;
    void* fake = nullptr;
    auto back = [&] {
        asan_arrive(fake, &here); // ASan takes this for `there` now, and says where it was
        asan_leave(&fake, here);
        asan_arrive(fake);
    };
    asan_leave(&fake, there);
    try {
        jump();
    } catch (...) {
        back();
        throw;
    }
    back();
    return here;
}

// ---- fiber stacks: guard-paged, allocated once per worker and reused ---------------------------------
/// A lane's fiber could not get a stack (no memory, or no memory mappings left).
struct out_of_stacks : std::runtime_error {
    out_of_stacks() : std::runtime_error("no memory for a fiber stack") {}
};

/// Stacks with a guard page below them (an overflow faults instead of overwriting a neighbour),
/// kept for reuse. Each costs two memory mappings; see max_workers().
class stack_cache {
public:
    explicit stack_cache(size_t bytes) : size_((bytes + page - 1) & ~(page - 1)) {}
    stack_cache(const stack_cache&) = delete;
    stack_cache& operator=(const stack_cache&) = delete;
    ~stack_cache()
    {
        for (void* base : mapped_) munmap(base, size_ + page);
    }
    ctx::stack_context allocate()
    {
        if (free_.empty()) {
            void* base = mmap(nullptr, size_ + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (base == MAP_FAILED) throw out_of_stacks();
            if (mprotect(base, page, PROT_NONE) != 0) {
                munmap(base, size_ + page);
                throw out_of_stacks();
            }
            mapped_.push_back(base);
            ctx::stack_context s;
            s.size = size_;
            s.sp = static_cast<char*>(base) + page + size_;
            free_.push_back(s);
        }
        ctx::stack_context s = free_.back();
        free_.pop_back();
        return s;
    }
    void deallocate(ctx::stack_context& s) noexcept
    {
        // A fiber's first frames never return (it ends by jumping away): under ASan their
        // poisoned redzones would stay, and trip the next fiber that runs on this stack.
        ASAN_UNPOISON_MEMORY_REGION(static_cast<char*>(s.sp) - s.size, s.size);
        free_.push_back(s);
    }

private:
    static constexpr size_t page = 4096;
    size_t size_;
    std::vector<void*> mapped_;
    std::vector<ctx::stack_context> free_;
};

struct cached_stack {
    stack_cache* cache;
    stack_bounds* bounds; // told where the stack is (the switches to this fiber announce it to ASan)
    ctx::stack_context allocate()
    {
        ctx::stack_context s = cache->allocate();
        *bounds = {static_cast<char*>(s.sp) - s.size, s.size};
        return s;
    }
    void deallocate(ctx::stack_context& s) noexcept { cache->deallocate(s); }
};

/// Workers by default: one per hardware thread, but no more than the memory-mapping limit allows
/// when every worker runs 1024-lane blocks in fibers (two mappings per stack).
unsigned max_workers()
{
    unsigned long maps = 65530;
    if (FILE* f = std::fopen("/proc/sys/vm/max_map_count", "r")) {
        if (std::fscanf(f, "%lu", &maps) != 1) maps = 65530;
        std::fclose(f);
    }
    const unsigned fit = unsigned(std::max(1ul, maps * 3 / 4 / (2 * 1024 + 16)));
    return std::min(std::max(1u, std::thread::hardware_concurrency()), fit);
}

std::atomic<unsigned long long> g_fibers_created{0};

// ---- lane order ---------------------------------------------------------------------------------------
struct lane_order_setting {
    hipCpuLaneOrder order = hipCpuLaneOrderForward;
    unsigned long long seed = 0;
};

/// WAVEBENCH_CPU_LANE_ORDER: forward, reverse, random or random:SEED (a bad value is an error on
/// stderr and the default, forward).
lane_order_setting lane_order_from_environment()
{
    lane_order_setting s;
    const char* v = std::getenv("WAVEBENCH_CPU_LANE_ORDER");
    if (!v || !*v) return s;
    const std::string text = v;
    char* end = nullptr;
    if (text == "forward") return s;
    if (text == "reverse") {
        s.order = hipCpuLaneOrderReverse;
        return s;
    }
    if (text == "random") {
        s.order = hipCpuLaneOrderRandom;
        return s;
    }
    if (text.rfind("random:", 0) == 0 && text.size() > 7 && std::isdigit(static_cast<unsigned char>(text[7]))) {
        s.seed = std::strtoull(text.c_str() + 7, &end, 10);
        if (end && *end == 0) {
            s.order = hipCpuLaneOrderRandom;
            return s;
        }
    }
    std::fprintf(stderr,
                 "wavebench cpu runtime: WAVEBENCH_CPU_LANE_ORDER='%s' is not forward, reverse, random or "
                 "random:SEED; lanes run forward\n",
                 v);
    return lane_order_setting{};
}

lane_order_setting& lane_order()
{
    static lane_order_setting s = lane_order_from_environment();
    return s;
}

/// splitmix64: the random lane order's generator (a fixed sequence for a seed, on any host).
uint64_t mix(uint64_t& state)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// ---- launches -------------------------------------------------------------------------------------------
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
    void (*body)(void*);
    void* closure;
    uint64_t n_blocks;
    bool cooperative = false;
    lane_order_setting order;
    std::atomic<uint64_t> next{0};
    std::atomic<int> error{hipSuccess}; // the first failure wins
    grid_barrier grid_sync;

    void fail(hipError_t e)
    {
        int expected = hipSuccess;
        error.compare_exchange_strong(expected, e);
        if (cooperative) grid_sync.abort();
    }
};

enum class lane_state : uint8_t { runnable, barrier, grid_barrier, collective, exited };

struct lane {
    ctx::fiber fiber;
    lane_state state = lane_state::runnable;
    bool started = false;
    stack_bounds stack;     // where its fiber runs
    void* fake = nullptr;   // ASan's fake frames of its fiber while it is switched away from
    // the pending collective
    int op = 0;
    int arg = 0;
    int width = 0;
    uint64_t value = 0;
    uint64_t result = 0;
    const char* file = nullptr;
    unsigned line = 0, column = 0;
};

class worker;
/// The worker running a block on this thread (null outside kernels). Initial-exec: no lookup call.
__thread worker* tl_worker __attribute__((tls_model("initial-exec"))) = nullptr;

class worker {
public:
    worker() : stacks_(env_size("WAVEBENCH_CPU_STACK_KB", 64) * 1024), shared_(max_shared_bytes + 64) {}

    void run_blocks(launch_job& job) noexcept
    {
        struct current {
            explicit current(worker* w) { tl_worker = w; }
            ~current() { tl_worker = nullptr; }
        } scope(this);
        for (uint64_t b; (b = job.next.fetch_add(1, std::memory_order_relaxed)) < job.n_blocks;) {
            try {
                run_block(job, b);
            } catch (const out_of_stacks&) {
                job.fail(hipErrorLaunchOutOfResources);
            } catch (...) {
                job.fail(hipErrorLaunchFailure);
            }
            if (job.cooperative) job.grid_sync.drop();
            job_ = nullptr;
        }
    }

    /// Called from a lane at a barrier or collective: hand the thread to the next lane that can
    /// run, and return once this lane can go on.
    void block_lane(lane_state why)
    {
        const unsigned me = current_;
        if (!fiber_mode_) { // lanes before `me` have exited, the ones after have not started
            // Every fiber the block needs is made now, the one place where a stack can be
            // missing; the lane that blocked is told by an exception (the block is abandoned).
            const unsigned at = pos_; // me's place in the running order
            try {
                for (unsigned k = at + 1; k < n_lanes_; ++k) start(order_[k]);
            } catch (...) {
                for (unsigned k = at + 1; k < n_lanes_; ++k)
                    if (lane& l = lanes_[order_[k]]; l.fiber) // made, never run: Boost.Context unwinds it
                        asan_round_trip(l.stack, [&] { l.fiber = ctx::fiber{}; });
                aborted_ = true;
                throw;
            }
            fiber_mode_ = true;
            lanes_[me].started = true; // its fiber is the block's first one, suspended below
            lanes_[me].stack = block_stack_;
            wave_ = at - at % warp_;
            pos_ = at + 1;
        }
        lanes_[me].state = why;
        const unsigned nx = next();
        if (nx != me) {
            lane& target = start(nx);
            asan_leave(&lanes_[me].fake, target.stack);
            std::move(target.fiber).resume_with([this, me](ctx::fiber&& f) {
                lanes_[me].fiber = std::move(f);
                return ctx::fiber{};
            });
            asan_arrive(lanes_[me].fake);
        }
        enter(me);
    }

    lane& current() { return lanes_[current_]; }
    bool cooperative() const { return job_ && job_->cooperative; }
    void* dynamic_shared() { return align64(shared_.data()); }

private:
    static constexpr unsigned none = ~0u;

    void run_block(launch_job& job, uint64_t b)
    {
        job_ = &job;
        const dim3 g = job.grid, d = job.block;
        hip_cpu_tls.block_idx = {unsigned(b % g.x), unsigned((b / g.x) % g.y), unsigned(b / (uint64_t(g.x) * g.y))};
        hip_cpu_tls.block_dim = {d.x, d.y, d.z};
        hip_cpu_tls.grid_dim = {g.x, g.y, g.z};
        hip_cpu_tls.dynamic_shared = align64(shared_.data());
        n_lanes_ = d.x * d.y * d.z;
        warp_ = unsigned(hip_cpu_warp_size);
        if (lanes_.size() < n_lanes_) lanes_.resize(n_lanes_);
        for (unsigned i = 0; i < n_lanes_; ++i) {
            lanes_[i].state = lane_state::runnable;
            lanes_[i].started = false;
        }
        fiber_mode_ = aborted_ = false;
        fibers_ = 1;
        // The running order: position k runs lane order_[k]. Positions [w, w + warp) are the lanes
        // of the wavefront starting at lane w, in the order the setting asks for.
        order_mode_ = job.order.order;
        rng_ = job.order.seed ^ (b * 0xd1b54a32d192ed03ull);
        if (order_.size() < n_lanes_) order_.resize(n_lanes_);
        for (unsigned i = 0; i < n_lanes_; ++i) order_[i] = i;
        for (unsigned w = 0; w < n_lanes_; w += warp_) arrange_wave(w);

        // One fiber runs the lanes in turn; it stays the only one unless a lane blocks. The
        // block is done when a lane's fiber returns sink_, the continuation of this call.
        ctx::fiber f;
        thread_stack_ = asan_round_trip({}, [&] {
            f = ctx::fiber{std::allocator_arg, cached_stack{&stacks_, &block_stack_}, [this](ctx::fiber&& sink) {
                               asan_arrive(nullptr);
                               sink_ = std::move(sink);
                               for (pos_ = 0; pos_ < n_lanes_; ++pos_) {
                                   run_lane(order_[pos_]);
                                   if (aborted_) break;
                                   if (fiber_mode_) return exit_lane(); // it blocked once, now done
                               }
                               asan_leave(nullptr, thread_stack_);
                               return std::move(sink_);
                           }};
        });
        asan_leave(&thread_fake_, block_stack_);
        std::move(f).resume();
        asan_arrive(thread_fake_);
        g_fibers_created.fetch_add(fibers_, std::memory_order_relaxed);
    }

    void run_lane(unsigned i)
    {
        enter(i);
        try {
            job_->body(job_->closure);
        } catch (const ctx::detail::forced_unwind&) {
            throw; // Boost.Context unwinding a fiber: not the kernel's exception
        } catch (const out_of_stacks&) {
            job_->fail(hipErrorLaunchOutOfResources);
        } catch (...) {
            job_->fail(hipErrorLaunchFailure);
        }
        lanes_[i].state = lane_state::exited;
    }

    /// The continuation a finished lane's fiber returns: the next lane, or the end of the block.
    ctx::fiber exit_lane()
    {
        const unsigned nx = next();
        if (nx == none) {
            asan_leave(nullptr, thread_stack_);
            return std::move(sink_);
        }
        lane& target = start(nx);
        asan_leave(nullptr, target.stack);
        return std::move(target.fiber);
    }

    void enter(unsigned i)
    {
        current_ = i;
        const uint3 d = hip_cpu_tls.block_dim;
        hip_cpu_tls.thread_idx = d.x == n_lanes_ ? uint3{i, 0, 0} : uint3{i % d.x, (i / d.x) % d.y, i / (d.x * d.y)};
    }

    /// Lane i, with a fiber that is ready to be resumed.
    lane& start(unsigned i)
    {
        lane& l = lanes_[i];
        if (!l.started) {
            l.started = true;
            ++fibers_;
            asan_round_trip({}, [&] {
                l.fiber = ctx::fiber{std::allocator_arg, cached_stack{&stacks_, &l.stack}, [this, i](ctx::fiber&&) {
                                         asan_arrive(nullptr);
                                         run_lane(i);
                                         return exit_lane();
                                     }};
            });
        }
        return l;
    }

    /// The next lane to run: the runnable lanes of the current wavefront in order; when it is
    /// all blocked, its collectives complete and it goes on; when every wavefront waits, the
    /// barrier opens. `none` once every lane has exited.
    unsigned next()
    {
        for (;;) {
            const unsigned end = std::min(wave_ + warp_, n_lanes_);
            while (pos_ < end) {
                const unsigned i = order_[pos_++];
                if (lanes_[i].state == lane_state::runnable) return i;
            }
            if (resolve_collectives(wave_, end)) {
                pos_ = wave_;
                if (order_mode_ == hipCpuLaneOrderRandom) arrange_wave(wave_);
                continue;
            }
            wave_ += warp_;
            if (wave_ < n_lanes_) {
                pos_ = wave_;
                continue;
            }
            bool waiting = false, grid = false;
            for (unsigned i = 0; i < n_lanes_; ++i)
                if (lanes_[i].state == lane_state::barrier || lanes_[i].state == lane_state::grid_barrier) {
                    grid |= lanes_[i].state == lane_state::grid_barrier;
                    lanes_[i].state = lane_state::runnable;
                    waiting = true;
                }
            if (!waiting) return none;
            // Every lane of the block is at the grid's barrier: wait there for the other blocks
            // (each on its own worker: a cooperative launch has no more blocks than workers).
            if (grid) job_->grid_sync.arrive_and_wait();
            wave_ = pos_ = 0;
            if (order_mode_ == hipCpuLaneOrderRandom)
                for (unsigned w = 0; w < n_lanes_; w += warp_) arrange_wave(w);
        }
    }

    /// Puts the positions of the wavefront starting at lane w in the running order.
    void arrange_wave(unsigned w)
    {
        const unsigned end = std::min(w + warp_, n_lanes_);
        switch (order_mode_) {
        case hipCpuLaneOrderForward: break;
        case hipCpuLaneOrderReverse:
            for (unsigned k = w; k < end; ++k) order_[k] = w + end - 1 - k;
            break;
        case hipCpuLaneOrderRandom: // Fisher-Yates
            for (unsigned k = end - 1; k > w; --k) std::swap(order_[k], order_[w + unsigned(mix(rng_) % (k - w + 1))]);
            break;
        }
    }

    /// Completes the collectives pending in wavefront [w0, w1); false if there were none.
    bool resolve_collectives(unsigned w0, unsigned w1)
    {
        bool any = false;
        for (unsigned i = w0; i < w1; ++i) {
            const lane& lead = lanes_[i];
            if (lead.state != lane_state::collective) continue;
            // The group: lanes of this wavefront waiting at the same call site.
            uint64_t mask = 0;
            for (unsigned j = i; j < w1; ++j) {
                const lane& o = lanes_[j];
                if (o.state == lane_state::collective && o.line == lead.line && o.column == lead.column &&
                    o.file == lead.file)
                    mask |= uint64_t(1) << (j - w0);
            }
            uint64_t ballot = 0;
            for (unsigned j = i; j < w1; ++j)
                if ((mask >> (j - w0) & 1) && lanes_[j].value) ballot |= uint64_t(1) << (j - w0);
            for (unsigned j = i; j < w1; ++j) {
                if (!(mask >> (j - w0) & 1)) continue;
                lane& l = lanes_[j];
                if (l.op == hip_cpu_ballot) {
                    l.result = ballot;
                } else {
                    const int src = source_lane(l.op, int(j - w0), l.arg, l.width);
                    const bool active = src >= 0 && unsigned(src) < warp_ && (mask >> src & 1);
                    l.result = active ? lanes_[w0 + unsigned(src)].value : l.value;
                }
            }
            for (unsigned j = i; j < w1; ++j)
                if (mask >> (j - w0) & 1) lanes_[j].state = lane_state::runnable;
            any = true;
        }
        return any;
    }

    /// The lane a shuffle reads, within the caller's segment of `width` lanes (CUDA's rules).
    int source_lane(int op, int self, int arg, int width) const
    {
        if (width <= 0 || width > int(warp_) || (width & (width - 1))) width = int(warp_);
        const int base = self & ~(width - 1), pos = self - base;
        switch (op) {
        case hip_cpu_shfl: return base + (arg & (width - 1));
        case hip_cpu_shfl_up: return pos >= arg ? self - arg : self;
        case hip_cpu_shfl_down: return pos + arg < width ? self + arg : self;
        case hip_cpu_shfl_xor: {
            const int src = self ^ arg;
            return (src & ~(width - 1)) == base ? src : self;
        }
        default: return self;
        }
    }

    static void* align64(std::byte* p)
    {
        return reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(p) + 63) & ~uintptr_t(63));
    }

    stack_cache stacks_;
    std::vector<std::byte> shared_;
    std::vector<lane> lanes_;
    std::vector<unsigned> order_; // the running order: position -> lane
    hipCpuLaneOrder order_mode_ = hipCpuLaneOrderForward;
    uint64_t rng_ = 0;
    ctx::fiber sink_;
    stack_bounds block_stack_, thread_stack_; // the block's first fiber's stack, the worker thread's
    void* thread_fake_ = nullptr;             // ASan's fake frames of the thread while in the block
    launch_job* job_ = nullptr;
    unsigned n_lanes_ = 0, warp_ = 64, current_ = 0;
    unsigned wave_ = 0, pos_ = 0; // the scheduler's place: wavefront start, next lane to look at
    unsigned fibers_ = 0;         // created for the current block
    bool aborted_ = false;        // no stack for the block's fibers: the block is abandoned
    bool fiber_mode_ = false;
};

worker& this_worker()
{
    thread_local worker w;
    return w;
}

// ---- the pool ---------------------------------------------------------------------------------------
class pool {
public:
    explicit pool(unsigned total) { resize(total); }
    pool(const pool&) = delete;
    pool& operator=(const pool&) = delete;
    ~pool() { resize(1); }

    unsigned size() const { return unsigned(threads_.size()) + 1; }

    void resize(unsigned total)
    {
        {
            std::lock_guard lock(m_);
            stop_ = true;
        }
        cv_.notify_all();
        for (auto& t : threads_) t.join();
        threads_.clear();
        stop_ = false;
        for (unsigned i = 1; i < total; ++i) threads_.emplace_back([this, seen = generation_] { loop(seen); });
    }

    void run(launch_job& job)
    {
        const bool parallel = job.n_blocks > 1 && !threads_.empty();
        if (parallel) {
            std::lock_guard lock(m_);
            job_ = &job;
            busy_ = unsigned(threads_.size());
            ++generation_;
        }
        if (parallel) cv_.notify_all();
        this_worker().run_blocks(job);
        if (parallel) {
            std::unique_lock lock(m_);
            done_.wait(lock, [this] { return busy_ == 0; });
            job_ = nullptr;
        }
    }

private:
    void loop(uint64_t seen)
    {
        for (;;) {
            launch_job* job;
            {
                std::unique_lock lock(m_);
                cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
                if (stop_) return;
                seen = generation_;
                job = job_;
            }
            this_worker().run_blocks(*job);
            std::lock_guard lock(m_);
            if (--busy_ == 0) done_.notify_one();
        }
    }

    std::vector<std::thread> threads_;
    std::mutex m_;
    std::condition_variable cv_, done_;
    launch_job* job_ = nullptr;
    uint64_t generation_ = 0;
    unsigned busy_ = 0;
    bool stop_ = false;
};

std::mutex& launch_mutex()
{
    static std::mutex m;
    return m;
}

pool& the_pool()
{
    static pool p(unsigned(env_size("WAVEBENCH_CPU_THREADS", max_workers())));
    return p;
}

// ---- allocations --------------------------------------------------------------------------------------
struct allocations {
    std::mutex m;
    std::unordered_map<void*, size_t> live;
};
allocations& the_allocations()
{
    static allocations a;
    return a;
}

// ---- device description -------------------------------------------------------------------------------
std::string read_first_line(const std::string& path)
{
    std::ifstream f(path);
    std::string s;
    std::getline(f, s);
    return s;
}

std::string cpuinfo_field(const std::string& key)
{
    std::ifstream f("/proc/cpuinfo");
    for (std::string line; std::getline(f, line);)
        if (line.rfind(key, 0) == 0) {
            auto colon = line.find(':');
            if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
        }
    return {};
}

size_t last_level_cache_bytes()
{
    size_t best = 0;
    for (int i = 0; i < 8; ++i) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
        const std::string size = read_first_line(dir + "size");
        if (size.empty()) continue;
        size_t v = std::strtoull(size.c_str(), nullptr, 10);
        if (size.back() == 'K') v <<= 10;
        if (size.back() == 'M') v <<= 20;
        best = std::max(best, v);
    }
    return best;
}

struct event_impl {
    std::chrono::steady_clock::time_point t;
    bool recorded = false;
};

} // namespace

struct hip_cpu_event : event_impl {};
struct hip_cpu_stream {};

// ---- host API -------------------------------------------------------------------------------------------
extern "C" {

hipError_t hipMalloc(void** ptr, size_t bytes)
{
    if (!ptr) return fail(hipErrorInvalidValue);
    *ptr = nullptr;
    if (bytes == 0) return hipSuccess;
    void* p = std::aligned_alloc(256, (bytes + 255) & ~size_t(255));
    if (!p) return fail(hipErrorOutOfMemory);
    auto& a = the_allocations();
    std::lock_guard lock(a.m);
    a.live.emplace(p, bytes);
    *ptr = p;
    return hipSuccess;
}

hipError_t hipFree(void* ptr)
{
    if (!ptr) return hipSuccess;
    auto& a = the_allocations();
    {
        std::lock_guard lock(a.m);
        if (a.live.erase(ptr) == 0) return fail(hipErrorInvalidValue);
    }
    std::free(ptr);
    return hipSuccess;
}

hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind)
{
    if (bytes == 0) return hipSuccess;
    if (!dst || !src) return fail(hipErrorInvalidValue);
    if (int(kind) < 0 || int(kind) > int(hipMemcpyDefault)) return fail(hipErrorInvalidMemcpyDirection);
    std::memmove(dst, src, bytes);
    return hipSuccess;
}

hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t)
{
    return hipMemcpy(dst, src, bytes, kind);
}

hipError_t hipMemset(void* ptr, int value, size_t bytes)
{
    if (bytes == 0) return hipSuccess;
    if (!ptr) return fail(hipErrorInvalidValue);
    std::memset(ptr, value, bytes);
    return hipSuccess;
}

hipError_t hipMemsetAsync(void* ptr, int value, size_t bytes, hipStream_t) { return hipMemset(ptr, value, bytes); }

hipError_t hipHostMalloc(void** ptr, size_t bytes, unsigned flags)
{
    const unsigned known = hipHostMallocPortable | hipHostMallocMapped | hipHostMallocWriteCombined;
    if (flags & ~known) return fail(hipErrorInvalidValue);
    return hipMalloc(ptr, bytes);
}

hipError_t hipHostFree(void* ptr) { return hipFree(ptr); }

hipError_t hipHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned flags)
{
    if (!device_ptr || !host_ptr || flags != 0) return fail(hipErrorInvalidValue);
    *device_ptr = host_ptr;
    return hipSuccess;
}

hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total_bytes)
{
    if (!free_bytes || !total_bytes) return fail(hipErrorInvalidValue);
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    *total_bytes = size_t(sysconf(_SC_PHYS_PAGES)) * page;
    *free_bytes = size_t(sysconf(_SC_AVPHYS_PAGES)) * page;
    return hipSuccess;
}

hipError_t hipDeviceCanAccessPeer(int* can_access, int device, int peer_device)
{
    if (!can_access) return fail(hipErrorInvalidValue);
    if (device != 0 || peer_device != 0) return fail(hipErrorInvalidDevice);
    *can_access = 0;
    return hipSuccess;
}

hipError_t hipStreamCreate(hipStream_t* stream)
{
    if (!stream) return fail(hipErrorInvalidValue);
    *stream = new hip_cpu_stream;
    return hipSuccess;
}

hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned flags)
{
    // Streams are synchronous here: a non-blocking one is the same stream.
    if (flags & ~unsigned(hipStreamNonBlocking)) return fail(hipErrorInvalidValue);
    return hipStreamCreate(stream);
}

hipError_t hipStreamDestroy(hipStream_t stream)
{
    delete stream;
    return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t) { return hipSuccess; }

hipError_t hipEventCreate(hipEvent_t* event)
{
    if (!event) return fail(hipErrorInvalidValue);
    *event = new hip_cpu_event;
    return hipSuccess;
}

hipError_t hipEventDestroy(hipEvent_t event)
{
    if (!event) return fail(hipErrorInvalidHandle);
    delete event;
    return hipSuccess;
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t)
{
    if (!event) return fail(hipErrorInvalidHandle);
    event->t = std::chrono::steady_clock::now();
    event->recorded = true;
    return hipSuccess;
}

hipError_t hipEventSynchronize(hipEvent_t event) { return event ? hipSuccess : fail(hipErrorInvalidHandle); }

hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop)
{
    if (!ms) return fail(hipErrorInvalidValue);
    if (!start || !stop || !start->recorded || !stop->recorded) return fail(hipErrorInvalidHandle);
    *ms = std::chrono::duration<float, std::milli>(stop->t - start->t).count();
    return hipSuccess;
}

hipError_t hipDeviceSynchronize(void) { return hipSuccess; }

hipError_t hipGetDeviceCount(int* count)
{
    if (!count) return fail(hipErrorInvalidValue);
    *count = 1;
    return hipSuccess;
}

hipError_t hipGetDevice(int* device)
{
    if (!device) return fail(hipErrorInvalidValue);
    *device = 0;
    return hipSuccess;
}

hipError_t hipSetDevice(int device) { return device == 0 ? hipSuccess : fail(hipErrorInvalidDevice); }

hipError_t hipGetDeviceProperties(hipDeviceProp_t* p, int device)
{
    if (!p) return fail(hipErrorInvalidValue);
    if (device != 0) return fail(hipErrorInvalidDevice);
    *p = hipDeviceProp_t{};
    std::string name = cpuinfo_field("model name");
    if (name.empty()) name = "CPU";
    std::snprintf(p->name, sizeof p->name, "%s", name.c_str());
    std::snprintf(p->gcnArchName, sizeof p->gcnArchName, "cpu");
    p->totalGlobalMem = size_t(sysconf(_SC_PHYS_PAGES)) * size_t(sysconf(_SC_PAGESIZE));
    p->sharedMemPerBlock = max_shared_bytes;
    p->maxSharedMemoryPerMultiProcessor = max_shared_bytes;
    p->warpSize = hip_cpu_warp_size;
    p->maxThreadsPerBlock = max_block_threads;
    p->maxThreadsPerMultiProcessor = max_block_threads;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = max_block_threads;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 0x7fffffff;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    const std::string khz = read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
    p->clockRate = !khz.empty() ? std::atoi(khz.c_str()) : int(std::atof(cpuinfo_field("cpu MHz").c_str()) * 1000);
    p->multiProcessorCount = int(the_pool().size());
    p->maxBlocksPerMultiProcessor = 1; // a worker runs one block at a time
    p->cooperativeLaunch = 1;
    p->l2CacheSize = int(last_level_cache_bytes());
    return hipSuccess;
}

hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attribute, int device)
{
    if (!value) return fail(hipErrorInvalidValue);
    hipDeviceProp_t p;
    if (const hipError_t e = hipGetDeviceProperties(&p, device); e != hipSuccess) return e;
    switch (attribute) {
    case hipDeviceAttributeMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case hipDeviceAttributeWarpSize: *value = p.warpSize; break;
    case hipDeviceAttributeMultiprocessorCount: *value = p.multiProcessorCount; break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock: *value = int(p.sharedMemPerBlock); break;
    case hipDeviceAttributeCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case hipDeviceAttributeComputeCapabilityMajor: *value = p.major; break;
    case hipDeviceAttributeComputeCapabilityMinor: *value = p.minor; break;
    case hipDeviceAttributeClockRate: *value = p.clockRate; break;
    case hipDeviceAttributeL2CacheSize: *value = p.l2CacheSize; break;
    case hipDeviceAttributeMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case hipDeviceAttributeMaxGridDimX: *value = p.maxGridSize[0]; break;
    default: return fail(hipErrorInvalidValue);
    }
    return hipSuccess;
}

hipError_t hipGetLastError(void)
{
    hipError_t e = tl_last_error;
    tl_last_error = hipSuccess;
    return e;
}

hipError_t hipPeekAtLastError(void) { return tl_last_error; }

const char* hipGetErrorName(hipError_t e)
{
    const char* name = hip_subset_error_name(e);
    return name ? name : "hipErrorUnknown";
}

const char* hipGetErrorString(hipError_t e)
{
    switch (e) {
    case hipSuccess: return "no error";
    case hipErrorInvalidValue: return "invalid argument";
    case hipErrorOutOfMemory: return "out of memory";
    case hipErrorNotInitialized: return "initialization error";
    case hipErrorInvalidConfiguration: return "invalid configuration argument";
    case hipErrorInvalidDevicePointer: return "invalid device pointer";
    case hipErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case hipErrorInvalidDeviceFunction: return "invalid device function";
    case hipErrorNoDevice: return "no device";
    case hipErrorInvalidDevice: return "invalid device ordinal";
    case hipErrorInvalidHandle: return "invalid resource handle";
    case hipErrorNotReady: return "device not ready";
    case hipErrorLaunchOutOfResources: return "too many resources requested for launch";
    case hipErrorLaunchFailure: return "unspecified launch failure (a lane threw an exception)";
    case hipErrorNotSupported: return "operation not supported";
    case hipErrorInvalidSymbol: return "invalid device symbol";
    case hipErrorCooperativeLaunchTooLarge:
        return "too many blocks in cooperative launch (at most one per worker: multiProcessorCount)";
    default: return "unknown error";
    }
}

hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, const void* func)
{
    if (!attr) return fail(hipErrorInvalidValue);
    if (!func) return fail(hipErrorInvalidDeviceFunction);
    *attr = hipFuncAttributes{};
    attr->maxThreadsPerBlock = max_block_threads;
    attr->maxDynamicSharedSizeBytes = int(max_shared_bytes);
    return hipSuccess;
}

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func, int block_size,
                                                        size_t dynamic_shared_bytes)
{
    if (!blocks) return fail(hipErrorInvalidValue);
    if (!func) return fail(hipErrorInvalidDeviceFunction);
    // A worker runs one block at a time.
    *blocks = (block_size > 0 && unsigned(block_size) <= max_block_threads && dynamic_shared_bytes <= max_shared_bytes)
                  ? 1
                  : 0;
    return hipSuccess;
}

hipError_t hipCpuSetWarpSize(int warp_size)
{
    if (warp_size != 32 && warp_size != 64) return fail(hipErrorInvalidValue);
    if (tl_worker) return fail(hipErrorNotSupported);
    std::lock_guard lock(launch_mutex());
    hip_cpu_warp_size = warp_size;
    return hipSuccess;
}

hipError_t hipCpuSetThreads(int threads)
{
    if (threads < 0) return fail(hipErrorInvalidValue);
    if (tl_worker) return fail(hipErrorNotSupported);
    std::lock_guard lock(launch_mutex());
    the_pool().resize(threads > 0 ? unsigned(threads) : max_workers());
    return hipSuccess;
}

hipError_t hipCpuSetLaneOrder(hipCpuLaneOrder order, unsigned long long seed)
{
    if (order != hipCpuLaneOrderForward && order != hipCpuLaneOrderReverse && order != hipCpuLaneOrderRandom)
        return fail(hipErrorInvalidValue);
    if (tl_worker) return fail(hipErrorNotSupported);
    std::lock_guard lock(launch_mutex());
    lane_order() = {order, seed};
    return hipSuccess;
}

hipError_t hipCpuGetLaneOrder(hipCpuLaneOrder* order, unsigned long long* seed)
{
    if (!order || !seed) return fail(hipErrorInvalidValue);
    std::lock_guard lock(launch_mutex());
    *order = lane_order().order;
    *seed = lane_order().seed;
    return hipSuccess;
}

hipError_t hipCpuFibersCreated(unsigned long long* count)
{
    if (!count) return fail(hipErrorInvalidValue);
    *count = g_fibers_created.load(std::memory_order_relaxed);
    return hipSuccess;
}

hipError_t hip_cpu_launch(dim3 grid, dim3 block, size_t shared_bytes, hipStream_t, unsigned flags,
                          void (*body)(void*), void* closure)
{
    const uint64_t threads = uint64_t(block.x) * block.y * block.z;
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || threads == 0 || threads > max_block_threads ||
        block.x > max_block_threads || block.y > max_block_threads || block.z > 64 || grid.x > 0x7fffffffu ||
        grid.y > 65535 || grid.z > 65535)
        return fail(hipErrorInvalidConfiguration);
    if (shared_bytes > max_shared_bytes) return fail(hipErrorInvalidValue);
    if (tl_worker) return fail(hipErrorNotSupported); // no launches from kernels

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
        the_pool().run(job);
    }
    return fail(hipError_t(job.error.load()));
}

void hip_cpu_syncthreads(void)
{
    if (worker* w = tl_worker) w->block_lane(lane_state::barrier);
}

/// A grid is not a cooperative one: its blocks need not run at once, and cannot wait for each other.
struct not_cooperative : std::logic_error {
    not_cooperative() : std::logic_error("this_grid().sync() outside a cooperative launch") {}
};

void hip_cpu_grid_sync(void)
{
    worker* w = tl_worker;
    if (!w) return;
    if (!w->cooperative()) throw not_cooperative(); // the lane fails: hipErrorLaunchFailure
    w->block_lane(lane_state::grid_barrier);
}

int hip_cpu_launch_is_cooperative(void) { return tl_worker && tl_worker->cooperative(); }

hipError_t hip_cpu_fail(hipError_t e) { return fail(e); }

void* hip_cpu_dynamic_shared_base(void) { return this_worker().dynamic_shared(); }

uint64_t hip_cpu_collective(int op, uint64_t value, int arg, int width, const char* file, unsigned line,
                            unsigned column)
{
    worker* w = tl_worker;
    if (!w) return op == hip_cpu_ballot ? (value != 0) : value;
    lane& l = w->current();
    l.op = op;
    l.value = value;
    l.arg = arg;
    l.width = width;
    l.file = file;
    l.line = line;
    l.column = column;
    w->block_lane(lane_state::collective);
    return w->current().result;
}

} // extern "C"
