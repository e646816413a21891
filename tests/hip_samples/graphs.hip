// Graphs made by stream capture: fills, launches (one with dynamic shared memory), a copy to a
// constant, a copy back and a host function recorded on a stream (nothing runs while it captures),
// instantiated and launched several times; launch arguments taken as they are when the launch is
// captured (a loop's variable; a function's parameters and locals, gone when the graph runs); a
// fork into a second stream and the join back; the capture queries; what a capture refuses
// (waiting for the stream invalidates it, a fork not joined back, the end on another stream, the
// null stream, a synchronous allocation in global mode); a graph launched inside another capture;
// an empty graph; and hipMemPrefetchAsync on managed memory.
#include <hip/hip_runtime.h>

#include "sample_utils.h"

#include <algorithm>
#include <vector>

__constant__ int bias;

__global__ void add(int* data, int n, int value)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] += value;
}

__global__ void add_bias(int* data, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] += bias;
}

__global__ void scale_staged(int* data, int n, int factor)
{
    extern __shared__ int staged[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    staged[threadIdx.x] = i < n ? data[i] : 0;
    __syncthreads();
    if (i < n) data[i] = staged[blockDim.x - 1 - threadIdx.x] * factor;
}

void count_call(void* counter) { ++*static_cast<int*>(counter); }

const int n = 1024, threads = 128, blocks = n / threads;

int status_is(hipStream_t stream, hipStreamCaptureStatus expected)
{
    hipStreamCaptureStatus status = hipStreamCaptureStatusInvalidated;
    if (expected == hipStreamCaptureStatusInvalidated) status = hipStreamCaptureStatusNone;
    SAMPLE_CHECK(hipStreamIsCapturing(stream, &status));
    return status == expected;
}

/// A sequence captured once and launched three times (`host`: n + 1 ints of pinned host memory).
int check_capture(int* d, int* host)
{
    int errors = 0;
    hipStream_t s;
    SAMPLE_CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
    int calls = 0;
    int* ten = host + n; // what the copy to the constant reads when the graph runs
    *ten = 10;
    std::fill(host, host + n, -1);
    errors += !status_is(s, hipStreamCaptureStatusNone);
    SAMPLE_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
    errors += !status_is(s, hipStreamCaptureStatusActive);
    hipStreamCaptureStatus status = hipStreamCaptureStatusNone;
    unsigned long long id = 0;
    SAMPLE_CHECK(hipStreamGetCaptureInfo(s, &status, &id));
    errors += status != hipStreamCaptureStatusActive;
    SAMPLE_CHECK(hipMemsetAsync(d, 0, n * sizeof(int), s));
    for (int k = 1; k <= 3; ++k) add<<<blocks, threads, 0, s>>>(d, n, k); // 1 + 2 + 3: each k as it was then
    SAMPLE_CHECK(hipMemcpyToSymbolAsync(HIP_SYMBOL(bias), ten, sizeof(int), 0, hipMemcpyHostToDevice, s));
    hipLaunchKernelGGL(add_bias, dim3(blocks), dim3(threads), 0, s, d, n);
    hipLaunchKernelGGL(scale_staged, dim3(blocks), dim3(threads), threads * sizeof(int), s, d, n, 2);
    SAMPLE_CHECK(hipMemcpyAsync(host, d, n * sizeof(int), hipMemcpyDeviceToHost, s));
    SAMPLE_CHECK(hipLaunchHostFunc(s, count_call, &calls));
    hipGraph_t graph = nullptr;
    SAMPLE_CHECK(hipStreamEndCapture(s, &graph));
    errors += !status_is(s, hipStreamCaptureStatusNone);
    errors += calls != 0 || host[0] != -1; // nothing ran while the stream captured

    size_t count = 0;
    SAMPLE_CHECK(hipGraphGetNodes(graph, nullptr, &count));
    errors += count != 9; // the fill, three adds, the copy to the constant, two launches, the copy, the host function
    std::vector<hipGraphNode_t> nodes(count + 1);
    size_t asked = nodes.size();
    SAMPLE_CHECK(hipGraphGetNodes(graph, nodes.data(), &asked));
    errors += asked != count || nodes[0] == nullptr || nodes[count] != nullptr;

    hipGraphExec_t exec;
    SAMPLE_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
    SAMPLE_CHECK(hipGraphDestroy(graph)); // the executable graph keeps what it runs
    for (int launch = 1; launch <= 3; ++launch) {
        std::fill(host, host + n, -1);
        *ten = 10 * launch;
        SAMPLE_CHECK(hipGraphLaunch(exec, s));
        SAMPLE_CHECK(hipStreamSynchronize(s));
        for (int i = 0; i < n; ++i) errors += host[i] != 2 * (6 + 10 * launch);
        errors += calls != launch;
    }
    SAMPLE_CHECK(hipGraphExecDestroy(exec));
    SAMPLE_CHECK(hipStreamDestroy(s));
    return errors;
}

/// A capture in a function of its own: the launches' arguments are its parameters and a local,
/// gone (their stack reused by the next call) when the graph runs.
hipGraphExec_t make_fill(hipStream_t s, int* d, int count, int value)
{
    const int doubled = 2 * value;
    SAMPLE_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeThreadLocal));
    SAMPLE_CHECK(hipMemsetAsync(d, 0, count * sizeof(int), s));
    add<<<(count + 127) / 128, 128, 0, s>>>(d, count, doubled);
    hipLaunchKernelGGL(add, dim3((count + 127) / 128), dim3(128), 0, s, d, count, value);
    hipGraph_t graph;
    SAMPLE_CHECK(hipStreamEndCapture(s, &graph));
    hipGraphExec_t exec;
    SAMPLE_CHECK(hipGraphInstantiateWithFlags(&exec, graph, 0));
    SAMPLE_CHECK(hipGraphDestroy(graph));
    return exec;
}

