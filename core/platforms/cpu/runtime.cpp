// wavebench CPU runtime: implementation of hip/hip_runtime.h for the CPU.
//
// A launch hands its blocks to a pool of worker threads (the launching thread works too). A
// worker runs a block's lanes one after another inside a single fiber; if a lane reaches a
// barrier or a warp collective, the block switches to one fiber per lane and a small scheduler
// takes over: it runs each wavefront until all its lanes are blocked, resolves the wavefront's
// collectives, and releases a barrier once every lane that has not exited is waiting at it.
#include <hip/hip_runtime.h>

#if !defined(__x86_64__) || defined(WAVEBENCH_CPU_BOOST_SWITCH)
#include <boost/context/detail/fcontext.hpp>
#endif

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
#include <sstream>
#include <string>
#include <thread>
#include <unordered_map>
#include <pthread.h>
#include <sched.h>
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

// ---- fiber stacks: guard-paged, allocated once per worker and reused ---------------------------------
/// A lane's fiber could not get a stack (no memory, or no memory mappings left).
struct out_of_stacks : std::runtime_error {
    out_of_stacks() : std::runtime_error("no memory for a fiber stack") {}
};

/// A fiber's stack: it grows down from `top` (64-byte aligned) over `size` bytes.
struct fiber_stack {
    char* top;
    size_t size;
};

/// Fiber stacks, side by side in 2 MiB-aligned chunks that the kernel may back with huge pages
/// (madvise): a block's lanes switch from stack to stack hundreds of times per barrier, and with
/// a 4 KiB page per stack their tops alone overflow the TLB (measured: a quarter of a barrier's
/// cost at block 256). No guard pages, which would split the huge pages: the lowest 64 bytes of
/// each stack hold a canary, checked when the block ends (intact()). A block takes stacks in order
/// from the first (take()) and gives them all back when it ends (reset()): a lane gets the same
/// stack block after block, which stays in the caches. The top of each stack is offset by a
/// different number of cache lines within an extra page ("colouring"): with aligned tops, the hot
/// frames of every lane would fall in the same few cache sets.
class stack_cache {
public:
    explicit stack_cache(size_t bytes) : size_((bytes + page - 1) & ~(page - 1)) {}
    stack_cache(const stack_cache&) = delete;
    stack_cache& operator=(const stack_cache&) = delete;
    ~stack_cache()
    {
        for (const auto& [base, bytes] : chunks_) munmap(base, bytes);
    }
    fiber_stack take()
    {
        if (used_ == stacks_.size()) grow();
        return stacks_[used_++];
    }
    /// Every stack is free again.
    void reset() noexcept
    {
#ifdef WAVEBENCH_ASAN_FIBERS
        // A fiber's first frames never return (it ends by jumping away): their poisoned
        // redzones would stay, and trip the next fiber that runs on this stack.
        for (size_t k = 0; k < used_; ++k) ASAN_UNPOISON_MEMORY_REGION(stacks_[k].top - stacks_[k].size, stacks_[k].size);
#endif
        used_ = 0;
    }
    /// False when a stack used since the last reset() has been written below its end.
    bool intact() const noexcept
    {
        for (size_t k = 0; k < used_; ++k)
            if (*reinterpret_cast<const uint64_t*>(stacks_[k].top - stacks_[k].size - canary_bytes) != canary) return false;
        return true;
    }
    size_t stack_bytes() const { return size_; }

private:
    static constexpr size_t page = 4096, huge = size_t(2) << 20, canary_bytes = 64;
    static constexpr uint64_t canary = 0x57415645424e4348ull; // "WAVEBNCH"

    void grow()
    {
        const size_t stride = size_ + page; // the stack and its colouring page
        const size_t bytes = (std::max(stride, huge) + huge - 1) & ~(huge - 1);
        // Over-allocate by a chunk, keep the 2 MiB-aligned part, give back the rest.
        void* raw = mmap(nullptr, bytes + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) throw out_of_stacks();
        char* const r = static_cast<char*>(raw);
        char* const b = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(r) + huge - 1) & ~uintptr_t(huge - 1));
        if (b > r) munmap(r, size_t(b - r));
        if (b + bytes < r + bytes + huge) munmap(b + bytes, size_t(r + bytes + huge - (b + bytes)));
        madvise(b, bytes, MADV_HUGEPAGE); // a request: where it is refused, 4 KiB pages serve
        chunks_.emplace_back(b, bytes);
        for (size_t j = 0; j < bytes / stride; ++j) {
            char* const base = b + j * stride;
            const size_t colour = (stacks_.size() * 7 % (page / 64)) * 64;
            *reinterpret_cast<uint64_t*>(base) = canary;
            stacks_.push_back({base + stride - colour, stride - colour - canary_bytes});
        }
    }

    size_t size_;
    size_t used_ = 0;
    std::vector<fiber_stack> stacks_;
    std::vector<std::pair<char*, size_t>> chunks_;
};

