// The CPU runtime's graphs and stream capture. Every call is synchronous here, so a graph is the
// list of what was issued to the capturing streams, in the order it was issued (an order every
// dependency between them allows): hipGraphLaunch runs it again, on the calling thread.
//
// While a stream captures, the host API (host_api.cpp, memory2d.cpp, peer.cpp, arrays.cpp) records
// its copies, fills and host functions here instead of running them, and the header's launch
// wrapper (hip_cpu_launch_kernel) records its launches through hip_cpu_capture_launch. A launch's
// closure refers to the variables its arguments name, on the launching thread's stack, which may be
// gone or changed when the graph runs: the closure is copied, and so is the stack from the lowest
// of those variables to its top, and the copy's references into the stack are moved into that copy.
// The graph then reads the arguments' values as they were at capture, as HIP copies them.
#include "graphs.h"
#include "runtime_common.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <unordered_map>
#include <vector>

struct hip_cpu_graph_node {
    cpu_runtime::graph_work work;
};
struct hip_cpu_graph {
    std::vector<std::shared_ptr<hip_cpu_graph_node>> nodes;
};
struct hip_cpu_graph_exec {
    std::vector<std::shared_ptr<hip_cpu_graph_node>> nodes; // shared with the graph, which may go first
};

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {
namespace {

/// A stream taking part in a capture: its last work recorded (a position in the graph, from 1), and
/// how far another stream of the capture has waited for it (an event recorded there then).
struct captured_stream {
    uint64_t last_work = 0, joined = 0;
};

/// A capture, from hipStreamBeginCapture on its origin stream to hipStreamEndCapture there.
struct capture_state {
    std::unique_ptr<hip_cpu_graph> graph = std::make_unique<hip_cpu_graph>();
    hipStream_t origin = nullptr;
    hipStreamCaptureMode mode = hipStreamCaptureModeGlobal;
    std::thread::id thread; // the one that began it
    unsigned long long id = 0;
    bool invalidated = false;
    std::unordered_map<hipStream_t, captured_stream> streams; // the origin and the streams it forked
    std::vector<hipEvent_t> events;                           // recorded in it
};

/// An event recorded in a capture: where, and after how much of that stream's work.
struct event_mark {
    capture_state* capture;
    hipStream_t stream;
    uint64_t position;
};

struct captures {
    std::mutex m;
    std::unordered_map<unsigned long long, std::unique_ptr<capture_state>> by_id;
    std::unordered_map<hipStream_t, capture_state*> by_stream;
    std::unordered_map<hipEvent_t, event_mark> by_event;
    unsigned long long next_id = 1;
    std::atomic<size_t> streams{0}; // by_stream.size(), read without the lock
};
captures& the_captures()
{
    static captures c;
    return c;
}

capture_state* capture_of(captures& c, hipStream_t stream)
{
    const auto it = c.by_stream.find(stream);
    return it == c.by_stream.end() ? nullptr : it->second;
}

/// Ends `cap` (under the lock): its streams capture no more, its events are no longer captured.
std::unique_ptr<hip_cpu_graph> end(captures& c, capture_state* cap)
{
    for (const auto& [stream, _] : cap->streams) c.by_stream.erase(stream);
    c.streams.store(c.by_stream.size(), std::memory_order_relaxed);
    for (hipEvent_t e : cap->events) {
        const auto it = c.by_event.find(e);
        if (it != c.by_event.end() && it->second.capture == cap) c.by_event.erase(it);
    }
    std::unique_ptr<hip_cpu_graph> graph = std::move(cap->graph);
    c.by_id.erase(cap->id);
    return graph;
}

// ---- a launch's closure and the stack it refers to ------------------------------------------------

/// The top of the calling thread's stack (0 when unknown).
uintptr_t stack_top()
{
    thread_local const uintptr_t top = [] {
        pthread_attr_t attr;
        if (pthread_getattr_np(pthread_self(), &attr) != 0) return uintptr_t(0);
        void* addr = nullptr;
        size_t size = 0;
        const int e = pthread_attr_getstack(&attr, &addr, &size);
        pthread_attr_destroy(&attr);
        return e == 0 ? reinterpret_cast<uintptr_t>(addr) + size : uintptr_t(0);
    }();
    return top;
}

/// Copies `n` words of the stack from `from`. Not instrumented: between the caller's variables lie
/// the redzones AddressSanitizer poisons (`wavebench-hipcc --checked`); volatile, so that no memcpy
/// (which AddressSanitizer checks) is made of it.
__attribute__((no_sanitize_address, noinline)) void copy_stack(uint64_t* to, uintptr_t from, size_t n)
{
    const volatile uint64_t* f = reinterpret_cast<const volatile uint64_t*>(from);
    for (size_t i = 0; i < n; ++i) to[i] = f[i];
}

/// A stack copied beyond this size is left as it is (the launch then reads the variables themselves).
constexpr size_t max_stack_copy = size_t(64) << 20;

/// A recorded launch: the closure's copy and the stack's, and what runs it.
struct captured_launch {
    dim3 grid, block;
    size_t shared_bytes = 0;
    unsigned flags = 0;
    unsigned (*body)(void*, unsigned) = nullptr;
    hipError_t (*launch)(dim3, dim3, size_t, hipStream_t, unsigned, unsigned (*)(void*, unsigned), void*) = nullptr;
    void* closure = nullptr;
    void (*destroy)(void*) = nullptr; // null: closure is raw memory
    std::unique_ptr<uint64_t[]> stack;

    captured_launch() = default;
    captured_launch(const captured_launch&) = delete;
    captured_launch& operator=(const captured_launch&) = delete;
    ~captured_launch()
    {
        if (destroy)
            destroy(closure);
        else
            ::operator delete(closure);
    }
};

/// The words of `bytes` at `p` that refer to the calling thread's stack (above this frame) now
/// refer to a copy of it, kept in `l`: from the lowest of them to the stack's top.
__attribute__((noinline)) void move_into_stack_copy(captured_launch& l, size_t bytes)
{
    const uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0)), top = stack_top();
    if (top <= here) return;
    uint64_t* words = static_cast<uint64_t*>(l.closure);
    const size_t n = bytes / sizeof(uint64_t);
    uintptr_t low = top;
    for (size_t i = 0; i < n; ++i)
        if (words[i] >= here && words[i] < top) low = std::min(low, uintptr_t(words[i]));
    low &= ~uintptr_t(7);
    if (low >= top || top - low > max_stack_copy) return;
    const size_t count = (top - low) / sizeof(uint64_t);
    l.stack.reset(new uint64_t[count]);
    copy_stack(l.stack.get(), low, count);
    const uintptr_t base = reinterpret_cast<uintptr_t>(l.stack.get());
    auto move = [&](uint64_t& w) {
        if (w >= low && w < top) w = base + (w - low);
    };
    for (size_t i = 0; i < n; ++i) move(words[i]);
    for (size_t i = 0; i < count; ++i) move(l.stack[i]); // pointers between the copied variables
}

} // namespace

