// The shared-memory checker of `wavebench-hipcc --checked`: reads of shared memory that another
// lane of the block wrote with no barrier (or, within a wavefront, no collective) between, and reads
// of shared memory that no lane of the block wrote, each reported once with the lines of both
// accesses. Hand-written because no sanitizer knows the runtime's lanes: to ThreadSanitizer every
// lane of a block is one OS thread.
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

thread_state& state()
{
    static thread_local thread_state s;
    return s;
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

void find_guards()
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
            if (name.compare(0, 4, "_ZGV") == 0 || name == "__tls_guard")
                g_not_shared.emplace_back(sym[k].st_value, sym[k].st_value + std::max<uintptr_t>(sym[k].st_size, 1));
        }
    }
}

unsigned lane_now()
{
    const uint3 t = hip_cpu_tls.thread_idx, d = hip_cpu_tls.block_dim;
    return t.x + d.x * (t.y + d.y * t.z);
}

/// The state of this thread's current block, reset (by stamps, not by clearing) when a new block
/// or launch begins.
thread_state& current()
{
    thread_state& s = state();
    const uint3 b = hip_cpu_tls.block_idx;
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
    if (hip_cpu_in_lane()) current(); // a new block's dynamic shared memory is poisoned past its size first
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

struct summary {
    summary()
    {
        dl_iterate_phdr(executable_tls, &g_tls_size);
        find_guards();
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
    if (hip_cpu_in_lane()) {
        thread_state& s = current();
        lane_sync& l = s.lanes[lane_now()];
        if (l.block != s.block) l = lane_sync{s.block, 0, 0};
        ++l.collectives;
    }
    return r;
}
