# Platforms: a platform is the HIP runtime a plugin is compiled against. Every plugin source
# (plugins/<family>/<variant>.hip) is compiled once per enabled platform.
#   cpu     g++ against core/platforms/cpu (always built)
#   nvidia  nvcc against core/platforms/nvidia (HIP on CUDA), when nvcc is found
#   amd     hipcc against ROCm (Debian 12: ROCm 5.2.3), when hipcc is found; no GPU needed to build
# Each platform gets a platform library (core/platforms/platform.cpp compiled against its HIP),
# and its plugins land in build/plugins/<platform>/. The build folder is self-contained (the
# non-system shared libraries it needs are copied into build/lib), so it can be carried to a
# GPU machine that has a driver and nothing else.

set(WAVEBENCH_PLATFORMS cpu)
set(WAVEBENCH_WARNINGS -Wall -Wextra)

# Copies a shared library that the build links into build/lib/bundled, where the build's own
# libraries find it through $ORIGIN (the GPU machine has no Debian packages).
function(wavebench_bundle library)
  get_filename_component(real ${library} REALPATH)
  execute_process(COMMAND objdump -p ${real} OUTPUT_VARIABLE dump ERROR_QUIET)
  string(REGEX MATCH "SONAME +([^\n]+)" _ "${dump}")
  set(soname ${CMAKE_MATCH_1})
  if(NOT soname)
    get_filename_component(soname ${real} NAME)
  endif()
  configure_file(${real} ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/bundled/${soname} COPYONLY)
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
    enable_language(CUDA)
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION) # CMake 3.25 does not know that nvcc 12+ speaks C++20
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_COMPILE_FEATURES cuda_std_20)
      list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
    endif()
    find_package(CUDAToolkit REQUIRED)
    list(APPEND WAVEBENCH_PLATFORMS nvidia)
    wavebench_bundle(${CUDAToolkit_LIBRARY_DIR}/libcudart.so)
  elseif(WAVEBENCH_ENABLE_NVIDIA STREQUAL "ON")
    message(FATAL_ERROR "WAVEBENCH_ENABLE_NVIDIA is ON but no nvcc was found: put it on PATH or set CUDACXX")
  endif()
endif()

# ---- amd: ROCm's HIP through hipcc ----------------------------------------------------------------
set(WAVEBENCH_ENABLE_AMD AUTO CACHE STRING "Build the amd platform: ON, OFF, or AUTO (when hipcc is found)")
set_property(CACHE WAVEBENCH_ENABLE_AMD PROPERTY STRINGS AUTO ON OFF)
set(WAVEBENCH_AMD_TARGETS "gfx908;gfx90a;gfx940;gfx1030" CACHE STRING
    "AMD targets of the amd platform (Debian 12's ROCm has no gfx1100 device library; a newer ROCm can add it)")
if(NOT WAVEBENCH_ENABLE_AMD STREQUAL "OFF")
  find_program(WAVEBENCH_HIPCC hipcc)
  if(WAVEBENCH_HIPCC)
    list(APPEND WAVEBENCH_PLATFORMS amd)
  elseif(WAVEBENCH_ENABLE_AMD STREQUAL "ON")
    message(FATAL_ERROR "WAVEBENCH_ENABLE_AMD is ON but no hipcc was found (Debian: apt-get install hipcc)")
  endif()
endif()

# Builds one shared module with hipcc for every AMD target. CMake 3.25's HIP language expects a
# ROCm tree laid out as AMD ships it, which Debian's is not; hipcc is driven directly.
function(wavebench_hipcc_module target output source)
  set(archs)
  foreach(t IN LISTS WAVEBENCH_AMD_TARGETS)
    list(APPEND archs --offload-arch=${t})
  endforeach()
  get_filename_component(dir ${output} DIRECTORY)
  set(dep ${CMAKE_CURRENT_BINARY_DIR}/${target}.d)
  add_custom_command(OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${WAVEBENCH_HIPCC} ${archs} -std=c++20 -O3 -fPIC -shared -fvisibility=hidden -Wall -x hip
            -I${PROJECT_SOURCE_DIR}/core/include ${source} -o ${output} -MD -MF ${dep}
    DEPENDS ${source}
    DEPFILE ${dep}
    COMMENT "hipcc ${target} (${WAVEBENCH_AMD_TARGETS})"
    COMMAND_EXPAND_LISTS VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${output})
endfunction()