int check_arguments(int* d)
{
    int errors = 0;
    hipStream_t s;
    SAMPLE_CHECK(hipStreamCreate(&s));
    hipGraphExec_t seven = make_fill(s, d, n, 7), five = make_fill(s, d + n, n / 2, 5);
    SAMPLE_CHECK(hipMemset(d, 0xff, 2 * n * sizeof(int)));
    SAMPLE_CHECK(hipGraphLaunch(five, s));
    SAMPLE_CHECK(hipGraphLaunch(seven, s));
    SAMPLE_CHECK(hipStreamSynchronize(s));
    std::vector<int> host(2 * n);
    SAMPLE_CHECK(hipMemcpy(host.data(), d, host.size() * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) errors += host[i] != 21;
    for (int i = n; i < n + n / 2; ++i) errors += host[i] != 15;
    for (int i = n + n / 2; i < 2 * n; ++i) errors += host[i] != -1; // beyond the second graph's fill
    SAMPLE_CHECK(hipGraphExecDestroy(seven));
    SAMPLE_CHECK(hipGraphExecDestroy(five));
    SAMPLE_CHECK(hipStreamDestroy(s));
    return errors;
}

/// A second stream forked from the capture (waiting for an event recorded in it) and joined back.
int check_fork_join(int* d)
{
    int errors = 0;
    hipStream_t first, second;
    SAMPLE_CHECK(hipStreamCreate(&first));
    SAMPLE_CHECK(hipStreamCreate(&second));
    hipEvent_t fork, join;
    SAMPLE_CHECK(hipEventCreateWithFlags(&fork, hipEventDisableTiming));
    SAMPLE_CHECK(hipEventCreateWithFlags(&join, hipEventDisableTiming));
    SAMPLE_CHECK(hipStreamBeginCapture(first, hipStreamCaptureModeGlobal));
    SAMPLE_CHECK(hipMemsetAsync(d, 0, 2 * n * sizeof(int), first));
    SAMPLE_CHECK(hipEventRecord(fork, first));
    SAMPLE_CHECK(hipStreamWaitEvent(second, fork, 0));
    errors += !status_is(second, hipStreamCaptureStatusActive); // it captures into the same graph
    add<<<blocks, threads, 0, first>>>(d, n, 1);
    add<<<blocks, threads, 0, second>>>(d + n, n, 2);
    SAMPLE_CHECK(hipEventRecord(join, second));
    SAMPLE_CHECK(hipStreamWaitEvent(first, join, 0));
    add<<<blocks, threads, 0, first>>>(d + n, n, 3); // after the second stream's add
    hipGraph_t graph;
    SAMPLE_CHECK(hipStreamEndCapture(first, &graph));
    errors += !status_is(second, hipStreamCaptureStatusNone);
    hipGraphExec_t exec;
    SAMPLE_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
    for (int launch = 0; launch < 2; ++launch) SAMPLE_CHECK(hipGraphLaunch(exec, first));
    SAMPLE_CHECK(hipStreamSynchronize(first));
    std::vector<int> host(2 * n);
    SAMPLE_CHECK(hipMemcpy(host.data(), d, host.size() * sizeof(int), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) errors += host[i] != 1 || host[n + i] != 5;
    SAMPLE_CHECK(hipGraphExecDestroy(exec));
    SAMPLE_CHECK(hipGraphDestroy(graph));
    SAMPLE_CHECK(hipEventDestroy(fork));
    SAMPLE_CHECK(hipEventDestroy(join));
    SAMPLE_CHECK(hipStreamDestroy(first));
    SAMPLE_CHECK(hipStreamDestroy(second));
    return errors;
}

/// What a capture refuses, with HIP's errors.
int check_refusals(int* d)
{
    int errors = 0;
    hipStream_t s, other;
    SAMPLE_CHECK(hipStreamCreate(&s));
    SAMPLE_CHECK(hipStreamCreate(&other));
    hipEvent_t fork;
    SAMPLE_CHECK(hipEventCreate(&fork));
    hipGraph_t graph = nullptr;
    errors += hipStreamEndCapture(s, &graph) != hipErrorIllegalState; // it does not capture
    errors += hipStreamBeginCapture(nullptr, hipStreamCaptureModeGlobal) != hipErrorStreamCaptureUnsupported;
    (void)hipGetLastError();

    // Waiting for the capturing stream: refused, and the capture is invalidated.
    SAMPLE_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
    errors += hipStreamBeginCapture(s, hipStreamCaptureModeGlobal) != hipErrorIllegalState; // already
    add<<<1, 1, 0, s>>>(d, 1, 1);
    errors += hipStreamSynchronize(s) != hipErrorStreamCaptureUnsupported;
    errors += !status_is(s, hipStreamCaptureStatusInvalidated);
    graph = reinterpret_cast<hipGraph_t>(&errors);
    errors += hipStreamEndCapture(s, &graph) != hipErrorStreamCaptureInvalidated || graph != nullptr;
    errors += !status_is(s, hipStreamCaptureStatusNone);
    (void)hipGetLastError();

    // A fork ended on its own stream (then joined back and ended where it began; whether the capture
    // is still valid then is left open), and a fork not joined back.
    hipEvent_t join;
    SAMPLE_CHECK(hipEventCreate(&join));
    SAMPLE_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
    SAMPLE_CHECK(hipEventRecord(fork, s));
    SAMPLE_CHECK(hipStreamWaitEvent(other, fork, 0));
    errors += hipStreamEndCapture(other, &graph) != hipErrorStreamCaptureUnmatched;
    (void)hipEventRecord(join, other);
    (void)hipStreamWaitEvent(s, join, 0);
    graph = nullptr;
    const hipError_t ended = hipStreamEndCapture(s, &graph);
    errors += ended != hipSuccess && ended != hipErrorStreamCaptureInvalidated;
    if (graph) SAMPLE_CHECK(hipGraphDestroy(graph));
    errors += !status_is(s, hipStreamCaptureStatusNone);
    SAMPLE_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
    SAMPLE_CHECK(hipEventRecord(fork, s));
    SAMPLE_CHECK(hipStreamWaitEvent(other, fork, 0));
    add<<<1, 1, 0, other>>>(d, 1, 1);
    errors += hipStreamEndCapture(s, &graph) != hipErrorStreamCaptureUnjoined;
    errors += !status_is(s, hipStreamCaptureStatusNone);
    SAMPLE_CHECK(hipEventDestroy(join));
    (void)hipGetLastError();

    // A synchronous allocation while a capture in global mode is on: refused (the capture is
    // invalidated); in relaxed mode: allowed.
    SAMPLE_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
    int* p = nullptr;
    errors += hipMalloc(&p, sizeof(int)) != hipErrorStreamCaptureUnsupported;
    errors += hipStreamEndCapture(s, &graph) != hipErrorStreamCaptureInvalidated;
    (void)hipGetLastError();
    SAMPLE_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeRelaxed));
    SAMPLE_CHECK(hipMalloc(&p, sizeof(int)));
    SAMPLE_CHECK(hipStreamEndCapture(s, &graph));
    SAMPLE_CHECK(hipGraphDestroy(graph));
    SAMPLE_CHECK(hipFree(p));

    SAMPLE_CHECK(hipEventDestroy(fork));
    SAMPLE_CHECK(hipStreamDestroy(s));
    SAMPLE_CHECK(hipStreamDestroy(other));
    return errors;
}

