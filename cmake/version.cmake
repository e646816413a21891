# tool_version: `git describe` of the source tree, regenerated at every build (only rewritten when
# it changes, so nothing rebuilds needlessly).
set(WAVEBENCH_VERSION_CPP ${PROJECT_BINARY_DIR}/generated/version.cpp)
# The toolchain each platform's plugins are built with (results name it; compare refuses a change).
set(WAVEBENCH_TOOLCHAINS "cpu=${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
if(nvidia IN_LIST WAVEBENCH_PLATFORMS)
  string(APPEND WAVEBENCH_TOOLCHAINS "|nvidia=nvcc ${CMAKE_CUDA_COMPILER_VERSION}")
endif()
if(amd IN_LIST WAVEBENCH_PLATFORMS) # the compiler, its clang, the HIP headers, the code object version
  string(APPEND WAVEBENCH_TOOLCHAINS "|amd=${WAVEBENCH_AMD_TOOLCHAIN}")
endif()
add_custom_target(wavebench_version
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${WAVEBENCH_VERSION_CPP}
          -DFALLBACK=${PROJECT_VERSION} "-DTOOLCHAINS=${WAVEBENCH_TOOLCHAINS}" -P ${PROJECT_SOURCE_DIR}/cmake/write_version.cmake
  BYPRODUCTS ${WAVEBENCH_VERSION_CPP}
  COMMENT "wavebench version" VERBATIM)
