// The CPU runtime's fibers: their stacks (stack_cache), the switch from one to another, and what
// AddressSanitizer is told of each switch. The scheduler (scheduler.h) runs a block's lanes on them.
#pragma once

#include <hip/hip_runtime.h>

#if !defined(__x86_64__) || defined(WAVEBENCH_CPU_BOOST_SWITCH)
#include <boost/context/detail/fcontext.hpp>
#endif

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#if defined(__SANITIZE_ADDRESS__) // g++ -fsanitize=address (the asan preset)
#include <sanitizer/asan_interface.h>
#define WAVEBENCH_ASAN_FIBERS 1
#else
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {

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
/// Before a switch to `to`. `fake` keeps this stack's fake frames (ASan's use-after-return
/// frames) until it is switched back to; null when it never is (the fiber has finished).
void asan_leave(void** fake, const stack_bounds& to);
/// On the new stack, right after the switch; `from`, if given, learns the stack that was left.
void asan_arrive(void* fake, stack_bounds* from = nullptr);
#else
inline void asan_leave(void**, const stack_bounds&) {}
inline void asan_arrive(void*, stack_bounds* = nullptr) {}
#endif

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
    ~stack_cache();
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
        for (size_t k = 0; k < used_; ++k)
            ASAN_UNPOISON_MEMORY_REGION(stacks_[k].top - stacks_[k].size, stacks_[k].size);
#endif
        used_ = 0;
    }
    /// False when a stack used since the last reset() has been written below its end.
    bool intact() const noexcept
    {
        for (size_t k = 0; k < used_; ++k)
            if (*reinterpret_cast<const uint64_t*>(stacks_[k].top - stacks_[k].size - canary_bytes) != canary)
                return false;
        return true;
    }
    size_t stack_bytes() const { return size_; }

private:
    static constexpr size_t page = 4096, huge = size_t(2) << 20, canary_bytes = 64;
    static constexpr uint64_t canary = 0x57415645424e4348ull; // "WAVEBNCH"

    void grow(); // adds a chunk of stacks (fibers.cpp)

    size_t size_;
    size_t used_ = 0;
    std::vector<fiber_stack> stacks_;
    std::vector<std::pair<char*, size_t>> chunks_;
};

/// Asks for the cache lines a suspended fiber reads first when it resumes (its saved registers
/// and the frame above them) or, for one that has not started (tagged: see make_context), those
/// below its top that it writes first. A few lanes ahead: with hundreds of lanes their stacks
/// outgrow the L1 cache, and with 64 KiB between stack tops each lane's is on a page of its own.
inline void prefetch_fiber(const void* fiber)
{
    const uintptr_t f = reinterpret_cast<uintptr_t>(fiber);
    const char* p = reinterpret_cast<const char*>(f & 1 ? f - 1 - 128 : f);
    __builtin_prefetch(p);
    __builtin_prefetch(p + 64);
}

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
// Their assembly is in fibers.cpp.
extern "C" void wavebench_cpu_switch(void** save, void* to) __attribute__((visibility("hidden")));
extern "C" void wavebench_cpu_switch_new(void** save, void* top, fiber_entry fn) __attribute__((visibility("hidden")));
extern "C" [[noreturn]] void wavebench_cpu_leave(void* to) __attribute__((visibility("hidden")));
extern "C" [[noreturn]] void wavebench_cpu_leave_new(void* top, fiber_entry fn) __attribute__((visibility("hidden")));

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

} // namespace cpu_runtime
#pragma GCC visibility pop