// ---- what the host API asks (graphs.h) --------------------------------------------------------------

bool capturing(hipStream_t stream)
{
    captures& c = the_captures();
    if (!stream || c.streams.load(std::memory_order_relaxed) == 0) return false;
    std::lock_guard lock(c.m);
    return capture_of(c, stream) != nullptr;
}

hipError_t capture(hipStream_t stream, graph_work work)
{
    captures& c = the_captures();
    std::lock_guard lock(c.m);
    capture_state* cap = capture_of(c, stream);
    if (!cap || cap->invalidated) return fail(hipErrorStreamCaptureInvalidated);
    auto node = std::make_shared<hip_cpu_graph_node>();
    node->work = std::move(work);
    cap->graph->nodes.push_back(std::move(node));
    cap->streams[stream].last_work = cap->graph->nodes.size();
    return hipSuccess;
}

hipError_t unsafe_while_capturing()
{
    captures& c = the_captures();
    if (c.streams.load(std::memory_order_relaxed) == 0) return hipSuccess;
    std::lock_guard lock(c.m);
    bool forbidden = false;
    for (auto& [id, cap] : c.by_id)
        if (cap->mode == hipStreamCaptureModeGlobal ||
            (cap->mode == hipStreamCaptureModeThreadLocal && cap->thread == std::this_thread::get_id()))
            forbidden = cap->invalidated = true;
    return forbidden ? fail(hipErrorStreamCaptureUnsupported) : hipSuccess;
}

