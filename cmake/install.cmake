# `cmake --install build --prefix P`: the wavebench command with its platform libraries and
# plugins, and the SDK for plugins built elsewhere (find_package(wavebench) and
# wavebench_add_plugin, examples/out-of-tree). The installed layout:
#
#   P/bin/wavebench, wavebench-hipcc and wavebench-hip-rewrite (HIP programs for the cpu platform)
#   P/lib/wavebench/lib/          libwavebench_platform_<platform>.so, libwavebench_hip_cpu.so (the cpu
#                                 HIP runtime), libwavebench_amd_inspect.so and
#                                 libwavebench_history_postgres.so (where built), bundled/
#   P/lib/wavebench/plugins/<platform>/<family>_<variant>.so (amd: and .so.omitted, the targets left out)
#   P/include/wavebench/          plugin.h, params.h, families/<family>.h, ... (core/include/wavebench)
#   P/include/wavebench/platforms/cpu/include/hip/hip_runtime.h     (and nvidia/, where built), with
#   P/include/wavebench/platforms/hip_subset.h, hip_vector_ops.h    the layout their includes expect
#   P/lib/cmake/wavebench/        wavebenchConfig.cmake, wavebenchConfigVersion.cmake, wavebench_plugin.cmake, glob.cmake,
#                                 amd_toolchain.cmake, amd_targets.cmake and wavebench_hip_compile.cmake (the
#                                 amd compiler and build step)
#   P/include/wavebench/platforms/amd/hip_compat.h  (with amd: force-included where the probes need it)
#   P/share/wavebench/suites/, P/share/wavebench/examples/out-of-tree/
#
# P/lib/wavebench is laid out as the build folder is (lib/, lib/bundled/, plugins/<platform>/): the
# build's $ORIGIN RPATHs hold there unchanged, and the harness finds its platform libraries and
# plugins from its own location in either (harness/platform/platform.cpp, platform::build_dir). Nothing
# installed names a folder of the build machine: P can be moved.
include(CMakePackageConfigHelpers)

set(root ${WAVEBENCH_INSTALL_ROOT})
install(TARGETS wavebench RUNTIME DESTINATION bin)
install(TARGETS wavebench_hip_cpu wavebench_hip_cpu_checked LIBRARY DESTINATION ${root}/lib)
install(TARGETS wavebench_hip_cpu_checker ARCHIVE DESTINATION ${root}/lib)
install(TARGETS wavebench_hip_rewrite RUNTIME DESTINATION bin)
wavebench_configure_hipcc(${PROJECT_BINARY_DIR}/package/wavebench-hipcc /P/bin
                          /P/include/wavebench/platforms/cpu/include /P/${root}/lib)
install(PROGRAMS ${PROJECT_BINARY_DIR}/package/wavebench-hipcc DESTINATION bin)
foreach(platform IN LISTS WAVEBENCH_PLATFORMS)
  if(platform STREQUAL "amd")
    install(PROGRAMS ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/libwavebench_platform_amd.so DESTINATION ${root}/lib)
    install(FILES ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/libwavebench_platform_amd.so.omitted DESTINATION ${root}/lib OPTIONAL)
  else()
    install(TARGETS wavebench_platform_${platform} LIBRARY DESTINATION ${root}/lib)
  endif()
endforeach()
foreach(module IN ITEMS wavebench_amd_inspect wavebench_history_postgres)
  if(TARGET ${module})
    install(TARGETS ${module} LIBRARY DESTINATION ${root}/lib)
  endif()
endforeach()
install(DIRECTORY ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/bundled/ DESTINATION ${root}/lib/bundled USE_SOURCE_PERMISSIONS)
# The in-tree plugins: plugins/CMakeLists.txt (wavebench_add_plugin ... INSTALL_DESTINATION).

# ---- the SDK: headers ---------------------------------------------------------------------------
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/include/wavebench DESTINATION include FILES_MATCHING PATTERN "*.h")
# Each platform's hip/hip_runtime.h includes "../../../hip_subset.h", and its hip/hip_vector_types.h
# "../../../hip_vector_ops.h": keep that layout.
install(FILES ${PROJECT_SOURCE_DIR}/core/platforms/hip_subset.h ${PROJECT_SOURCE_DIR}/core/platforms/hip_vector_ops.h
              ${PROJECT_SOURCE_DIR}/core/platforms/hip_fp_constants.h
        DESTINATION include/wavebench/platforms)
foreach(platform IN ITEMS cpu nvidia)
  if(platform IN_LIST WAVEBENCH_PLATFORMS)
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/platforms/${platform}/include/hip/
            DESTINATION include/wavebench/platforms/${platform}/include/hip FILES_MATCHING PATTERN "*.h")
    install(FILES ${PROJECT_SOURCE_DIR}/core/platforms/${platform}/README.md
            DESTINATION include/wavebench/platforms/${platform})
  endif()
endforeach()

# The amd platform's force-included compatibility header (where the probes find it needed), with why.
if("amd" IN_LIST WAVEBENCH_PLATFORMS)
  install(FILES ${PROJECT_SOURCE_DIR}/core/platforms/amd/hip_compat.h ${PROJECT_SOURCE_DIR}/core/platforms/amd/README.md
          DESTINATION include/wavebench/platforms/amd)
endif()

# ---- the SDK: the CMake package -----------------------------------------------------------------
set(WAVEBENCH_INSTALL_CMAKEDIR lib/cmake/wavebench)
set(WAVEBENCH_INSTALL_BINDIR bin)
set(WAVEBENCH_INSTALL_INCLUDEDIR include)
set(WAVEBENCH_INSTALL_LIBDIR ${root}/lib)
set(WAVEBENCH_INSTALL_PLUGINDIR ${root}/plugins)
# The HIP compiler by name (the SDK names no folder of the build machine; its amd_toolchain.cmake
# finds it again, or the one ROCM_PATH or WAVEBENCH_HIP_COMPILER names).
get_filename_component(WAVEBENCH_SDK_HIP_COMPILER "${WAVEBENCH_HIP_COMPILER_PATH}" NAME)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/wavebenchConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/wavebenchConfig.cmake
  INSTALL_DESTINATION ${WAVEBENCH_INSTALL_CMAKEDIR}
  PATH_VARS WAVEBENCH_INSTALL_BINDIR WAVEBENCH_INSTALL_INCLUDEDIR WAVEBENCH_INSTALL_LIBDIR WAVEBENCH_INSTALL_PLUGINDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/wavebenchConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/wavebenchConfig.cmake
              ${PROJECT_BINARY_DIR}/package/wavebenchConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/wavebench_plugin.cmake
              ${CMAKE_CURRENT_LIST_DIR}/glob.cmake
              ${CMAKE_CURRENT_LIST_DIR}/amd_toolchain.cmake
              ${CMAKE_CURRENT_LIST_DIR}/amd_targets.cmake
              ${CMAKE_CURRENT_LIST_DIR}/wavebench_hip_compile.cmake
        DESTINATION ${WAVEBENCH_INSTALL_CMAKEDIR})

# ---- suites and the out-of-tree example -----------------------------------------------------------
install(DIRECTORY ${PROJECT_SOURCE_DIR}/suites/ DESTINATION share/wavebench/suites FILES_MATCHING PATTERN "*.toml")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/out-of-tree/ DESTINATION share/wavebench/examples/out-of-tree
        FILES_MATCHING PATTERN "*.hip" PATTERN "*.h" PATTERN "CMakeLists.txt" PATTERN "*.toml" PATTERN "README.md"
        PATTERN "build*" EXCLUDE PATTERN "CMakeFiles" EXCLUDE)