// ---- context switches -------------------------------------------------------------------------------
// A fiber is a stack pointer: switch_context saves the callee-saved registers on the running stack,
// stores its pointer in *save, and resumes the fiber `to`. On x86-64 it is a few instructions of
// our own (Boost.Context's also saves and reloads the x87 and SSE control words, which costs more
// than the rest of the switch; kernels never change them); elsewhere Boost.Context's fcontext.
// A new fiber starts in fn(), which never returns (it ends by switching away for good).
using fiber_entry = void (*)();

// A fiber that has not started yet is its stack's top, tagged with 1 (a suspended fiber's stack
// pointer is 8-byte aligned): switching to it calls its entry function on that stack.
//   switch_context(save, to)   save the running fiber in *save, go on with `to`
//   leave_context(to)          go on with `to`; the running fiber has finished (nothing is saved)
// On x86-64, a new fiber is entered with a call and a finished one leaves with an indirect jump
// rather than with returns that match no call: the return-address predictor then stays right.
#if defined(__x86_64__) && !defined(WAVEBENCH_CPU_BOOST_SWITCH)
extern "C" void wavebench_cpu_switch(void** save, void* to) __attribute__((visibility("hidden")));
extern "C" void wavebench_cpu_switch_new(void** save, void* top, fiber_entry fn) __attribute__((visibility("hidden")));
extern "C" [[noreturn]] void wavebench_cpu_leave(void* to) __attribute__((visibility("hidden")));
extern "C" [[noreturn]] void wavebench_cpu_leave_new(void* top, fiber_entry fn) __attribute__((visibility("hidden")));
asm(R"(
    .macro wavebench_save_registers     # the callee-saved registers, onto the running stack
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    .endm
    .macro wavebench_restore_registers  # the same, off the stack switched to
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    .endm
    .text
    .p2align 4
    .type wavebench_cpu_switch, @function
wavebench_cpu_switch:
    wavebench_save_registers
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    wavebench_restore_registers
    ret
    .size wavebench_cpu_switch, .-wavebench_cpu_switch

    .p2align 4
    .type wavebench_cpu_leave, @function
wavebench_cpu_leave:
    movq %rdi, %rsp
    wavebench_restore_registers
    popq %rax
    jmpq *%rax
    .size wavebench_cpu_leave, .-wavebench_cpu_leave

    .p2align 4
    .type wavebench_cpu_switch_new, @function
wavebench_cpu_switch_new:
    .cfi_startproc
    .cfi_undefined rip
    wavebench_save_registers
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    callq *%rdx
    ud2
    .cfi_endproc
    .size wavebench_cpu_switch_new, .-wavebench_cpu_switch_new

    .p2align 4
    .type wavebench_cpu_leave_new, @function
wavebench_cpu_leave_new:
    .cfi_startproc
    .cfi_undefined rip
    movq %rdi, %rsp
    callq *%rsi
    ud2
    .cfi_endproc
    .size wavebench_cpu_leave_new, .-wavebench_cpu_leave_new
)");

template <fiber_entry F> void* make_context(const fiber_stack& s)
{
    return s.top + 1; // 64-byte aligned, as the call in wavebench_cpu_switch_new needs (16)
}

template <fiber_entry F> inline void switch_context(void** save, void* to)
{
    const uintptr_t t = reinterpret_cast<uintptr_t>(to);
    if (t & 1) [[unlikely]]
        wavebench_cpu_switch_new(save, reinterpret_cast<void*>(t - 1), F);
    else
        wavebench_cpu_switch(save, to);
}

