// The shared-memory checker of `wavebench-hipcc --checked`: reads of shared memory that another
// lane of the block wrote with no barrier (or, within a wavefront, no collective) between, and reads
// of shared memory that no lane of the block wrote, each reported once with the lines of both
// accesses; and accesses past the `__shared__` variables (into the thread's control block, or into
// no variable), which stop the program as AddressSanitizer stops it. Hand-written because no
// sanitizer knows the runtime's lanes: to ThreadSanitizer every lane of a block is one OS thread.
//
// How: the program is compiled with AddressSanitizer calling a function for every access
// (`--param asan-instrumentation-with-call-threshold=0`); this file, linked into the executable
// itself (so its definitions come before libasan's), defines those functions: each does ASan's check
// (__asan_region_is_poisoned, __asan_report_error), and an access to shared memory (the executable's
// thread-local block, where `__shared__` variables live, and the dynamic shared memory) made by a
// lane updates or checks a shadow of that memory. The runtime's barriers and collectives are
// interposed the same way, to count what each lane has passed. This file is compiled without
// sanitizers. See core/platforms/cpu/README.md, "Checked mode".
#include <dlfcn.h>
#include <link.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#include <unistd.h>

#include <hip/hip_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

extern "C" int hip_cpu_in_lane(void);

namespace {

constexpr size_t max_reports = 20;
constexpr size_t dynamic_bytes = 64 * 1024; // the runtime's dynamic shared memory per block
// The executable's thread-local block, where the `__shared__` variables are, ends at the thread
// pointer; glibc's control block of the thread follows it (2368 bytes in glibc 2.36): a lane's
// access there is past the last variable, and a write would break the thread (its own pointer, the
// stack guard), so it is stopped before it is made.
constexpr uintptr_t control_block_bytes = 2048;

/// An access to a byte of shared memory by a lane, and where that lane was.
struct access {
    uint32_t block = 0;       // the thread's block stamp then (another value: none in this block)
    uint32_t lane = 0;        // linear in its block
    uint32_t barriers = 0;    // barriers the lane had passed
    uint32_t collectives = 0; // collectives it had passed since its last barrier
    uintptr_t pc = 0;         // the accessing instruction
};

/// The last write and the last read of a byte of shared memory.
struct cell {
    access write, read;
};

/// What a lane has passed in the current block.
struct lane_sync {
    uint32_t block = 0;
    uint32_t barriers = 0, collectives = 0;
};

/// One worker thread's view: its shared memory, the shadow of it, its lanes.
struct thread_state {
    uintptr_t tls_begin = 0, tls_end = 0, dyn_begin = 0;
    std::vector<cell> tls_shadow, dyn_shadow;
    std::vector<lane_sync> lanes = std::vector<lane_sync>(1024);
    uint32_t block = 0; // the stamp of the block running
    uint3 block_idx{~0u, ~0u, ~0u};
    uint64_t launch = ~0ull;
};

std::atomic<uint64_t> g_launches{0};
std::atomic<size_t> g_shared_bytes{0}; // the running launch's dynamic shared memory (launches take turns)
uintptr_t g_tls_size = 0;              // the executable's thread-local block: [thread pointer - size, thread pointer)

std::mutex g_report_mutex;
std::set<std::pair<uintptr_t, uintptr_t>> g_reported;
size_t g_reports = 0;

// The thread's state is on the heap: in the executable's thread-local block, beside the `__shared__`
// variables, lies only this pointer (no guard variable, as a thread_local object would have), which
// find_variables' caller leaves out of the variables a lane may access.
thread_local thread_state* tl_state = nullptr;

thread_state& state()
{
    if (!tl_state) tl_state = new thread_state; // the thread's, for as long as it runs
    return *tl_state;
}

int executable_tls(dl_phdr_info* info, size_t, void* out)
{
    for (int i = 0; i < info->dlpi_phnum; ++i)
        if (info->dlpi_phdr[i].p_type == PT_TLS) {
            const auto& h = info->dlpi_phdr[i];
            const uintptr_t align = h.p_align ? h.p_align : 1;
            *static_cast<uintptr_t*>(out) = (h.p_memsz + align - 1) / align * align;
        }
    return 1; // the first object is the executable
}

/// The executable's thread-local variables that are not shared memory: the guards of thread-local
/// variables initialized at run time (`_ZGV...`, `__tls_guard`; a `__shared__` array of a class type
/// with a base gets one from g++), as offsets in its thread-local block. Read from its symbol table.
std::vector<std::pair<uintptr_t, uintptr_t>> g_not_shared;
/// Every thread-local variable of the executable (the `__shared__` ones, the program's own
/// thread_local ones, the guards), as offsets in its block, in order; this checker's own left out.
/// A lane's access to the block must lie inside one of them. Empty when the executable has no
/// symbol table (stripped): then only accesses past the block's end are seen.
std::vector<std::pair<uintptr_t, uintptr_t>> g_variables;

void find_variables()
{
    FILE* f = std::fopen("/proc/self/exe", "rb");
    if (!f) return;
    std::vector<char> elf;
    char buf[1 << 16];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) elf.insert(elf.end(), buf, buf + n);
    std::fclose(f);
    if (elf.size() < sizeof(ElfW(Ehdr))) return;
    const auto* eh = reinterpret_cast<const ElfW(Ehdr)*>(elf.data());
    if (eh->e_shoff + size_t(eh->e_shnum) * sizeof(ElfW(Shdr)) > elf.size()) return;
    const auto* sh = reinterpret_cast<const ElfW(Shdr)*>(elf.data() + eh->e_shoff);
    for (unsigned i = 0; i < eh->e_shnum; ++i) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum) continue;
        const ElfW(Shdr)& strings = sh[sh[i].sh_link];
        if (sh[i].sh_offset + sh[i].sh_size > elf.size() || strings.sh_offset + strings.sh_size > elf.size()) return;
        const auto* sym = reinterpret_cast<const ElfW(Sym)*>(elf.data() + sh[i].sh_offset);
        for (size_t k = 0; k < sh[i].sh_size / sizeof(ElfW(Sym)); ++k) {
            if (ELF64_ST_TYPE(sym[k].st_info) != STT_TLS || sym[k].st_name >= strings.sh_size) continue;
            const std::string name(elf.data() + strings.sh_offset + sym[k].st_name);
            const std::pair<uintptr_t, uintptr_t> extent{sym[k].st_value,
                                                         sym[k].st_value + std::max<uintptr_t>(sym[k].st_size, 1)};
            if (name.compare(0, 4, "_ZGV") == 0 || name == "__tls_guard") g_not_shared.push_back(extent);
            g_variables.push_back(extent);
        }
    }
    std::sort(g_variables.begin(), g_variables.end());
}

