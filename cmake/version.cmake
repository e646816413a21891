# tool_version: `git describe` of the source tree, regenerated at every build (only rewritten when
# it changes, so nothing rebuilds needlessly).
set(WAVEBENCH_VERSION_CPP ${PROJECT_BINARY_DIR}/generated/version.cpp)
add_custom_target(wavebench_version
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${WAVEBENCH_VERSION_CPP}
          -DFALLBACK=${PROJECT_VERSION} -P ${PROJECT_SOURCE_DIR}/cmake/write_version.cmake
  BYPRODUCTS ${WAVEBENCH_VERSION_CPP}
  COMMENT "wavebench version")
