# tool_version: `git describe --dirty` of the source tree. The step runs again only when what that
# answer depends on changes: the files the previous run wrote into its depfile (git's HEAD, index,
# reflog, tag refs, and every tracked file: an edit makes the tree dirty). It rewrites version.cpp
# only when the answer changes, so a build with nothing changed has nothing to do.
set(WAVEBENCH_VERSION_CPP ${PROJECT_BINARY_DIR}/generated/version.cpp)
# The toolchain each platform's plugins are built with (results name it; compare refuses a change).
set(WAVEBENCH_TOOLCHAINS "cpu=${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
if(nvidia IN_LIST WAVEBENCH_PLATFORMS)
  string(APPEND WAVEBENCH_TOOLCHAINS "|nvidia=nvcc ${CMAKE_CUDA_COMPILER_VERSION}")
endif()
if(amd IN_LIST WAVEBENCH_PLATFORMS) # the compiler, its clang, the HIP headers, the code object version
  string(APPEND WAVEBENCH_TOOLCHAINS "|amd=${WAVEBENCH_AMD_TOOLCHAIN}")
endif()
set(version_stamp ${PROJECT_BINARY_DIR}/generated/version.stamp)
add_custom_command(OUTPUT ${version_stamp}
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${WAVEBENCH_VERSION_CPP}
          -DFALLBACK=${PROJECT_VERSION} "-DTOOLCHAINS=${WAVEBENCH_TOOLCHAINS}" -DSTAMP=${version_stamp}
          -DDEPFILE=${PROJECT_BINARY_DIR}/generated/version.d -P ${PROJECT_SOURCE_DIR}/cmake/write_version.cmake
  BYPRODUCTS ${WAVEBENCH_VERSION_CPP}
  DEPENDS ${PROJECT_SOURCE_DIR}/cmake/write_version.cmake
  DEPFILE ${PROJECT_BINARY_DIR}/generated/version.d
  COMMENT "wavebench version" VERBATIM)
add_custom_target(wavebench_version DEPENDS ${version_stamp})
