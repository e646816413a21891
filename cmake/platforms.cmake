# Platforms: a platform is the HIP runtime a plugin is compiled against. Every plugin source
# (plugins/<family>/<variant>.hip) is compiled once per enabled platform.
#   cpu     g++ against core/platforms/cpu (always built)
#   nvidia  nvcc against core/platforms/nvidia (HIP on CUDA), when nvcc is found
#   amd     a HIP clang or hipcc against ROCm (Debian 12: clang++-22 with ROCm 5.2.3), when found
#           (cmake/amd_toolchain.cmake); no GPU needed to build
# Each platform gets a platform library (core/platforms/platform.cpp compiled against its HIP),
# and its plugins land in build/plugins/<platform>/. The build folder is self-contained (the
# non-system shared libraries it needs are copied into build/lib), so it can be carried to a
# GPU machine that has a driver and nothing else. How a plugin is built (wavebench_add_plugin)
# is in cmake/wavebench_plugin.cmake, which the installed SDK shares (cmake/install.cmake).

set(WAVEBENCH_PLATFORMS cpu)
set(WAVEBENCH_WARNINGS -Wall -Wextra)
include(${CMAKE_CURRENT_LIST_DIR}/wavebench_plugin.cmake)

# What wavebench_plugin.cmake needs, in-tree.
set(WAVEBENCH_INCLUDE_DIR ${PROJECT_SOURCE_DIR}/core/include)
set(WAVEBENCH_LIBRARY_DIR ${CMAKE_LIBRARY_OUTPUT_DIRECTORY})
set(WAVEBENCH_RELATIVE_RPATH ON)
set(WAVEBENCH_PLUGIN_DIR ${PROJECT_BINARY_DIR}/plugins)

# Copies a shared library that the build links into build/lib/bundled, where the build's own
# libraries find it through $ORIGIN (the GPU machine has no Debian packages). Sets `soname_var`,
# if given, to the copy's file name.
function(wavebench_bundle library)
  get_filename_component(real ${library} REALPATH)
  execute_process(COMMAND objdump -p ${real} OUTPUT_VARIABLE dump ERROR_QUIET)
  string(REGEX MATCH "SONAME +([^\n]+)" _ "${dump}")
  set(soname ${CMAKE_MATCH_1})
  if(NOT soname)
    get_filename_component(soname ${real} NAME)
  endif()
  configure_file(${real} ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/bundled/${soname} COPYONLY)
  if(ARGC GREATER 1)
    set(${ARGV1} ${soname} PARENT_SCOPE)
  endif()
endfunction()

# ---- nvidia: HIP on CUDA ----------------------------------------------------------------------------
set(WAVEBENCH_ENABLE_NVIDIA AUTO CACHE STRING "Build the nvidia platform: ON, OFF, or AUTO (when nvcc is found)")
set_property(CACHE WAVEBENCH_ENABLE_NVIDIA PROPERTY STRINGS AUTO ON OFF)
if(NOT WAVEBENCH_ENABLE_NVIDIA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "GPU architectures of the nvidia platform (90: H100, H200)")
    wavebench_enable_cuda()
    find_package(CUDAToolkit REQUIRED)
    list(APPEND WAVEBENCH_PLATFORMS nvidia)
    # Whether this machine has an NVIDIA GPU (make run builds the platform then; so are the HIP samples).
    execute_process(COMMAND nvidia-smi -L RESULT_VARIABLE no_gpu OUTPUT_QUIET ERROR_QUIET)
    set(WAVEBENCH_NVIDIA_GPU_SEEN OFF)
    if(no_gpu EQUAL 0)
      set(WAVEBENCH_NVIDIA_GPU_SEEN ON)
    endif()
    wavebench_bundle(${CUDAToolkit_LIBRARY_DIR}/libcudart.so WAVEBENCH_CUDART_SONAME)
    # The HIP-on-CUDA header and the shared CUDA runtime (the installed SDK links the bundled copy).
    add_library(wavebench_hip_nvidia INTERFACE)
    target_include_directories(wavebench_hip_nvidia INTERFACE ${PROJECT_SOURCE_DIR}/core/platforms/nvidia/include)
    target_link_libraries(wavebench_hip_nvidia INTERFACE CUDA::cudart)
    add_library(wavebench::hip_nvidia ALIAS wavebench_hip_nvidia)
  elseif(WAVEBENCH_ENABLE_NVIDIA STREQUAL "ON")
    message(FATAL_ERROR "WAVEBENCH_ENABLE_NVIDIA is ON but no nvcc was found: put it on PATH or set CUDACXX")
  endif()
endif()

