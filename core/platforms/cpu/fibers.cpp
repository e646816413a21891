// The CPU runtime's fibers: the stack chunks' allocation, the x86-64 context switch in assembly,
// and the announcements of each switch to AddressSanitizer (fibers.h says what each is for).
#include "fibers.h"

#include <algorithm>
#include <sys/mman.h>

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {

#ifdef WAVEBENCH_ASAN_FIBERS
thread_local stack_bounds tl_asan_to;       // the stack of the switch under way
thread_local void* tl_asan_spent = nullptr; // the fake frames of a fiber that finished in it

void asan_leave(void** fake, const stack_bounds& to)
{
    tl_asan_to = to;
    // A finished fiber still returns through Boost.Context's frames after this, so its fake
    // frames are dropped only on arrival.
    __sanitizer_start_switch_fiber(fake ? fake : &tl_asan_spent, to.bottom, to.size);
}

void asan_arrive(void* fake, stack_bounds* from)
{
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
}
#endif

stack_cache::~stack_cache()
{
    for (const auto& [base, bytes] : chunks_) munmap(base, bytes);
}

void stack_cache::grow()
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

#if defined(__x86_64__) && !defined(WAVEBENCH_CPU_BOOST_SWITCH)
// Global, as the switches inlined in the scheduler's files call them, and hidden: not exported from the library.
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
    .globl wavebench_cpu_switch
    .hidden wavebench_cpu_switch
    .type wavebench_cpu_switch, @function
wavebench_cpu_switch:
    movq (%rsp), %rdx                   # where this fiber returns to
    wavebench_save_registers
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    wavebench_restore_registers
    cmpq %rdx, (%rsp)                   # the fiber resumed returns to the same place: the usual
    jne 1f                              # case, and a return the predictor has right
    ret
1:  popq %rdx                           # elsewhere (lanes at different call sites): a return
    jmpq *%rdx                          # would be mispredicted, the jump learns its target
    .size wavebench_cpu_switch, .-wavebench_cpu_switch

    .p2align 4
    .globl wavebench_cpu_leave
    .hidden wavebench_cpu_leave
    .type wavebench_cpu_leave, @function
wavebench_cpu_leave:
    movq %rdi, %rsp
    wavebench_restore_registers
    popq %rax
    jmpq *%rax
    .size wavebench_cpu_leave, .-wavebench_cpu_leave

    .p2align 4
    .globl wavebench_cpu_switch_new
    .hidden wavebench_cpu_switch_new
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
    .globl wavebench_cpu_leave_new
    .hidden wavebench_cpu_leave_new
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
#endif

} // namespace cpu_runtime
#pragma GCC visibility pop
