// The HIP types both of wavebench's own HIP layers define the same way (cpu/ and nvidia/
// include/hip/hip_runtime.h include this): error codes, copy directions, the device properties
// and function attributes wavebench reads. HIP's error values are CUDA's.
#pragma once

#include <cstddef>

typedef enum hipError_t : int {
    hipSuccess = 0,
    hipErrorInvalidValue = 1,
    hipErrorOutOfMemory = 2,
    hipErrorNotInitialized = 3,
    hipErrorInvalidConfiguration = 9,
    hipErrorInvalidPitchValue = 12,
    hipErrorInvalidSymbol = 13,
    hipErrorInvalidDevicePointer = 17,
    hipErrorInvalidMemcpyDirection = 21,
    hipErrorInsufficientDriver = 35,
    hipErrorInvalidDeviceFunction = 98,
    hipErrorNoDevice = 100,
    hipErrorInvalidDevice = 101,
    hipErrorInvalidImage = 200,
    hipErrorPeerAccessUnsupported = 217,
    hipErrorInvalidHandle = 400,
    hipErrorIllegalState = 401,
    hipErrorNotReady = 600,
    hipErrorIllegalAddress = 700,
    hipErrorLaunchOutOfResources = 701,
    hipErrorLaunchTimeOut = 702,
    hipErrorPeerAccessAlreadyEnabled = 704,
    hipErrorPeerAccessNotEnabled = 705,
    hipErrorAssert = 710, // a device-side assert failed
    hipErrorLaunchFailure = 719,
    hipErrorCooperativeLaunchTooLarge = 720,
    hipErrorNotSupported = 801,
    // Stream capture (HIP graphs).
    hipErrorStreamCaptureUnsupported = 900, // not allowed while the stream (or another, in global mode) captures
    hipErrorStreamCaptureInvalidated = 901, // the capture was invalidated by an earlier error
    hipErrorStreamCaptureMerge = 902,       // it would merge two captures
    hipErrorStreamCaptureUnmatched = 903,   // the capture was not begun on this stream
    hipErrorStreamCaptureUnjoined = 904,    // a stream forked from the capture was not joined back
    hipErrorStreamCaptureIsolation = 905,
    hipErrorStreamCaptureImplicit = 906,
    hipErrorCapturedEvent = 907,            // the event was last recorded in a capturing stream
    hipErrorStreamCaptureWrongThread = 908, // ended on another thread than the one that began it
    hipErrorUnknown = 999,
} hipError_t;
#define HIP_SUCCESS hipSuccess // the older spelling, which ROCm's samples still use

// HIP's older spellings of the indices, still in ROCm's headers (threadIdx ... are each layer's own).
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)

/// HIP's name of an error above, or nullptr for any other value.
inline const char* hip_subset_error_name(hipError_t e)
{
    switch (e) {
    case hipSuccess:
        return "hipSuccess";
    case hipErrorInvalidValue:
        return "hipErrorInvalidValue";
    case hipErrorOutOfMemory:
        return "hipErrorOutOfMemory";
    case hipErrorNotInitialized:
        return "hipErrorNotInitialized";
    case hipErrorInvalidConfiguration:
        return "hipErrorInvalidConfiguration";
    case hipErrorInvalidPitchValue:
        return "hipErrorInvalidPitchValue";
    case hipErrorInvalidSymbol:
        return "hipErrorInvalidSymbol";
    case hipErrorInvalidDevicePointer:
        return "hipErrorInvalidDevicePointer";
    case hipErrorInvalidMemcpyDirection:
        return "hipErrorInvalidMemcpyDirection";
    case hipErrorInsufficientDriver:
        return "hipErrorInsufficientDriver";
    case hipErrorInvalidDeviceFunction:
        return "hipErrorInvalidDeviceFunction";
    case hipErrorNoDevice:
        return "hipErrorNoDevice";
    case hipErrorInvalidDevice:
        return "hipErrorInvalidDevice";
    case hipErrorAssert:
        return "hipErrorAssert";
    case hipErrorInvalidImage:
        return "hipErrorInvalidImage";
    case hipErrorPeerAccessUnsupported:
        return "hipErrorPeerAccessUnsupported";
    case hipErrorInvalidHandle:
        return "hipErrorInvalidHandle";
    case hipErrorIllegalState:
        return "hipErrorIllegalState";
    case hipErrorNotReady:
        return "hipErrorNotReady";
    case hipErrorIllegalAddress:
        return "hipErrorIllegalAddress";
    case hipErrorLaunchOutOfResources:
        return "hipErrorLaunchOutOfResources";
    case hipErrorLaunchTimeOut:
        return "hipErrorLaunchTimeOut";
    case hipErrorPeerAccessAlreadyEnabled:
        return "hipErrorPeerAccessAlreadyEnabled";
    case hipErrorPeerAccessNotEnabled:
        return "hipErrorPeerAccessNotEnabled";
    case hipErrorLaunchFailure:
        return "hipErrorLaunchFailure";
    case hipErrorCooperativeLaunchTooLarge:
        return "hipErrorCooperativeLaunchTooLarge";
    case hipErrorNotSupported:
        return "hipErrorNotSupported";
    case hipErrorStreamCaptureUnsupported:
        return "hipErrorStreamCaptureUnsupported";
    case hipErrorStreamCaptureInvalidated:
        return "hipErrorStreamCaptureInvalidated";
    case hipErrorStreamCaptureMerge:
        return "hipErrorStreamCaptureMerge";
    case hipErrorStreamCaptureUnmatched:
        return "hipErrorStreamCaptureUnmatched";
    case hipErrorStreamCaptureUnjoined:
        return "hipErrorStreamCaptureUnjoined";
    case hipErrorStreamCaptureIsolation:
        return "hipErrorStreamCaptureIsolation";
    case hipErrorStreamCaptureImplicit:
        return "hipErrorStreamCaptureImplicit";
    case hipErrorCapturedEvent:
        return "hipErrorCapturedEvent";
    case hipErrorStreamCaptureWrongThread:
        return "hipErrorStreamCaptureWrongThread";
    case hipErrorUnknown:
        return "hipErrorUnknown";
    }
    return nullptr;
}