/// The other libraries' thread-local blocks, below the executable's (offsets from the thread
/// pointer, the same in every thread): [g_below_begin, 0 - g_tls_size) holds them. A lane's access
/// there must lie in one that a program's code may reach (the C library's: errno; the runtime's
/// hip_cpu_tls: threadIdx ...; a library the checker does not know); the blocks of the sanitizers,
/// the runtime's other state and the C++ library's, and the gaps between blocks, are an overrun of
/// the first `__shared__` variable downwards. Found once, at start.
std::vector<std::pair<intptr_t, intptr_t>> g_below_allowed;
intptr_t g_below_begin = 0;

int other_tls(dl_phdr_info* info, size_t, void*)
{
    if (!info->dlpi_tls_data || !info->dlpi_name || !*info->dlpi_name) return 0; // the executable, or no TLS
    const intptr_t tp = reinterpret_cast<intptr_t>(__builtin_thread_pointer());
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        if (info->dlpi_phdr[i].p_type != PT_TLS) continue;
        const intptr_t begin = reinterpret_cast<intptr_t>(info->dlpi_tls_data) - tp;
        const intptr_t end = begin + intptr_t(info->dlpi_phdr[i].p_memsz);
        if (end > 0 || begin < -(intptr_t(1) << 20)) continue; // not in the static blocks below the thread pointer
        g_below_begin = std::min(g_below_begin, begin);
        const std::string name = info->dlpi_name;
        bool internal = false;
        for (const char* lib : {"libasan.so", "libubsan.so", "libwavebench_hip_cpu", "libstdc++.so", "libgcc_s.so"})
            internal = internal || name.find(lib) != std::string::npos;
        if (!internal) g_below_allowed.emplace_back(begin, end);
    }
    return 0;
}