hipError_t waits_for_capturing(hipStream_t stream)
{
    captures& c = the_captures();
    if (!stream || c.streams.load(std::memory_order_relaxed) == 0) return hipSuccess;
    std::lock_guard lock(c.m);
    capture_state* cap = capture_of(c, stream);
    if (!cap) return hipSuccess;
    cap->invalidated = true;
    return fail(hipErrorStreamCaptureUnsupported);
}

bool record_event_in_capture(hipStream_t stream, hipEvent_t event, hipError_t* e)
{
    captures& c = the_captures();
    if (c.streams.load(std::memory_order_relaxed) == 0) return false;
    std::lock_guard lock(c.m);
    capture_state* cap = stream ? capture_of(c, stream) : nullptr;
    if (!cap) {
        c.by_event.erase(event); // recorded outside any capture now
        return false;
    }
    if (cap->invalidated) {
        *e = fail(hipErrorStreamCaptureInvalidated);
        return true;
    }
    c.by_event[event] = event_mark{cap, stream, cap->streams[stream].last_work};
    cap->events.push_back(event);
    *e = hipSuccess;
    return true;
}

hipError_t wait_event_in_capture(hipStream_t stream, hipEvent_t event)
{
    captures& c = the_captures();
    if (c.streams.load(std::memory_order_relaxed) == 0) return hipSuccess;
    std::lock_guard lock(c.m);
    const auto it = c.by_event.find(event);
    if (it == c.by_event.end()) return hipSuccess; // an event of no capture: nothing to wait for
    const event_mark mark = it->second;
    capture_state* cap = capture_of(c, stream);
    if (cap && cap != mark.capture) return fail(hipErrorStreamCaptureMerge);
    if (!stream) return fail(hipErrorStreamCaptureImplicit); // the null stream cannot take part in a capture
    if (mark.capture->invalidated) return fail(hipErrorStreamCaptureInvalidated);
    if (!cap) { // forked: `stream` captures into the same graph from now on
        mark.capture->streams[stream];
        c.by_stream[stream] = mark.capture;
        c.streams.store(c.by_stream.size(), std::memory_order_relaxed);
    }
    if (mark.stream != stream) {
        uint64_t& joined = mark.capture->streams[mark.stream].joined;
        joined = std::max(joined, mark.position);
    }
    return hipSuccess;
}

bool event_in_capture(hipEvent_t event)
{
    captures& c = the_captures();
    if (c.streams.load(std::memory_order_relaxed) == 0) return false;
    std::lock_guard lock(c.m);
    return c.by_event.count(event) != 0;
}

void forget_stream(hipStream_t stream)
{
    captures& c = the_captures();
    if (c.streams.load(std::memory_order_relaxed) == 0) return;
    std::lock_guard lock(c.m);
    capture_state* cap = capture_of(c, stream);
    if (!cap) return;
    if (stream == cap->origin) { // the capture ends with nothing to show for it
        end(c, cap);
        return;
    }
    cap->streams.erase(stream);
    c.by_stream.erase(stream);
    c.streams.store(c.by_stream.size(), std::memory_order_relaxed);
}

void forget_event(hipEvent_t event)
{
    captures& c = the_captures();
    std::lock_guard lock(c.m);
    c.by_event.erase(event);
}

} // namespace cpu_runtime
#pragma GCC visibility pop