typedef enum hipMemcpyKind {
    hipMemcpyHostToHost = 0,
    hipMemcpyHostToDevice = 1,
    hipMemcpyDeviceToHost = 2,
    hipMemcpyDeviceToDevice = 3,
    hipMemcpyDefault = 4,
} hipMemcpyKind;

// Flags of hipStreamCreateWithFlags, hipHostMalloc and hipHostRegister, with HIP's (and CUDA's) values.
#define hipStreamDefault 0x00
#define hipStreamNonBlocking 0x01
#define hipHostMallocDefault 0x0
#define hipHostMallocPortable 0x1
#define hipHostMallocMapped 0x2
#define hipHostMallocWriteCombined 0x4
#define hipHostRegisterDefault 0x0
#define hipHostRegisterPortable 0x1
#define hipHostRegisterMapped 0x2
#define hipHostRegisterIoMemory 0x4

/// The device attributes of hipDeviceGetAttribute that wavebench's layers answer (HIP's names; the
/// values are this header's own: code uses the names).
typedef enum hipDeviceAttribute_t {
    hipDeviceAttributeMaxThreadsPerBlock,
    hipDeviceAttributeWarpSize,
    hipDeviceAttributeMultiprocessorCount,
    hipDeviceAttributeMaxSharedMemoryPerBlock,
    hipDeviceAttributeCooperativeLaunch,
    hipDeviceAttributeComputeCapabilityMajor,
    hipDeviceAttributeComputeCapabilityMinor,
    hipDeviceAttributeClockRate,
    hipDeviceAttributeL2CacheSize,
    hipDeviceAttributeMaxBlockDimX,
    hipDeviceAttributeMaxGridDimX,
    hipDeviceAttributeConcurrentManagedAccess,
} hipDeviceAttribute_t;

typedef struct hipDeviceProp_t {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;       // kHz
    int memoryClockRate; // kHz (0: unknown)
    int memoryBusWidth;  // bits (0: unknown)
    size_t totalConstMem;
    int major;
    int minor;
    int multiProcessorCount;
    int l2CacheSize;
    int maxThreadsPerMultiProcessor;
    size_t maxSharedMemoryPerMultiProcessor;
    int regsPerMultiprocessor;
    int cooperativeLaunch;            // grid-wide synchronization (hipLaunchCooperativeKernel)
    int maxBlocksPerMultiProcessor;   // not in HIP 5.2: wavebench's occupancy model needs it
    size_t reservedSharedMemPerBlock; // likewise
    char gcnArchName[256];
} hipDeviceProp_t;

typedef struct hipFuncAttributes {
    int binaryVersion;
    int cacheModeCA;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxDynamicSharedSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int preferredShmemCarveout;
    int ptxVersion;
    size_t sharedSizeBytes;
} hipFuncAttributes;