/// Leaves this checker's own thread-local state (in the executable's block too: the checker is
/// linked into it) out of g_variables: a lane's access to it is an overrun of shared memory.
void leave_out_own(uintptr_t own_begin, uintptr_t own_end)
{
    g_variables.erase(std::remove_if(g_variables.begin(), g_variables.end(),
                                     [&](const auto& v) { return v.first < own_end && v.second > own_begin; }),
                      g_variables.end());
}

/// Whether the bytes [offset, offset + n) of the executable's block are all in one variable.
bool in_one_variable(uintptr_t offset, size_t n)
{
    // The last variable that begins at or before `offset` (their extents do not overlap).
    auto it = std::upper_bound(g_variables.begin(), g_variables.end(), std::make_pair(offset, UINTPTR_MAX));
    return it != g_variables.begin() && offset + n <= std::prev(it)->second;
}

unsigned lane_now()
{
    const uint3 t = threadIdx, d = blockDim;
    return t.x + d.x * (t.y + d.y * t.z);
}

/// The state of this thread's current block, reset (by stamps, not by clearing) when a new block
/// or launch begins.
thread_state& current()
{
    thread_state& s = state();
    const uint3 b = blockIdx;
    const uint64_t launch = g_launches.load(std::memory_order_relaxed);
    if (launch != s.launch || b.x != s.block_idx.x || b.y != s.block_idx.y || b.z != s.block_idx.z) {
        s.launch = launch, s.block_idx = b, ++s.block;
        const uintptr_t tp = reinterpret_cast<uintptr_t>(__builtin_thread_pointer());
        s.tls_begin = tp - g_tls_size, s.tls_end = tp;
        s.dyn_begin = reinterpret_cast<uintptr_t>(hip_cpu_tls.dynamic_shared);
        if (s.tls_shadow.size() != g_tls_size) s.tls_shadow.assign(g_tls_size, cell{});
        if (s.dyn_shadow.empty()) s.dyn_shadow.assign(dynamic_bytes, cell{});
        // The dynamic shared memory past what the launch asked for is out of bounds: ASan says so.
        if (s.dyn_begin) {
            const size_t asked = std::min(g_shared_bytes.load(std::memory_order_relaxed), dynamic_bytes);
            __asan_unpoison_memory_region(reinterpret_cast<void*>(s.dyn_begin), asked);
            __asan_poison_memory_region(reinterpret_cast<void*>(s.dyn_begin + asked), dynamic_bytes - asked);
        }
    }
    return s;
}

cell* shadow_of(thread_state& s, uintptr_t a)
{
    if (a >= s.tls_begin && a < s.tls_end) return &s.tls_shadow[a - s.tls_begin];
    if (s.dyn_begin && a >= s.dyn_begin && a < s.dyn_begin + dynamic_bytes) return &s.dyn_shadow[a - s.dyn_begin];
    return nullptr;
}

std::string where(uintptr_t pc)
{
    char buf[512] = "?";
    __sanitizer_symbolize_pc(reinterpret_cast<void*>(pc), "%s:%l in %f", buf, sizeof buf);
    return buf;
}

