// The HIP-on-CUDA header, checked without a GPU: HIP's error names and strings map onto CUDA's,
// and the collectives and launch macro compile in device code.
#define BOOST_TEST_MODULE nvidia_header
#include <boost/test/unit_test.hpp>

#include <hip/hip_runtime.h>
#include <hip/hip_runtime_api.h>

#include <string>

namespace {

BOOST_AUTO_TEST_CASE(hip_error_names_are_hips_and_strings_are_cudas)
{
    const std::pair<hipError_t, cudaError_t> pairs[] = {
        {hipErrorInvalidValue, cudaErrorInvalidValue},
        {hipErrorOutOfMemory, cudaErrorMemoryAllocation},
        {hipErrorInvalidConfiguration, cudaErrorInvalidConfiguration},
        {hipErrorInvalidDeviceFunction, cudaErrorInvalidDeviceFunction},
        {hipErrorNoDevice, cudaErrorNoDevice},
        {hipErrorInvalidHandle, cudaErrorInvalidResourceHandle},
        {hipErrorIllegalAddress, cudaErrorIllegalAddress},
        {hipErrorLaunchOutOfResources, cudaErrorLaunchOutOfResources},
        {hipErrorLaunchFailure, cudaErrorLaunchFailure},
    };
    for (const auto& [hip, cuda] : pairs) {
        BOOST_TEST_CONTEXT(cudaGetErrorName(cuda))
        {
            BOOST_CHECK_EQUAL(hip_from_cuda(cuda), hip);
            BOOST_CHECK_EQUAL(std::string(hipGetErrorString(hip)), std::string(cudaGetErrorString(cuda)));
            BOOST_CHECK_EQUAL(std::string(hipGetErrorName(hip)).rfind("hipError", 0), 0u);
        }
    }
    BOOST_CHECK_EQUAL(std::string(hipGetErrorName(hipErrorInvalidConfiguration)), "hipErrorInvalidConfiguration");
    BOOST_CHECK_EQUAL(std::string(hipGetErrorName(hipSuccess)), "hipSuccess");
    // A CUDA error HIP has no name for keeps CUDA's name and number.
    const hipError_t other = hip_from_cuda(cudaErrorUnsupportedPtxVersion);
    BOOST_CHECK_EQUAL(int(other), int(cudaErrorUnsupportedPtxVersion));
    BOOST_CHECK_EQUAL(std::string(hipGetErrorName(other)), "cudaErrorUnsupportedPtxVersion");
}

BOOST_AUTO_TEST_CASE(memcpy_kinds_are_cudas)
{
    BOOST_CHECK_EQUAL(int(hipMemcpyHostToDevice), int(cudaMemcpyHostToDevice));
    BOOST_CHECK_EQUAL(int(hipMemcpyDeviceToHost), int(cudaMemcpyDeviceToHost));
    BOOST_CHECK_EQUAL(int(hipMemcpyDeviceToDevice), int(cudaMemcpyDeviceToDevice));
}

// Compiles only if the collectives and HIP_DYNAMIC_SHARED resolve in device code.
__global__ void collectives(unsigned long long* out, int* shuffled)
{
    HIP_DYNAMIC_SHARED(int, scratch);
    scratch[threadIdx.x] = int(threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = __ballot(threadIdx.x % 2) + __any(threadIdx.x == 3) + __all(1);
    int v = scratch[threadIdx.x];
    v += __shfl(v, 0) + __shfl_up(v, 1) + __shfl_down(v, 1, 16) + __shfl_xor(v, 2);
    shuffled[threadIdx.x] = v + int(__lane_id());
}

boost::test_tools::assertion_result no_gpu(boost::unit_test::test_unit_id)
{
    int count = 0;
    boost::test_tools::assertion_result r(hipGetDeviceCount(&count) != hipSuccess || count == 0);
    r.message() << "a GPU is present; this case checks the launch path without one";
    return r;
}

// The host API of ordinary HIP programs, spelled as they spell it (hip_runtime_api.h, stream flags,
// default stream arguments, pinned and mapped memory, memory and peer queries): without a GPU every
// call reports the missing device, as any call does.
BOOST_AUTO_TEST_CASE(host_api_of_ordinary_hip_programs_maps_to_cuda, *boost::unit_test::precondition(no_gpu))
{
    BOOST_CHECK_EQUAL(hipStreamDefault, cudaStreamDefault);
    BOOST_CHECK_EQUAL(hipStreamNonBlocking, cudaStreamNonBlocking);
    BOOST_CHECK_EQUAL(hipHostMallocMapped, cudaHostAllocMapped);
    BOOST_CHECK_EQUAL(hipHostMallocPortable, cudaHostAllocPortable);
    hipStream_t stream = nullptr;
    BOOST_CHECK_NE(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking), hipSuccess);
    int* pinned = nullptr;
    BOOST_CHECK_NE(hipHostMalloc(&pinned, 64, hipHostMallocMapped), hipSuccess);
    size_t free_bytes = 0, total_bytes = 0;
    BOOST_CHECK_NE(hipMemGetInfo(&free_bytes, &total_bytes), hipSuccess);
    int peer = 0;
    BOOST_CHECK_NE(hipDeviceCanAccessPeer(&peer, 0, 1), hipSuccess);
    hipEvent_t event = nullptr;
    (void)hipEventCreate(&event);
    BOOST_CHECK_NE(hipEventRecord(event), hipSuccess);
    BOOST_CHECK_NE(hipMemsetAsync(nullptr, 0, 4), hipSuccess);
}

BOOST_AUTO_TEST_CASE(the_launch_macro_reports_a_missing_device_like_any_call, *boost::unit_test::precondition(no_gpu))
{
    hipLaunchKernelGGL(collectives, dim3(1), dim3(32), 32 * sizeof(int), nullptr, nullptr, nullptr);
    BOOST_CHECK_NE(hipGetLastError(), hipSuccess);
}

} // namespace
