// Our own declarations of the part of CUPTI 13 that counters/cupti.cpp calls: the Profiler Host and
// Range Profiler parameter structs, the callback record, and the result codes used. The library is
// loaded at run time (never linked) and the build machine may have no CUDA, so the layouts are
// written here; tests/cupti_layout_test.cpp checks every offset against NVIDIA's headers wherever
// they are installed. CUPTI reads each struct's size from its first field and accepts the size of
// an older release, so these 13.0 layouts keep working with a newer libcupti.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wb::cupti {

using result = int; // CUptiResult
enum : int {
    success = 0,
    error_invalid_parameter = 1,
    error_not_initialized = 15,
    error_invalid_metric_name = 17,
    error_not_supported = 27,
    error_insufficient_privileges = 35,
    error_multiple_subscribers = 39,
    error_virtualized_insufficient_privileges = 40,
};

enum : int { profiler_type_range = 0 };                   // CUpti_ProfilerType
enum : int { auto_range = 1 };                            // CUpti_ProfilerRange
enum : int { kernel_replay = 2 };                         // CUpti_ProfilerReplayMode
enum : int { domain_driver_api = 1, domain_runtime = 2 }; // CUpti_CallbackDomain
enum : int { api_enter = 0 };                             // CUpti_ApiCallbackSite

/// The size CUPTI reads from a struct's first field: up to the end of its last member.
#define WB_CUPTI_SIZE(type, last) (offsetof(type, last) + sizeof(type::last))

struct initialize_params { // CUpti_Profiler_Initialize_Params, CUpti_Profiler_DeInitialize_Params
    size_t structSize;
    void* pPriv;
};
struct chip_name_params { // CUpti_Device_GetChipName_Params
    size_t structSize;
    void* pPriv;
    size_t deviceIndex;
    const char* pChipName;
};
struct host_initialize_params { // CUpti_Profiler_Host_Initialize_Params
    size_t structSize;
    void* pPriv;
    int profilerType;
    const char* pChipName;
    const uint8_t* pCounterAvailabilityImage;
    void* pHostObject;
};
struct host_deinitialize_params { // CUpti_Profiler_Host_Deinitialize_Params
    size_t structSize;
    void* pPriv;
    void* pHostObject;
};
struct config_add_metrics_params { // CUpti_Profiler_Host_ConfigAddMetrics_Params
    size_t structSize;
    void* pPriv;
    void* pHostObject;
    const char** ppMetricNames;
    size_t numMetrics;
};
struct config_image_size_params { // CUpti_Profiler_Host_GetConfigImageSize_Params
    size_t structSize;
    void* pPriv;
    void* pHostObject;
    size_t configImageSize;
};
struct config_image_params { // CUpti_Profiler_Host_GetConfigImage_Params
    size_t structSize;
    void* pPriv;
    void* pHostObject;
    size_t configImageSize;
    uint8_t* pConfigImage;
};
struct num_passes_params { // CUpti_Profiler_Host_GetNumOfPasses_Params
    size_t structSize;
    void* pPriv;
    size_t configImageSize;
    uint8_t* pConfigImage;
    size_t numOfPasses;
};
struct evaluate_params { // CUpti_Profiler_Host_EvaluateToGpuValues_Params
    size_t structSize;
    void* pPriv;
    void* pHostObject;
    const uint8_t* pCounterDataImage;
    size_t counterDataImageSize;
    size_t rangeIndex;
    const char** ppMetricNames;
    size_t numMetrics;
    double* pMetricValues;
};
struct enable_params { // CUpti_RangeProfiler_Enable_Params
    size_t structSize;
    void* pPriv;
    void* ctx;
    void* pRangeProfilerObject;
};
struct object_params { // CUpti_RangeProfiler_Disable_Params, CUpti_RangeProfiler_Start_Params
    size_t structSize;
    void* pPriv;
    void* pRangeProfilerObject;
};
struct counter_data_size_params { // CUpti_RangeProfiler_GetCounterDataSize_Params
    size_t structSize;
    void* pPriv;
    void* pRangeProfilerObject;
    const char** pMetricNames;
    size_t numMetrics;
    size_t maxNumOfRanges;
    uint32_t maxNumRangeTreeNodes;
    size_t counterDataSize;
};
struct counter_data_init_params { // CUpti_RangeProfiler_CounterDataImage_Initialize_Params
    size_t structSize;
    void* pPriv;
    void* pRangeProfilerObject;
    size_t counterDataSize;
    uint8_t* pCounterData;
};
struct set_config_params { // CUpti_RangeProfiler_SetConfig_Params
    size_t structSize;
    void* pPriv;
    void* pRangeProfilerObject;
    size_t configSize;
    const uint8_t* pConfig;
    size_t counterDataImageSize;
    uint8_t* pCounterDataImage;
    int range;
    int replayMode;
    size_t maxRangesPerPass;
    uint16_t numNestingLevels;
    uint16_t minNestingLevel;
    size_t passIndex;
    uint16_t targetNestingLevel;
};
struct stop_params { // CUpti_RangeProfiler_Stop_Params
    size_t structSize;
    void* pPriv;
    void* pRangeProfilerObject;
    size_t passIndex;
    size_t targetNestingLevel;
    uint8_t isAllPassSubmitted;
};
struct decode_params { // CUpti_RangeProfiler_DecodeData_Params
    size_t structSize;
    void* pPriv;
    void* pRangeProfilerObject;
    size_t numOfRangeDropped;
};
struct counter_data_info_params { // CUpti_RangeProfiler_GetCounterDataInfo_Params
    size_t structSize;
    void* pPriv;
    const uint8_t* pCounterDataImage;
    size_t counterDataImageSize;
    size_t numTotalRanges;
};
struct callback_data { // CUpti_CallbackData (what a callback of the API domains receives)
    int callbackSite;
    const char* functionName;
    const void* functionParams;
    void* functionReturnValue;
    const char* symbolName;
    void* context;
    uint32_t contextUid;
    uint64_t* correlationData;
    uint32_t correlationId;
};