/// Reports `now` (a lane's access to `address`) against `then`, another lane's access with no
/// barrier between: once per pair of instructions, the first max_reports pairs.
void report(const char* what, bool write, const access& now, const access* then, uintptr_t address,
            const thread_state& s)
{
    std::lock_guard lock(g_report_mutex);
    if (!g_reported.emplace(now.pc, then ? then->pc : 0).second) return;
    if (++g_reports > max_reports) return;
    const uint3 b = s.block_idx;
    std::string text = "wavebench checked: " + std::string(what) + " in block (" + std::to_string(b.x) + "," +
                       std::to_string(b.y) + "," + std::to_string(b.z) + "): lane " + std::to_string(now.lane);
    char at[32];
    std::snprintf(at, sizeof at, "%#lx", static_cast<unsigned long>(address));
    if (!then)
        text += " reads " + std::string(at) + " at " + where(now.pc) + ", which no lane of the block wrote";
    else
        text += std::string(write ? " writes " : " reads ") + at + " at " + where(now.pc) + ", which lane " +
                std::to_string(then->lane) + (write ? " read" : " wrote") + " at " + where(then->pc) +
                " with no barrier between";
    std::fprintf(stderr, "%s\n", text.c_str());
}

/// What is wrong with a lane's access of `n` bytes at `a` beyond the `__shared__` variables, or
/// nullptr: past the end of the thread-local block (over the thread's control block), or in it but
/// not inside one variable (between two, or across the end of one).
const char* overrun(const thread_state& s, uintptr_t a, size_t n)
{
    if (a < s.tls_end && a + n > s.tls_end) return "across the end of the block's last `__shared__` variable";
    if (a >= s.tls_end && a < s.tls_end + control_block_bytes)
        return "past the end of the block's `__shared__` variables (over the thread's control block)";
    if (a >= s.tls_begin && a < s.tls_end && !g_variables.empty() && !in_one_variable(a - s.tls_begin, n))
        return "outside the `__shared__` variables (between two of them, or across the end of one)";
    if (a < s.tls_begin && a + n > s.tls_begin) return "across the start of the block's first `__shared__` variable";
    const intptr_t at = intptr_t(a - s.tls_end); // from the thread pointer (negative below it)
    if (a < s.tls_begin && at >= g_below_begin) {
        for (const auto& [b, e] : g_below_allowed)
            if (at >= b && at + intptr_t(n) <= e) return nullptr;
        auto within = [&](const void* v, size_t bytes) {
            const uintptr_t own = reinterpret_cast<uintptr_t>(v);
            return a >= own && a + n <= own + bytes;
        };
        if (within(&hip_cpu_tls, sizeof hip_cpu_tls) || within(&threadIdx, sizeof threadIdx) ||
            within(&blockIdx, sizeof blockIdx) || within(&blockDim, sizeof blockDim) ||
            within(&gridDim, sizeof gridDim))
            return nullptr;
        return "before the block's first `__shared__` variable (over the runtime's or the sanitizers' thread-local "
               "state)";
    }
    return nullptr;
}

/// Reports a lane's access that overruns shared memory, and stops the program (exit status 1, as
/// AddressSanitizer's): the write would break what lies there (the runtime's and this checker's
/// state, the thread's control block), so the program cannot go on.
[[noreturn]] void stop_at_overrun(const char* why, bool write, uintptr_t a, size_t n, uintptr_t pc,
                                  const thread_state& s)
{
    std::lock_guard lock(g_report_mutex);
    const uint3 b = s.block_idx;
    std::fprintf(
        stderr,
        "wavebench checked: shared-memory overrun in block (%u,%u,%u): lane %u %s %zu bytes at %#lx at %s, %s; "
        "stopped\n",
        b.x, b.y, b.z, lane_now(), write ? "writes" : "reads", n, static_cast<unsigned long>(a), where(pc).c_str(),
        why);
    __sanitizer_print_stack_trace();
    std::fflush(stderr);
    _exit(1);
}

/// Whether `earlier` (another lane's access) is ordered before the lane `now`: a barrier between,
/// or, in one wavefront, a collective.
bool ordered(const access& earlier, const access& now)
{
    const unsigned w = unsigned(hip_cpu_warp_size);
    return earlier.lane == now.lane || now.barriers > earlier.barriers ||
           (now.barriers == earlier.barriers && earlier.lane / w == now.lane / w &&
            now.collectives > earlier.collectives);
}

