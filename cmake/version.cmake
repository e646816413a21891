# tool_version: `git describe` of the source tree, regenerated at every build (only rewritten when
# it changes, so nothing rebuilds needlessly).
set(WAVEBENCH_VERSION_CPP ${PROJECT_BINARY_DIR}/generated/version.cpp)
# The toolchain each platform's plugins are built with (results name it; compare refuses a change).
set(WAVEBENCH_TOOLCHAINS "cpu=${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
if(nvidia IN_LIST WAVEBENCH_PLATFORMS)
  string(APPEND WAVEBENCH_TOOLCHAINS "|nvidia=nvcc ${CMAKE_CUDA_COMPILER_VERSION}")
endif()
if(amd IN_LIST WAVEBENCH_PLATFORMS)
  execute_process(COMMAND ${WAVEBENCH_HIPCC} --version OUTPUT_VARIABLE hipcc_out ERROR_QUIET)
  string(REGEX MATCH "HIP version: [^\n]*" hip_version "${hipcc_out}")
  string(REGEX MATCH "clang version [0-9.]+" hip_clang "${hipcc_out}")
  string(APPEND WAVEBENCH_TOOLCHAINS "|amd=hipcc (${hip_version}, ${hip_clang})")
endif()
add_custom_target(wavebench_version
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${WAVEBENCH_VERSION_CPP}
          -DFALLBACK=${PROJECT_VERSION} "-DTOOLCHAINS=${WAVEBENCH_TOOLCHAINS}" -P ${PROJECT_SOURCE_DIR}/cmake/write_version.cmake
  BYPRODUCTS ${WAVEBENCH_VERSION_CPP}
  COMMENT "wavebench version" VERBATIM)
