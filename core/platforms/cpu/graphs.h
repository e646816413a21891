// What the CPU runtime's host API asks of stream capture (graphs.cpp): whether a stream captures,
// recording work on it, and the calls a capture forbids.
#pragma once

#include <hip/hip_runtime.h>

#include <functional>

#pragma GCC visibility push(hidden) // the runtime's own: not exported from the library
namespace cpu_runtime {

/// Work recorded in a graph: run at each launch of the graph, on the stream it is launched on.
using graph_work = std::function<hipError_t(hipStream_t)>;

/// Whether `stream` captures (cheap while nothing captures).
bool capturing(hipStream_t stream);

/// Records `work` in the graph that `stream` captures into (hipErrorStreamCaptureInvalidated once the
/// capture has been invalidated, or when `stream` does not capture).
hipError_t capture(hipStream_t stream, graph_work work);

/// hipSuccess, or hipErrorStreamCaptureUnsupported for a synchronous call (hipMalloc, hipMemcpy ...)
/// that a capture forbids now: one in global mode on any thread, or one in thread-local mode begun
/// by this thread. Those captures are invalidated, as on a GPU.
hipError_t unsafe_while_capturing();

/// hipSuccess, or hipErrorStreamCaptureUnsupported for a call that waits for `stream` (or adds a
/// callback to it) while it captures; its capture is invalidated.
hipError_t waits_for_capturing(hipStream_t stream);

/// hipEventRecord on `stream`: when it captures, the event is marked as recorded in its capture
/// (`*e` the outcome) and true is returned; false otherwise.
bool record_event_in_capture(hipStream_t stream, hipEvent_t event, hipError_t* e);

/// hipStreamWaitEvent: a stream that waits for an event recorded in a capture joins that capture.
hipError_t wait_event_in_capture(hipStream_t stream, hipEvent_t event);

/// Whether `event` was last recorded in a stream that still captures (hipErrorCapturedEvent to query it).
bool event_in_capture(hipEvent_t event);

/// A stream or event destroyed: no capture refers to it any more.
void forget_stream(hipStream_t stream);
void forget_event(hipEvent_t event);

} // namespace cpu_runtime
#pragma GCC visibility pop