void shared_access(uintptr_t a, size_t n, bool write, uintptr_t pc)
{
    if (!hip_cpu_in_lane()) return;
    thread_state& s = current();
    if (!shadow_of(s, a) && !shadow_of(s, a + n - 1)) return;
    if (a >= s.tls_begin && a < s.tls_end)
        for (const auto& [b, e] : g_not_shared)
            if (a - s.tls_begin >= b && a - s.tls_begin < e) return;
    // The pointer an `extern __shared__` array at namespace scope is (thread-local, set once per
    // thread): reading it reads no shared memory.
    if (!write && n == sizeof(void*) && *reinterpret_cast<void* const*>(a) == hip_cpu_tls.dynamic_shared) return;
    const unsigned me = lane_now();
    lane_sync& mine = s.lanes[me];
    if (mine.block != s.block) mine = lane_sync{s.block, 0, 0};
    const access now{s.block, me, mine.barriers, mine.collectives, pc};
    for (size_t k = 0; k < n; ++k) {
        cell* c = shadow_of(s, a + k);
        if (!c) continue;
        if (write) {
            // A write after another lane's read, with no barrier between: the read sees either value.
            if (c->read.block == s.block && !ordered(c->read, now)) {
                report("shared-memory race", true, now, &c->read, a + k, s);
                c->read.block = 0;
            }
            c->write = now;
        } else {
            if (c->write.block != s.block) {
                report("uninitialised shared memory", false, now, nullptr, a + k, s);
            } else if (!ordered(c->write, now)) {
                report("shared-memory race", false, now, &c->write, a + k, s);
            }
            // The read kept is another lane's that no barrier has ordered yet, if any: a write by
            // a third lane would race with it.
            if (c->read.block != s.block || c->read.lane == me || ordered(c->read, now)) c->read = now;
        }
    }
}

void check(uintptr_t a, size_t n, bool write, uintptr_t pc)
{
    if (hip_cpu_in_lane()) {
        const thread_state& s = current(); // a new block's dynamic shared memory is poisoned past its size first
        if (const char* why = overrun(s, a, n)) stop_at_overrun(why, write, a, n, pc, s);
    }
    if (__asan_region_is_poisoned(reinterpret_cast<void*>(a), n))
        __asan_report_error(reinterpret_cast<void*>(pc), __builtin_frame_address(0), __builtin_frame_address(0),
                            reinterpret_cast<void*>(a), write, n);
    shared_access(a, n, write, pc);
}

template <class F> F real(const char* name)
{
    void* f = dlsym(RTLD_NEXT, name);
    if (!f) {
        std::fprintf(stderr, "wavebench checked: the cpu runtime has no %s; link it after the checker\n", name);
        std::abort();
    }
    return reinterpret_cast<F>(f);
}

void after_barrier()
{
    if (!hip_cpu_in_lane()) return;
    thread_state& s = current();
    lane_sync& l = s.lanes[lane_now()];
    if (l.block != s.block) l = lane_sync{s.block, 0, 0};
    ++l.barriers, l.collectives = 0;
}

void after_collective()
{
    if (!hip_cpu_in_lane()) return;
    thread_state& s = current();
    lane_sync& l = s.lanes[lane_now()];
    if (l.block != s.block) l = lane_sync{s.block, 0, 0};
    ++l.collectives;
}

struct summary {
    summary()
    {
        dl_iterate_phdr(executable_tls, &g_tls_size);
        dl_iterate_phdr(other_tls, nullptr);
        find_variables();
        const uintptr_t block = reinterpret_cast<uintptr_t>(__builtin_thread_pointer()) - g_tls_size;
        const uintptr_t own = reinterpret_cast<uintptr_t>(&tl_state);
        leave_out_own(own - block, own - block + sizeof tl_state);
    }
    ~summary()
    {
        if (g_reports > 0)
            std::fprintf(stderr, "wavebench checked: %zu shared-memory report(s)%s\n", g_reports,
                         g_reports > max_reports ? " (the first 20 shown)" : "");
    }
} g_summary;

} // namespace