/// A graph launched in another capture (it becomes part of that graph), and an empty graph.
int check_nested(int* d)
{
    int errors = 0;
    hipStream_t s;
    SAMPLE_CHECK(hipStreamCreate(&s));
    SAMPLE_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
    add<<<blocks, threads, 0, s>>>(d, n, 1);
    hipGraph_t inner_graph, outer_graph, empty_graph;
    SAMPLE_CHECK(hipStreamEndCapture(s, &inner_graph));
    hipGraphExec_t inner, outer, empty;
    SAMPLE_CHECK(hipGraphInstantiate(&inner, inner_graph, nullptr, nullptr, 0));
    SAMPLE_CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
    SAMPLE_CHECK(hipMemsetAsync(d, 0, n * sizeof(int), s));
    for (int k = 0; k < 3; ++k) SAMPLE_CHECK(hipGraphLaunch(inner, s));
    SAMPLE_CHECK(hipStreamEndCapture(s, &outer_graph));
    SAMPLE_CHECK(hipGraphInstantiate(&outer, outer_graph, nullptr, nullptr, 0));
    SAMPLE_CHECK(hipGraphLaunch(outer, s));
    SAMPLE_CHECK(hipGraphLaunch(inner, s));
    SAMPLE_CHECK(hipStreamSynchronize(s));
    std::vector<int> host(n);
    SAMPLE_CHECK(hipMemcpy(host.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
    for (int v : host) errors += v != 4;

    SAMPLE_CHECK(hipGraphCreate(&empty_graph, 0));
    size_t count = 1;
    SAMPLE_CHECK(hipGraphGetNodes(empty_graph, nullptr, &count));
    errors += count != 0;
    SAMPLE_CHECK(hipGraphInstantiate(&empty, empty_graph, nullptr, nullptr, 0));
    SAMPLE_CHECK(hipGraphLaunch(empty, s));
    SAMPLE_CHECK(hipStreamSynchronize(s));
    for (hipGraphExec_t e : {inner, outer, empty}) SAMPLE_CHECK(hipGraphExecDestroy(e));
    for (hipGraph_t g : {inner_graph, outer_graph, empty_graph}) SAMPLE_CHECK(hipGraphDestroy(g));
    SAMPLE_CHECK(hipStreamDestroy(s));
    return errors;
}

/// Managed memory prefetched to the device and back to the host.
int check_prefetch()
{
    int errors = 0, device = 0, concurrent = 0;
    SAMPLE_CHECK(hipGetDevice(&device));
    SAMPLE_CHECK(hipDeviceGetAttribute(&concurrent, hipDeviceAttributeConcurrentManagedAccess, device));
    int* managed;
    SAMPLE_CHECK(hipMallocManaged(&managed, n * sizeof(int)));
    for (int i = 0; i < n; ++i) managed[i] = i;
    hipStream_t s;
    SAMPLE_CHECK(hipStreamCreate(&s));
    if (concurrent) SAMPLE_CHECK(hipMemPrefetchAsync(managed, n * sizeof(int), device, s));
    add<<<blocks, threads, 0, s>>>(managed, n, 1);
    if (concurrent) SAMPLE_CHECK(hipMemPrefetchAsync(managed, n * sizeof(int), hipCpuDeviceId, s));
    SAMPLE_CHECK(hipStreamSynchronize(s));
    for (int i = 0; i < n; ++i) errors += managed[i] != i + 1;
    errors += hipMemPrefetchAsync(nullptr, 4, device, s) != hipErrorInvalidValue;
    (void)hipGetLastError();
    SAMPLE_CHECK(hipStreamDestroy(s));
    SAMPLE_CHECK(hipFree(managed));
    return errors;
}

int main()
{
    int *d, *host;
    SAMPLE_CHECK(hipMalloc(&d, 2 * n * sizeof(int)));
    SAMPLE_CHECK(hipHostMalloc(&host, (n + 1) * sizeof(int)));
    int errors = 0;
    errors += check_capture(d, host);
    errors += check_arguments(d);
    errors += check_fork_join(d);
    errors += check_refusals(d);
    errors += check_nested(d);
    errors += check_prefetch();
    SAMPLE_CHECK(hipHostFree(host));
    SAMPLE_CHECK(hipFree(d));
    return sample_result("graphs", errors);
}