template <fiber_entry F> [[noreturn]] __attribute__((always_inline)) inline void leave_context(void* to)
{
    // A jump, not a call: the fiber that goes on next finds the return-address predictor as the
    // finished fiber left it, with no return address of this switch on top.
    const uintptr_t t = reinterpret_cast<uintptr_t>(to);
    if (t & 1) {
        const fiber_entry f = F;
        asm volatile("jmp wavebench_cpu_leave_new" : : "D"(t - 1), "S"(f) : "memory");
    } else {
        asm volatile("jmp wavebench_cpu_leave" : : "D"(to) : "memory");
    }
    __builtin_unreachable();
}
#else
namespace fc = boost::context::detail;

template <fiber_entry F> void fcontext_start(fc::transfer_t t)
{
    *static_cast<void**>(t.data) = t.fctx;
    F();
}

template <fiber_entry F> void* make_context(const fiber_stack& s)
{
    return fc::make_fcontext(s.top, s.size, &fcontext_start<F>);
}

template <fiber_entry> inline void switch_context(void** save, void* to)
{
    const fc::transfer_t t = fc::jump_fcontext(to, save);
    *static_cast<void**>(t.data) = t.fctx;
}

template <fiber_entry> [[noreturn]] inline void leave_context(void* to)
{
    void* dead;
    fc::jump_fcontext(to, &dead);
    __builtin_unreachable();
}
#define WAVEBENCH_FCONTEXT 1
#endif