# ---- amd: ROCm's HIP, through the HIP compiler chosen at configure time --------------------------
# cmake/amd_toolchain.cmake: which compiler (WAVEBENCH_HIP_COMPILER, ROCM_PATH, else Debian's
# clang++-22, clang++-19 or hipcc), where its ROCm is, and what it needs with it (probe compiles).
# The default targets: MI100 (gfx908), MI200 (gfx90a), MI300X/MI300A/MI325X (gfx942), MI350X/MI355X
# (gfx950), Radeon RX 6000 (gfx1030), RX 7900 and PRO W7900 (gfx1100), RX 7800/7700 (gfx1101), Ryzen
# AI Max (gfx1151), RX 9060 (gfx1200) and RX 9070 (gfx1201). The generic targets (gfx9-4-generic,
# gfx10-3-generic, gfx11-generic, gfx12-generic) are not among them: they need code object v6, whose
# device libraries Debian's ROCm 5.2 lacks (a ROCm 6.4 or newer builds them, and its runtime loads them).
set(WAVEBENCH_ENABLE_AMD AUTO CACHE STRING "Build the amd platform: ON, OFF, or AUTO (when a HIP compiler and ROCm are found)")
set_property(CACHE WAVEBENCH_ENABLE_AMD PROPERTY STRINGS AUTO ON OFF)
set(WAVEBENCH_AMD_DEFAULT_TARGETS gfx908 gfx90a gfx942 gfx950 gfx1030 gfx1100 gfx1101 gfx1151 gfx1200 gfx1201)
set(WAVEBENCH_AMD_TARGETS "${WAVEBENCH_AMD_DEFAULT_TARGETS}" CACHE STRING
    "AMD targets of the amd platform (a ;-list of gfx targets the HIP compiler knows)")
include(${CMAKE_CURRENT_LIST_DIR}/amd_toolchain.cmake)
if(NOT WAVEBENCH_ENABLE_AMD STREQUAL "OFF")
  wavebench_amd_toolchain(COMPAT_HEADER ${PROJECT_SOURCE_DIR}/core/platforms/amd/hip_compat.h)
  if(WAVEBENCH_AMD_FOUND)
    list(APPEND WAVEBENCH_PLATFORMS amd)
  elseif(WAVEBENCH_ENABLE_AMD STREQUAL "ON" OR WAVEBENCH_AMD_NAMED)
    message(FATAL_ERROR "the amd platform cannot be built: ${WAVEBENCH_AMD_WHY}")
  elseif(WAVEBENCH_HIP_COMPILER_PATH)
    message(WARNING "the amd platform is left out: ${WAVEBENCH_AMD_WHY} (-DWAVEBENCH_ENABLE_AMD=OFF says you mean it)")
  else()
    message(STATUS "the amd platform is left out: ${WAVEBENCH_AMD_WHY}")
  endif()
endif()

# In-tree, every platform built is one plugins are built for.
set(WAVEBENCH_SDK_PLATFORMS ${WAVEBENCH_PLATFORMS})

# ---- cpu: the project's HIP-compatible CPU runtime ----------------------------------------------
# The runtime by its parts: fibers, the scheduler, the pool, the devices, the host API (core/platforms/cpu/README.md).
set(hip_cpu_sources fibers.cpp scheduler.cpp collectives.cpp pool.cpp settings.cpp devices.cpp host_api.cpp launch.cpp
                    device_assert.cpp memory2d.cpp peer.cpp arrays.cpp textures.cpp graphs.cpp)
list(TRANSFORM hip_cpu_sources PREPEND ${PROJECT_SOURCE_DIR}/core/platforms/cpu/)
add_library(wavebench_hip_cpu SHARED ${hip_cpu_sources})
add_library(wavebench::hip_cpu ALIAS wavebench_hip_cpu)
target_include_directories(wavebench_hip_cpu PUBLIC ${PROJECT_SOURCE_DIR}/core/platforms/cpu/include)
target_include_directories(wavebench_hip_cpu PRIVATE ${PROJECT_SOURCE_DIR}/core/include) # wavebench/warp_size.h
target_link_libraries(wavebench_hip_cpu PRIVATE Boost::context Threads::Threads)
target_compile_options(wavebench_hip_cpu PRIVATE ${WAVEBENCH_WARNINGS})
set_target_properties(wavebench_hip_cpu PROPERTIES INSTALL_RPATH "\$ORIGIN/bundled" BUILD_WITH_INSTALL_RPATH ON)
get_target_property(boost_context_lib Boost::context IMPORTED_LOCATION_RELEASE)
if(NOT boost_context_lib)
  get_target_property(boost_context_lib Boost::context IMPORTED_LOCATION)
endif()
wavebench_bundle(${boost_context_lib})

