// The cpu platform's graphs and stream capture (graphs.cpp), included by hip_runtime.h inside its
// extern "C" block.
#pragma once

// ---- graphs and stream capture (graphs.cpp) ---------------------------------------------------------
/// While a stream captures, what is issued to it (launches, copies, fills, host functions, graph
/// launches; and to the streams that wait on an event recorded in it) is recorded, not run; the
/// graph made of it runs it all again, in the order it was issued, at each hipGraphLaunch. A
/// launch's arguments are read from a copy of the variables it names, made at capture.
typedef struct hip_cpu_graph* hipGraph_t;
typedef struct hip_cpu_graph_exec* hipGraphExec_t;
typedef struct hip_cpu_graph_node* hipGraphNode_t;
typedef enum hipStreamCaptureMode {
    hipStreamCaptureModeGlobal = 0,
    hipStreamCaptureModeThreadLocal,
    hipStreamCaptureModeRelaxed,
} hipStreamCaptureMode;
typedef enum hipStreamCaptureStatus {
    hipStreamCaptureStatusNone = 0,
    hipStreamCaptureStatusActive,
    hipStreamCaptureStatusInvalidated,
} hipStreamCaptureStatus;
typedef enum hipGraphInstantiateFlags {
    hipGraphInstantiateFlagAutoFreeOnLaunch = 1,
    hipGraphInstantiateFlagUpload = 2,
    hipGraphInstantiateFlagDeviceLaunch = 4,
    hipGraphInstantiateFlagUseNodePriority = 8,
} hipGraphInstantiateFlags;
typedef struct hipKernelNodeParams {
    dim3 blockDim;
    void** extra;
    void* func;
    dim3 gridDim;
    void** kernelParams;
    unsigned int sharedMemBytes;
} hipKernelNodeParams;
hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode);
hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t* graph);
hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus* status);
hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus* status,
                                   unsigned long long* id = nullptr);
hipError_t hipGraphCreate(hipGraph_t* graph, unsigned flags);
hipError_t hipGraphDestroy(hipGraph_t graph);
hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t* nodes, size_t* count);
/// The executable graph: the graph's work as it is now (later changes to the graph do not reach it).
hipError_t hipGraphInstantiate(hipGraphExec_t* exec, hipGraph_t graph, hipGraphNode_t* error_node, char* log,
                               size_t log_bytes);
hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t* exec, hipGraph_t graph, unsigned long long flags);
hipError_t hipGraphLaunch(hipGraphExec_t exec, hipStream_t stream);
hipError_t hipGraphExecDestroy(hipGraphExec_t exec);
/// hipErrorNotSupported: the cpu platform calls a kernel through its type, which `func` (a void*)
/// has lost; capture the launch instead.
hipError_t hipGraphAddKernelNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* dependencies,
                                 size_t count, const hipKernelNodeParams* params);