/// The CPUs this thread may run on (taskset, a Slurm allocation, hipSetDevice), in order.
std::vector<int> allowed_cpus()
{
    std::vector<int> cpus;
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
        for (int c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
    return cpus;
}

/// Workers by default: one per CPU this thread may run on.
unsigned max_workers()
{
    const size_t n = allowed_cpus().size();
    return n ? unsigned(n) : std::max(1u, std::thread::hardware_concurrency());
}

/// The CPU's devices: WAVEBENCH_CPU_DEVICES splits the CPUs the process may use into that many
/// devices of consecutive CPUs (at most one per CPU), for runs on several devices (--devices) on
/// one host; 1 by default.
/// The CPUs are those the process could use at start. A process started by a thread that
/// hipSetDevice narrowed (the harness's workers) inherits the narrowed affinity, so the list is
/// handed down in WAVEBENCH_CPU_DEVICE_CPUS, which the first process of a run sets.
std::vector<int> device_cpus(size_t devices)
{
    if (devices < 2) return allowed_cpus();
    std::vector<int> cpus;
    if (const char* v = std::getenv("WAVEBENCH_CPU_DEVICE_CPUS"); v && *v) {
        std::istringstream in(v);
        std::string item;
        while (std::getline(in, item, ',')) {
            char* end = nullptr;
            const long c = std::strtol(item.c_str(), &end, 10);
            if (item.empty() || *end || c < 0 || c >= CPU_SETSIZE) return allowed_cpus(); // not ours: ignore it
            cpus.push_back(int(c));
        }
        return cpus;
    }
    cpus = allowed_cpus();
    std::string list;
    for (int c : cpus) list += (list.empty() ? "" : ",") + std::to_string(c);
    setenv("WAVEBENCH_CPU_DEVICE_CPUS", list.c_str(), 0);
    return cpus;
}

struct cpu_devices {
    size_t asked = env_size("WAVEBENCH_CPU_DEVICES", 1);
    std::vector<int> cpus = device_cpus(asked);
    int count = int(std::clamp<size_t>(asked, 1, std::max<size_t>(cpus.size(), 1)));
    int current = -1; // none set yet: the process's own CPUs (hipSetDevice(0) narrows to device 0's)
};
cpu_devices& devices()
{
    static cpu_devices d;
    return d;
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
    unsigned (*body)(void*, unsigned);
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

/// A lane's pending collective.
struct lane {
    int op = 0;
    int arg = 0;
    int width = 0;
    uint64_t value = 0;
    uint64_t result = 0;
    const char* file = nullptr;
    uint64_t line_column = 0; // the call site: line << 32 | column
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
    }

    /// Called from a lane at a barrier or collective: hand the thread to the next lane that can
    /// run, and return once this lane can go on.
    void block_lane(lane_state why)
    {
        if (!fiber_mode_) [[unlikely]]
            to_fibers();
        const unsigned me = current_;
        state_[me] = why;
        if (why == lane_state::collective)
            ++in_collective_;
        else
            ++at_barrier_, at_grid_ += why == lane_state::grid_barrier;
        const unsigned nx = next();
        if (nx != me) {
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
        if (!fiber_mode_) current_ = lane_index(hip_cpu_tls.thread_idx);
        return lanes_[current_];
    }
    bool cooperative() const { return job_ && job_->cooperative; }
    void* dynamic_shared() { return align64(shared_.data()); }

private:
    static constexpr unsigned none = ~0u;

    void run_block(launch_job& job, uint64_t b)
    {
        job_ = &job;
        body_ = job.body;
        closure_ = job.closure;
        const dim3 g = job.grid, d = job.block;
        hip_cpu_tls.block_idx = {unsigned(b % g.x), unsigned((b / g.x) % g.y), unsigned(b / (uint64_t(g.x) * g.y))};
        hip_cpu_tls.block_dim = {d.x, d.y, d.z};
        hip_cpu_tls.grid_dim = {g.x, g.y, g.z};
        hip_cpu_tls.dynamic_shared = align64(shared_.data());
        hip_cpu_tls.stop = 0;
        n_lanes_ = d.x * d.y * d.z;
        dim_x_ = d.x;
        dim_xy_ = d.x * d.y;
        warp_ = unsigned(hip_cpu_warp_size);
        if (state_.size() < n_lanes_) {
            state_.resize(n_lanes_);
            sp_.resize(n_lanes_);
            bounds_.resize(n_lanes_);
            fake_.resize(n_lanes_);
            lanes_.resize(n_lanes_);
            order_.resize(n_lanes_);
        }
        fiber_mode_ = aborted_ = false;
        fibers_ = 1;
        // The running order: position k runs lane order_[k]. Positions [w, w + warp) are the lanes
        // of the wavefront starting at lane w, in the order the setting asks for. Forward and
        // reverse orders stay as they are from block to block; a random one is drawn per block.
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

        // One fiber runs the lanes in turn; it stays the only one unless a lane blocks. The
        // block is done when a fiber switches back to thread_sp_.
        stacks_.reset();
        const fiber_stack s = stacks_.take();
        block_stack_ = {s.top - s.size, s.size};
        void* f = make_context<&worker::block_start>(s);
        asan_leave(&thread_fake_, block_stack_);
        switch_context<&worker::block_start>(&thread_sp_, f);
        asan_arrive(thread_fake_);
        g_fibers_created.fetch_add(fibers_, std::memory_order_relaxed);
    }

    /// The block's first fiber: runs the lanes one after another until one blocks.
    static void block_start()
    {
        worker* w = tl_worker;
        asan_arrive(nullptr, &w->thread_stack_);
        w->run_in_turn();
    }

    [[noreturn]] void run_in_turn()
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
                ran = batch ? lane_index(hip_cpu_tls.thread_idx) - first + 1 : 1;
            } catch (...) {
                job_->fail(hipErrorLaunchFailure);
                ran = batch ? lane_index(hip_cpu_tls.thread_idx) - first + 1 : 1;
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
    static void lane_start()
    {
        worker* w = tl_worker;
        asan_arrive(nullptr);
        w->run_lane();
    }

    /// A lane's fiber (the lane has been entered). The lane's body, and once it has returned the
    /// switch to the next lane (end_lane), are called from the same call instruction, and that
    /// switch ends in a jump: the lane resumed next, suspended in frames like these, returns
    /// through them with the return-address predictor holding the addresses it returns to. (With a
    /// call of its own from elsewhere, each of those returns was mispredicted.)
    [[noreturn]] __attribute__((noinline)) void run_lane()
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

    static unsigned end_lane(void* w, unsigned) { static_cast<worker*>(w)->exit_lane(); }

    /// A lane of a block in fibers has finished: on to the next lane, or the end of the block.
    [[noreturn]] __attribute__((always_inline)) void exit_lane()
    {
        state_[current_] = lane_state::exited;
        const unsigned nx = next();
        if (nx == none) finish_block();
        enter(nx);
        asan_leave(nullptr, bounds_[nx]);
        leave_context<&worker::lane_start>(sp_[nx]);
    }

    [[noreturn]] void finish_block()
    {
        asan_leave(nullptr, thread_stack_);
        leave_context<&worker::lane_start>(thread_sp_); // the thread: a suspended fiber
    }

    /// The first time a lane (`me`, at position pos_) blocks: lanes before it have exited, the
    /// ones after it have not started. Every fiber the block needs is made now, the one place
    /// where a stack can be missing; the lane that blocked is told by an exception (the block is
    /// abandoned). The fiber running now becomes me's, and the run of lanes it was in ends with
    /// this lane (hip_cpu_tls.stop).
    __attribute__((noinline)) void to_fibers()
    {
        // A run of lanes in forward order keeps neither current_ nor pos_: threadIdx says where it is.
        const unsigned me = current_ = lane_index(hip_cpu_tls.thread_idx);
        if (order_mode_ == hipCpuLaneOrderForward) pos_ = me;
        const unsigned at = pos_;
        hip_cpu_tls.stop = 1;
        try {
            for (unsigned k = at + 1; k < n_lanes_; ++k) {
                const unsigned i = order_[k];
                const fiber_stack s = stacks_.take();
                sp_[i] = make_context<&worker::lane_start>(s);
                bounds_[i] = {s.top - s.size, s.size};
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
        bounds_[me] = block_stack_;
        set_wave(at - at % warp_);
        pos_ = at + 1;
    }

    /// The lane at position k of the running order. In forward order, k itself: one load less on
    /// the path from one lane to the next, which is a chain of dependent loads.
    unsigned lane_at(unsigned k) const { return order_mode_ == hipCpuLaneOrderForward ? k : order_[k]; }

    unsigned lane_index(const uint3& t) const { return t.x + dim_x_ * t.y + dim_xy_ * t.z; }

    void enter(unsigned i)
    {
        current_ = i;
        hip_cpu_tls.thread_idx = dim_x_ == n_lanes_ ? uint3{i, 0, 0} : uint3{i % dim_x_, (i / dim_x_) % (dim_xy_ / dim_x_), i / dim_xy_};
    }

    void set_wave(unsigned w)
    {
        wave_ = w;
        wave_end_ = std::min(w + warp_, n_lanes_);
    }

    /// The next lane to run: the runnable lanes of the current wavefront in order; when it is
    /// all blocked, its collectives complete and it goes on; when every wavefront waits, the
    /// barrier opens. `none` once every lane has exited.
    unsigned next()
    {
        while (pos_ < wave_end_) {
            const unsigned i = lane_at(pos_++);
            if (state_[i] == lane_state::runnable) return i;
        }
        return next_wave();
    }

    /// next() at the end of a wavefront.
    __attribute__((noinline)) unsigned next_wave()
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
                // Every lane that has not exited waits at a barrier: open it.
                const bool grid = at_grid_ != 0;
                at_barrier_ = at_grid_ = 0;
                lane_state* st = state_.data();
                for (unsigned i = 0; i < n_lanes_; ++i)
                    st[i] = st[i] == lane_state::exited ? lane_state::exited : lane_state::runnable;
                // Every lane of the block is at the grid's barrier: wait there for the other blocks
                // (each on its own worker: a cooperative launch has no more blocks than workers).
                if (grid) job_->grid_sync.arrive_and_wait();
                set_wave(0);
                if (order_mode_ == hipCpuLaneOrderRandom)
                    for (unsigned w = 0; w < n_lanes_; w += warp_) arrange_wave(w);
            }
            for (pos_ = wave_; pos_ < wave_end_;) {
                const unsigned i = lane_at(pos_++);
                if (state_[i] == lane_state::runnable) return i;
            }
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

    /// Completes the collectives pending in wavefront [w0, w1).
    void resolve_collectives(unsigned w0, unsigned w1)
    {
        lane_state* const st = state_.data();
        lane* const ln = lanes_.data();
        for (unsigned i = w0; i < w1 && in_collective_; ++i) {
            if (st[i] != lane_state::collective) continue;
            // The group: lanes of this wavefront waiting at the same call site.
            const char* const file = ln[i].file;
            const uint64_t site = ln[i].line_column;
            uint64_t mask = 0;
            for (unsigned j = i; j < w1; ++j)
                if (st[j] == lane_state::collective && ln[j].line_column == site && ln[j].file == file)
                    mask |= uint64_t(1) << (j - w0);
            in_collective_ -= unsigned(__builtin_popcountll(mask));
            if (ln[i].op == hip_cpu_ballot) { // one call site, one operation
                uint64_t ballot = 0;
                for (uint64_t m = mask; m; m &= m - 1)
                    if (ln[w0 + unsigned(__builtin_ctzll(m))].value) ballot |= m & -m;
                for (uint64_t m = mask; m; m &= m - 1) {
                    const unsigned j = w0 + unsigned(__builtin_ctzll(m));
                    ln[j].result = ballot;
                    st[j] = lane_state::runnable;
                }
                continue;
            }
            for (uint64_t m = mask; m; m &= m - 1) {
                const unsigned j = w0 + unsigned(__builtin_ctzll(m));
                lane& l = ln[j];
                const int src = source_lane(l.op, int(j - w0), l.arg, l.width);
                const bool active = src >= 0 && unsigned(src) < warp_ && (mask >> src & 1);
                l.result = active ? ln[w0 + unsigned(src)].value : l.value;
                st[j] = lane_state::runnable;
            }
        }
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
    // per lane
    std::vector<lane_state> state_;
    std::vector<void*> sp_;             // its suspended fiber
    std::vector<stack_bounds> bounds_;  // where its fiber runs
    std::vector<void*> fake_;           // ASan's fake frames of its fiber while it is switched away from
    std::vector<lane> lanes_;           // its pending collective
    std::vector<unsigned> order_;       // the running order: position -> lane
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
        pin();
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
    /// Worker i runs on the i-th CPU this process may use (the launching thread, worker 0, is left
    /// where it is, and goes to the CPU no worker has): left to the kernel, two workers sometimes
    /// share a core for a while, and the same launch takes up to three times as long in one
    /// process as in the next. WAVEBENCH_CPU_PIN=0 leaves them unpinned.
    void pin()
    {
        if (const char* v = std::getenv("WAVEBENCH_CPU_PIN"); v && std::string(v) == "0") return;
        const std::vector<int> cpus = allowed_cpus();
        if (cpus.size() < 2) return;
        for (size_t i = 0; i < threads_.size(); ++i) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(cpus[(i + 1) % cpus.size()], &one);
            pthread_setaffinity_np(threads_[i].native_handle(), sizeof one, &one);
        }
    }

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
    *count = devices().count;
    return hipSuccess;
}

hipError_t hipGetDevice(int* device)
{
    if (!device) return fail(hipErrorInvalidValue);
    *device = std::max(devices().current, 0);
    return hipSuccess;
}

hipError_t hipSetDevice(int device)
{
    cpu_devices& d = devices();
    if (device < 0 || device >= d.count) return fail(hipErrorInvalidDevice);
    if (tl_worker) return fail(hipErrorNotSupported);
    if (d.count == 1 || device == d.current) return hipSuccess;
    // Device k: the k-th share of the CPUs. The launching thread moves there, and the pool is made
    // again on those CPUs.
    const size_t n = d.cpus.size(), first = n * size_t(device) / size_t(d.count),
                 last = n * size_t(device + 1) / size_t(d.count);
    cpu_set_t share;
    CPU_ZERO(&share);
    for (size_t i = first; i < last; ++i) CPU_SET(d.cpus[i], &share);
    std::lock_guard lock(launch_mutex());
    if (sched_setaffinity(0, sizeof share, &share) != 0) return fail(hipErrorInvalidDevice);
    d.current = device;
    the_pool().resize(unsigned(env_size("WAVEBENCH_CPU_THREADS", last - first)));
    return hipSuccess;
}

hipError_t hipDeviceGetPCIBusId(char* id, int length, int device)
{
    if (!id || length <= 0) return fail(hipErrorInvalidValue);
    if (device < 0 || device >= devices().count) return fail(hipErrorInvalidDevice);
    id[0] = 0;
    return fail(hipErrorNotSupported);
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t* p, int device)
{
    if (!p) return fail(hipErrorInvalidValue);
    if (device < 0 || device >= devices().count) return fail(hipErrorInvalidDevice);
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
    const cpu_devices& d = devices();
    p->multiProcessorCount = device == std::max(d.current, 0) ? int(the_pool().size())
                                                 : int(d.cpus.size() * size_t(device + 1) / size_t(d.count) -
                                                       d.cpus.size() * size_t(device) / size_t(d.count));
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
                          unsigned (*body)(void*, unsigned), void* closure)
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
    l.line_column = uint64_t(line) << 32 | column;
    w->block_lane(lane_state::collective);
    return w->current().result;
}

} // extern "C"