# `wavebench-hipcc --checked` (core/platforms/cpu/README.md, "Checked mode"): the runtime built with
# AddressSanitizer (it tells ASan of every switch between fiber stacks), and the shared-memory checker,
# linked into the checked program itself (its definitions of ASan's access checks come first).
add_library(wavebench_hip_cpu_checked SHARED ${hip_cpu_sources})
target_include_directories(wavebench_hip_cpu_checked PRIVATE ${PROJECT_SOURCE_DIR}/core/platforms/cpu/include
                                                             ${PROJECT_SOURCE_DIR}/core/include)
target_link_libraries(wavebench_hip_cpu_checked PRIVATE Boost::context Threads::Threads)
# No global descriptors: GCC writes each source's absolute path into them whatever -ffile-prefix-map
# says, which would tie the installed SDK to this checkout; the user's program is what gets checked.
target_compile_options(wavebench_hip_cpu_checked PRIVATE ${WAVEBENCH_WARNINGS} -fsanitize=address
                                                         -fno-omit-frame-pointer --param=asan-globals=0)
target_link_options(wavebench_hip_cpu_checked PRIVATE -fsanitize=address)
set_target_properties(wavebench_hip_cpu_checked PROPERTIES INSTALL_RPATH "\$ORIGIN/bundled" BUILD_WITH_INSTALL_RPATH ON)
add_library(wavebench_hip_cpu_checker STATIC ${PROJECT_SOURCE_DIR}/core/platforms/cpu/checked.cpp)
target_include_directories(wavebench_hip_cpu_checker PRIVATE ${PROJECT_SOURCE_DIR}/core/platforms/cpu/include)
target_compile_options(wavebench_hip_cpu_checker PRIVATE ${WAVEBENCH_WARNINGS} -fno-sanitize=all)
set_target_properties(wavebench_hip_cpu_checker PROPERTIES POSITION_INDEPENDENT_CODE ON
                                                           ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_LIBRARY_OUTPUT_DIRECTORY})

# What lets ordinary HIP code through g++: bin/wavebench-hip-rewrite (triple-chevron launches and
# `extern __shared__`, run on every cpu source by wavebench_add_plugin) and bin/wavebench-hipcc, the
# compiler command for standalone HIP programs. The script finds the headers and the runtime
# relative to itself: one copy for the build folder, one for the installed tree (install.cmake).
add_executable(wavebench_hip_rewrite ${PROJECT_SOURCE_DIR}/core/platforms/cpu/hip_rewrite.cpp
                                     ${PROJECT_SOURCE_DIR}/core/platforms/cpu/hip_rewrite_lex.cpp
                                     ${PROJECT_SOURCE_DIR}/core/platforms/cpu/hip_rewrite_regions.cpp
                                     ${PROJECT_SOURCE_DIR}/core/platforms/cpu/hip_rewrite_io.cpp)
target_compile_options(wavebench_hip_rewrite PRIVATE ${WAVEBENCH_WARNINGS})
set_target_properties(wavebench_hip_rewrite PROPERTIES OUTPUT_NAME wavebench-hip-rewrite
                                                       RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
set(WAVEBENCH_HIP_REWRITE wavebench_hip_rewrite)
function(wavebench_configure_hipcc output bin_dir include_dir lib_dir)
  file(RELATIVE_PATH WB_HIPCC_INCLUDE ${bin_dir} ${include_dir})
  file(RELATIVE_PATH WB_HIPCC_LIB ${bin_dir} ${lib_dir})
  set(WB_HIPCC_CXX ${CMAKE_CXX_COMPILER})
  configure_file(${PROJECT_SOURCE_DIR}/core/platforms/cpu/wavebench-hipcc.in ${output} @ONLY
                 FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endfunction()
wavebench_configure_hipcc(${PROJECT_BINARY_DIR}/bin/wavebench-hipcc ${PROJECT_BINARY_DIR}/bin
                          ${PROJECT_SOURCE_DIR}/core/platforms/cpu/include ${CMAKE_LIBRARY_OUTPUT_DIRECTORY})

# The platform libraries: build/lib/libwavebench_platform_<platform>.so
foreach(platform IN LISTS WAVEBENCH_PLATFORMS)
  if(platform STREQUAL "amd")
    wavebench_hipcc_module(wavebench_platform_amd ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/libwavebench_platform_amd.so
                           ${PROJECT_SOURCE_DIR}/core/platforms/platform.cpp)
    continue()
  endif()
  wavebench_hip_sources(srcs ${platform} ${PROJECT_SOURCE_DIR}/core/platforms/platform.cpp)
  add_library(wavebench_platform_${platform} MODULE ${srcs})
  wavebench_use_platform(wavebench_platform_${platform} ${platform})
  set_target_properties(wavebench_platform_${platform} PROPERTIES
    CXX_VISIBILITY_PRESET hidden CUDA_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  wavebench_find_bundled(wavebench_platform_${platform} ${CMAKE_LIBRARY_OUTPUT_DIRECTORY})
endforeach()

add_custom_target(wavebench_plugins)