// HIP programs leave their device memory to the exit: no leak reports unless ASAN_OPTIONS asks.
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }

// ---- AddressSanitizer's access checks, called for every access of the checked program ----------------
#define WB_CHECKED_ACCESS(size)                                                                                        \
    extern "C" void __asan_load##size(uintptr_t a) { check(a, size, false, uintptr_t(__builtin_return_address(0))); }  \
    extern "C" void __asan_store##size(uintptr_t a) { check(a, size, true, uintptr_t(__builtin_return_address(0))); }  \
    extern "C" void __asan_load##size##_noabort(uintptr_t a)                                                           \
    {                                                                                                                  \
        check(a, size, false, uintptr_t(__builtin_return_address(0)));                                                 \
    }                                                                                                                  \
    extern "C" void __asan_store##size##_noabort(uintptr_t a)                                                          \
    {                                                                                                                  \
        check(a, size, true, uintptr_t(__builtin_return_address(0)));                                                  \
    }
WB_CHECKED_ACCESS(1)
WB_CHECKED_ACCESS(2)
WB_CHECKED_ACCESS(4)
WB_CHECKED_ACCESS(8)
WB_CHECKED_ACCESS(16)
#undef WB_CHECKED_ACCESS
extern "C" void __asan_loadN(uintptr_t a, size_t n) { check(a, n, false, uintptr_t(__builtin_return_address(0))); }
extern "C" void __asan_storeN(uintptr_t a, size_t n) { check(a, n, true, uintptr_t(__builtin_return_address(0))); }
extern "C" void __asan_loadN_noabort(uintptr_t a, size_t n)
{
    check(a, n, false, uintptr_t(__builtin_return_address(0)));
}
extern "C" void __asan_storeN_noabort(uintptr_t a, size_t n)
{
    check(a, n, true, uintptr_t(__builtin_return_address(0)));
}

// ---- the runtime's synchronization, counted per lane ----------------------------------------------------
extern "C" hipError_t hip_cpu_launch(dim3 grid, dim3 block, size_t shared_bytes, hipStream_t stream, unsigned flags,
                                     unsigned (*body)(void*, unsigned), void* closure)
{
    static const auto next = real<decltype(&hip_cpu_launch)>("hip_cpu_launch");
    g_launches.fetch_add(1, std::memory_order_relaxed);
    g_shared_bytes.store(shared_bytes, std::memory_order_relaxed);
    return next(grid, block, shared_bytes, stream, flags, body, closure);
}

extern "C" void hip_cpu_syncthreads(void)
{
    static const auto next = real<decltype(&hip_cpu_syncthreads)>("hip_cpu_syncthreads");
    next();
    after_barrier();
}

extern "C" void hip_cpu_grid_sync(void)
{
    static const auto next = real<decltype(&hip_cpu_grid_sync)>("hip_cpu_grid_sync");
    next();
    after_barrier();
}

extern "C" uint64_t hip_cpu_collective(int op, uint64_t value, int arg, int width, const char* file, unsigned line,
                                       unsigned column)
{
    static const auto next = real<decltype(&hip_cpu_collective)>("hip_cpu_collective");
    const uint64_t r = next(op, value, arg, width, file, line, column);
    after_collective();
    return r;
}

// What the headers' collectives call (hip_cpu_collective is the older entry, for code built before).
extern "C" uint64_t hip_cpu_collective_masked(int op, uint64_t value, int arg, int width, uint64_t mask,
                                              const char* file, uint64_t line_column)
{
    static const auto next = real<decltype(&hip_cpu_collective_masked)>("hip_cpu_collective_masked");
    const uint64_t r = next(op, value, arg, width, mask, file, line_column);
    after_collective();
    return r;
}

/// What tells the runtime that this program is checked: it then reports collectives without a mask
/// in divergent code (collectives.cpp).
extern "C" __attribute__((visibility("default"))) int wavebench_checked_program = 1;