using namespace cpu_runtime;

extern "C" {

int hip_cpu_stream_capturing(hipStream_t stream) { return capturing(stream) ? 1 : 0; }

hipError_t hip_cpu_capture_launch(dim3 grid, dim3 block, size_t shared_bytes, hipStream_t stream, unsigned flags,
                                  unsigned (*body)(void*, unsigned), const void* closure, size_t bytes,
                                  void* (*copy_closure)(const void*), void (*destroy_closure)(void*),
                                  hipError_t (*launch)(dim3, dim3, size_t, hipStream_t, unsigned,
                                                       unsigned (*)(void*, unsigned), void*))
{
    // What the launch itself would refuse, refused at capture (as a GPU runtime does).
    if (const hipError_t e = launch_config_error(grid, block, shared_bytes); e != hipSuccess) return fail(e);
    if (!body || !closure || !launch || (copy_closure && !destroy_closure)) return fail(hipErrorInvalidValue);

    auto l = std::make_shared<captured_launch>();
    l->grid = grid, l->block = block, l->shared_bytes = shared_bytes, l->flags = flags;
    l->body = body, l->launch = launch;
    if (copy_closure) {
        l->closure = copy_closure(closure);
        l->destroy = destroy_closure;
    } else {
        l->closure = ::operator new(bytes ? bytes : 1);
        std::memcpy(l->closure, closure, bytes);
        move_into_stack_copy(*l, bytes);
    }
    return capture(stream, [l](hipStream_t s) {
        return l->launch(l->grid, l->block, l->shared_bytes, s, l->flags, l->body, l->closure);
    });
}

hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode)
{
    if (!stream) return fail(hipErrorStreamCaptureUnsupported); // the null stream cannot capture
    if (mode != hipStreamCaptureModeGlobal && mode != hipStreamCaptureModeThreadLocal &&
        mode != hipStreamCaptureModeRelaxed)
        return fail(hipErrorInvalidValue);
    captures& c = the_captures();
    std::lock_guard lock(c.m);
    if (capture_of(c, stream)) return fail(hipErrorIllegalState);
    auto cap = std::make_unique<capture_state>();
    cap->origin = stream, cap->mode = mode, cap->thread = std::this_thread::get_id(), cap->id = c.next_id++;
    cap->streams[stream];
    c.by_stream[stream] = cap.get();
    c.streams.store(c.by_stream.size(), std::memory_order_relaxed);
    c.by_id.emplace(cap->id, std::move(cap));
    return hipSuccess;
}

hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t* graph)
{
    if (!graph) return fail(hipErrorInvalidValue);
    captures& c = the_captures();
    std::unique_ptr<hip_cpu_graph> made;
    hipError_t e = hipSuccess;
    {
        std::lock_guard lock(c.m);
        capture_state* cap = stream ? capture_of(c, stream) : nullptr;
        if (!cap) return fail(hipErrorIllegalState);
        if (stream != cap->origin) return fail(hipErrorStreamCaptureUnmatched);
        if (cap->mode != hipStreamCaptureModeRelaxed && cap->thread != std::this_thread::get_id())
            return fail(hipErrorStreamCaptureWrongThread);
        if (cap->invalidated) e = hipErrorStreamCaptureInvalidated;
        for (const auto& [s, state] : cap->streams)
            if (s != cap->origin && state.last_work > state.joined && e == hipSuccess)
                e = hipErrorStreamCaptureUnjoined;
        made = end(c, cap);
    }
    *graph = e == hipSuccess ? made.release() : nullptr;
    return fail(e);
}

hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus* status)
{
    return hipStreamGetCaptureInfo(stream, status, nullptr);
}

hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus* status, unsigned long long* id)
{
    if (!status) return fail(hipErrorInvalidValue);
    *status = hipStreamCaptureStatusNone;
    captures& c = the_captures();
    if (!stream || c.streams.load(std::memory_order_relaxed) == 0) return hipSuccess;
    std::lock_guard lock(c.m);
    if (const capture_state* cap = capture_of(c, stream)) {
        *status = cap->invalidated ? hipStreamCaptureStatusInvalidated : hipStreamCaptureStatusActive;
        if (id) *id = cap->id;
    }
    return hipSuccess;
}

hipError_t hipGraphCreate(hipGraph_t* graph, unsigned flags)
{
    if (!graph || flags != 0) return fail(hipErrorInvalidValue);
    *graph = new (std::nothrow) hip_cpu_graph;
    return *graph ? hipSuccess : fail(hipErrorOutOfMemory);
}

hipError_t hipGraphDestroy(hipGraph_t graph)
{
    if (!graph) return fail(hipErrorInvalidValue);
    delete graph;
    return hipSuccess;
}

hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t* nodes, size_t* count)
{
    if (!graph || !count) return fail(hipErrorInvalidValue);
    if (nodes)
        for (size_t i = 0; i < *count; ++i) nodes[i] = i < graph->nodes.size() ? graph->nodes[i].get() : nullptr;
    *count = graph->nodes.size();
    return hipSuccess;
}

hipError_t hipGraphInstantiate(hipGraphExec_t* exec, hipGraph_t graph, hipGraphNode_t* error_node, char* log,
                               size_t log_bytes)
{
    if (!exec || !graph) return fail(hipErrorInvalidValue);
    if (error_node) *error_node = nullptr;
    if (log && log_bytes > 0) log[0] = '\0';
    *exec = new (std::nothrow) hip_cpu_graph_exec{graph->nodes};
    return *exec ? hipSuccess : fail(hipErrorOutOfMemory);
}

hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t* exec, hipGraph_t graph, unsigned long long flags)
{
    const unsigned long long known = hipGraphInstantiateFlagAutoFreeOnLaunch | hipGraphInstantiateFlagUpload |
                                     hipGraphInstantiateFlagDeviceLaunch | hipGraphInstantiateFlagUseNodePriority;
    if (flags & ~known) return fail(hipErrorInvalidValue);
    return hipGraphInstantiate(exec, graph, nullptr, nullptr, 0);
}

hipError_t hipGraphLaunch(hipGraphExec_t exec, hipStream_t stream)
{
    if (!exec) return fail(hipErrorInvalidValue);
    auto run = [](const std::vector<std::shared_ptr<hip_cpu_graph_node>>& nodes, hipStream_t s) {
        for (const auto& node : nodes)
            if (const hipError_t e = node->work(s); e != hipSuccess) return fail(e);
        return hipSuccess;
    };
    if (capturing(stream)) // the graph becomes part of the one being captured
        return capture(stream, [run, nodes = exec->nodes](hipStream_t s) { return run(nodes, s); });
    return run(exec->nodes, stream);
}

hipError_t hipGraphExecDestroy(hipGraphExec_t exec)
{
    if (!exec) return fail(hipErrorInvalidValue);
    delete exec;
    return hipSuccess;
}

hipError_t hipGraphAddKernelNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* dependencies,
                                 size_t count, const hipKernelNodeParams* params)
{
    if (!node || !graph || !params || (count > 0 && !dependencies)) return fail(hipErrorInvalidValue);
    return fail(hipErrorNotSupported);
}

hipError_t hipMemPrefetchAsync(const void* ptr, size_t bytes, int device, hipStream_t stream)
{
    if (!ptr || bytes == 0) return fail(hipErrorInvalidValue);
    int devices = 0;
    if (const hipError_t e = hipGetDeviceCount(&devices); e != hipSuccess) return e;
    if (device != hipCpuDeviceId && (device < 0 || device >= devices)) return fail(hipErrorInvalidDevice);
    if (capturing(stream)) return capture(stream, [](hipStream_t) { return hipSuccess; });
    return hipSuccess;
}

} // extern "C"