# ---- cpu: the project's HIP-compatible CPU runtime ----------------------------------------------
add_library(wavebench_hip_cpu SHARED ${PROJECT_SOURCE_DIR}/core/platforms/cpu/runtime.cpp)
target_include_directories(wavebench_hip_cpu PUBLIC ${PROJECT_SOURCE_DIR}/core/platforms/cpu/include)
target_link_libraries(wavebench_hip_cpu PRIVATE Boost::context Threads::Threads)
target_compile_options(wavebench_hip_cpu PRIVATE ${WAVEBENCH_WARNINGS})
set_target_properties(wavebench_hip_cpu PROPERTIES BUILD_RPATH "\$ORIGIN/bundled")
get_target_property(boost_context_lib Boost::context IMPORTED_LOCATION_RELEASE)
if(NOT boost_context_lib)
  get_target_property(boost_context_lib Boost::context IMPORTED_LOCATION)
endif()
wavebench_bundle(${boost_context_lib})

# Makes one wrapper translation unit per HIP source, with the extension the platform's compiler
# wants (CMake gives a source file one language, and the same .hip is built for every platform).
function(wavebench_hip_sources out platform)
  set(result)
  foreach(src IN LISTS ARGN)
    get_filename_component(abs ${src} ABSOLUTE)
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${abs})
    string(MAKE_C_IDENTIFIER ${rel} id)
    set(ext cpp)
    if(platform STREQUAL "nvidia")
      set(ext cu)
    endif()
    set(wrapper ${PROJECT_BINARY_DIR}/generated/${platform}/${id}.${ext})
    file(CONFIGURE OUTPUT ${wrapper} CONTENT "// generated by cmake/platforms.cmake, do not edit\n#include \"${abs}\"\n")
    list(APPEND result ${wrapper})
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# A module in `dir` finds the bundled libraries (build/lib/bundled) through $ORIGIN.
function(wavebench_find_bundled target dir)
  file(RELATIVE_PATH rel ${dir} ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/bundled)
  set_property(TARGET ${target} APPEND PROPERTY BUILD_RPATH "\$ORIGIN/${rel}")
endfunction()

# Compile settings for a target built against a platform's HIP runtime.
function(wavebench_use_platform target platform)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/core/include)
  if(platform STREQUAL "cpu")
    target_link_libraries(${target} PRIVATE wavebench_hip_cpu)
    # Signed int arithmetic wraps on GPUs; make g++ promise the same instead of assuming no overflow.
    # -Wno-unknown-pragmas: GPU code says #pragma unroll, which g++ spells differently.
    target_compile_options(${target} PRIVATE ${WAVEBENCH_WARNINGS} -fwrapv -Wno-unknown-pragmas)
  elseif(platform STREQUAL "nvidia")
    target_include_directories(${target} BEFORE PRIVATE ${PROJECT_SOURCE_DIR}/core/platforms/nvidia/include)
    target_link_libraries(${target} PRIVATE CUDA::cudart)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall>)
  endif()
endfunction()

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

# wavebench_add_plugin(<family>/<variant>.hip [OUTPUT_DIR dir] [PLATFORMS p...]): builds
# <dir>/<platform>/<family>_<variant>.so (dir: build/plugins) for every enabled platform (or the
# ones named), exporting only the entry point.
function(wavebench_add_plugin source)
  cmake_parse_arguments(arg "" "OUTPUT_DIR" "PLATFORMS" ${ARGN})
  if(NOT arg_OUTPUT_DIR)
    set(arg_OUTPUT_DIR ${PROJECT_BINARY_DIR}/plugins)
  endif()
  if(NOT arg_PLATFORMS)
    set(arg_PLATFORMS ${WAVEBENCH_PLATFORMS})
  endif()
  get_filename_component(abs ${source} ABSOLUTE)
  get_filename_component(variant ${abs} NAME_WE)
  get_filename_component(dir ${abs} DIRECTORY)
  get_filename_component(family ${dir} NAME)
  file(RELATIVE_PATH where ${PROJECT_BINARY_DIR} ${arg_OUTPUT_DIR})
  string(MAKE_C_IDENTIFIER "${where}" where)
  foreach(platform IN LISTS arg_PLATFORMS)
    set(target wbplugin_${where}_${platform}_${family}_${variant})
    if(platform STREQUAL "amd")
      wavebench_hipcc_module(${target} ${arg_OUTPUT_DIR}/amd/${family}_${variant}.so ${abs})
      add_dependencies(wavebench_plugins ${target})
      continue()
    endif()
    wavebench_hip_sources(srcs ${platform} ${abs})
    add_library(${target} MODULE ${srcs})
    wavebench_use_platform(${target} ${platform})
    set_target_properties(${target} PROPERTIES
      PREFIX "" OUTPUT_NAME ${family}_${variant}
      LIBRARY_OUTPUT_DIRECTORY ${arg_OUTPUT_DIR}/${platform}
      CXX_VISIBILITY_PRESET hidden CUDA_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
    wavebench_find_bundled(${target} ${arg_OUTPUT_DIR}/${platform})
    add_dependencies(wavebench_plugins ${target})
  endforeach()
endfunction()
