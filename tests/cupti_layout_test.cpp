// Our declarations of CUPTI's structs (harness/counters/cupti_api.h) against NVIDIA's own headers:
// every member at the same offset, every struct of the same size. Built where the CUDA toolkit's
// CUPTI headers are found (tests/CMakeLists.txt), since the library is loaded at run time.
#define BOOST_TEST_MODULE cupti_layout
#include <boost/test/unit_test.hpp>

#include "harness/counters/cupti_api.h"

#include <cupti_callbacks.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#define SAME(ours, theirs, ours_field, theirs_field)                                                                   \
    static_assert(offsetof(wb::cupti::ours, ours_field) == offsetof(theirs, theirs_field), #theirs "." #theirs_field)
#define SAME_SIZE(ours, theirs) static_assert(sizeof(wb::cupti::ours) == sizeof(theirs), #theirs)
#define LAST(ours, theirs, field)                                                                                      \
    static_assert(WB_CUPTI_SIZE(wb::cupti::ours, field) == theirs##_STRUCT_SIZE, #theirs " struct size")

LAST(initialize_params, CUpti_Profiler_Initialize_Params, pPriv);
LAST(chip_name_params, CUpti_Device_GetChipName_Params, pChipName);
SAME(chip_name_params, CUpti_Device_GetChipName_Params, deviceIndex, deviceIndex);
LAST(host_initialize_params, CUpti_Profiler_Host_Initialize_Params, pHostObject);
SAME(host_initialize_params, CUpti_Profiler_Host_Initialize_Params, pChipName, pChipName);
SAME(host_initialize_params, CUpti_Profiler_Host_Initialize_Params, pCounterAvailabilityImage,
     pCounterAvailabilityImage);
LAST(host_deinitialize_params, CUpti_Profiler_Host_Deinitialize_Params, pHostObject);
LAST(config_add_metrics_params, CUpti_Profiler_Host_ConfigAddMetrics_Params, numMetrics);
SAME(config_add_metrics_params, CUpti_Profiler_Host_ConfigAddMetrics_Params, ppMetricNames, ppMetricNames);
LAST(config_image_size_params, CUpti_Profiler_Host_GetConfigImageSize_Params, configImageSize);
LAST(config_image_params, CUpti_Profiler_Host_GetConfigImage_Params, pConfigImage);
LAST(num_passes_params, CUpti_Profiler_Host_GetNumOfPasses_Params, numOfPasses);
LAST(evaluate_params, CUpti_Profiler_Host_EvaluateToGpuValues_Params, pMetricValues);
SAME(evaluate_params, CUpti_Profiler_Host_EvaluateToGpuValues_Params, rangeIndex, rangeIndex);
SAME(evaluate_params, CUpti_Profiler_Host_EvaluateToGpuValues_Params, numMetrics, numMetrics);
LAST(enable_params, CUpti_RangeProfiler_Enable_Params, pRangeProfilerObject);
SAME(enable_params, CUpti_RangeProfiler_Enable_Params, ctx, ctx);
LAST(object_params, CUpti_RangeProfiler_Disable_Params, pRangeProfilerObject);
LAST(object_params, CUpti_RangeProfiler_Start_Params, pRangeProfilerObject);
LAST(counter_data_size_params, CUpti_RangeProfiler_GetCounterDataSize_Params, counterDataSize);
SAME(counter_data_size_params, CUpti_RangeProfiler_GetCounterDataSize_Params, maxNumRangeTreeNodes,
     maxNumRangeTreeNodes);
LAST(counter_data_init_params, CUpti_RangeProfiler_CounterDataImage_Initialize_Params, pCounterData);
LAST(set_config_params, CUpti_RangeProfiler_SetConfig_Params, targetNestingLevel);
SAME(set_config_params, CUpti_RangeProfiler_SetConfig_Params, range, range);
SAME(set_config_params, CUpti_RangeProfiler_SetConfig_Params, replayMode, replayMode);
SAME(set_config_params, CUpti_RangeProfiler_SetConfig_Params, maxRangesPerPass, maxRangesPerPass);
SAME(set_config_params, CUpti_RangeProfiler_SetConfig_Params, minNestingLevel, minNestingLevel);
SAME(set_config_params, CUpti_RangeProfiler_SetConfig_Params, passIndex, passIndex);
LAST(stop_params, CUpti_RangeProfiler_Stop_Params, isAllPassSubmitted);
LAST(decode_params, CUpti_RangeProfiler_DecodeData_Params, numOfRangeDropped);
LAST(counter_data_info_params, CUpti_RangeProfiler_GetCounterDataInfo_Params, numTotalRanges);
SAME_SIZE(callback_data, CUpti_CallbackData);
SAME(callback_data, CUpti_CallbackData, functionName, functionName);
SAME(callback_data, CUpti_CallbackData, symbolName, symbolName);

BOOST_AUTO_TEST_CASE(constants_match)
{
    BOOST_TEST(wb::cupti::error_insufficient_privileges == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
    BOOST_TEST(wb::cupti::error_multiple_subscribers == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
    BOOST_TEST(wb::cupti::auto_range == CUPTI_AutoRange);
    BOOST_TEST(wb::cupti::kernel_replay == CUPTI_KernelReplay);
    BOOST_TEST(wb::cupti::profiler_type_range == CUPTI_PROFILER_TYPE_RANGE_PROFILER);
    BOOST_TEST(wb::cupti::domain_driver_api == CUPTI_CB_DOMAIN_DRIVER_API);
    BOOST_TEST(wb::cupti::domain_runtime == CUPTI_CB_DOMAIN_RUNTIME_API);
    BOOST_TEST(wb::cupti::api_enter == CUPTI_API_ENTER);
}