using callback_fn = void (*)(void* userdata, int domain, uint32_t cbid, const void* data);

/// The functions called, by the names libcupti exports.
struct api {
    result (*get_result_string)(result, const char**);                      // cuptiGetResultString
    result (*profiler_initialize)(initialize_params*);                      // cuptiProfilerInitialize
    result (*chip_name)(chip_name_params*);                                 // cuptiDeviceGetChipName
    result (*host_initialize)(host_initialize_params*);                     // cuptiProfilerHostInitialize
    result (*host_deinitialize)(host_deinitialize_params*);                 // cuptiProfilerHostDeinitialize
    result (*config_add_metrics)(config_add_metrics_params*);               // cuptiProfilerHostConfigAddMetrics
    result (*config_image_size)(config_image_size_params*);                 // cuptiProfilerHostGetConfigImageSize
    result (*config_image)(config_image_params*);                           // cuptiProfilerHostGetConfigImage
    result (*num_passes)(num_passes_params*);                               // cuptiProfilerHostGetNumOfPasses
    result (*evaluate)(evaluate_params*);                                   // cuptiProfilerHostEvaluateToGpuValues
    result (*enable)(enable_params*);                                       // cuptiRangeProfilerEnable
    result (*disable)(object_params*);                                      // cuptiRangeProfilerDisable
    result (*counter_data_size)(counter_data_size_params*);                 // cuptiRangeProfilerGetCounterDataSize
    result (*counter_data_init)(counter_data_init_params*);                 // ..CounterDataImageInitialize
    result (*set_config)(set_config_params*);                               // cuptiRangeProfilerSetConfig
    result (*start)(object_params*);                                        // cuptiRangeProfilerStart
    result (*stop)(stop_params*);                                           // cuptiRangeProfilerStop
    result (*decode)(decode_params*);                                       // cuptiRangeProfilerDecodeData
    result (*counter_data_info)(counter_data_info_params*);                 // ..GetCounterDataInfo
    result (*subscribe)(void** subscriber, callback_fn, void* userdata);    // cuptiSubscribe
    result (*unsubscribe)(void* subscriber);                                // cuptiUnsubscribe
    result (*enable_domain)(uint32_t enable, void* subscriber, int domain); // cuptiEnableDomain
    // libcuda's, for the context the HIP layer made current (CUcontext, CUdevice).
    int (*ctx_get_current)(void** ctx); // cuCtxGetCurrent
    int (*ctx_get_device)(int* device); // cuCtxGetDevice
};

} // namespace wb::cupti
