# The build step of an amd module (wavebench_hipcc_module in cmake/wavebench_plugin.cmake):
#
#   cmake -DSPEC=<build>/<target>.hip.cmake -P wavebench_hip_compile.cmake
#
# compiles SPEC's source for every AMD target. Where that fails, each target is compiled alone
# (device code only) to find those the source cannot be built for; the module is built for the
# others, with a warning, and <output>.omitted names the ones left out, one line each:
#
#   <target>\t<the compiler's first error: line for it, at most 200 characters>
#
# (`wavebench list` and `run` read it). A build for every target removes a stale one. It fails only
# where every target fails, or where no target fails alone (the error is the host code's): then the
# compiler's output is the build's error.
#
# SPEC sets WB_COMPILER, WB_ENV (NAME=value...), WB_FLAGS (the toolchain's), WB_TARGETS,
# WB_WAVE_DEFINES, WB_ARGS (the module's compile options), WB_LINK (its link options), WB_SOURCE,
# WB_OUTPUT, WB_DEPFILE and WB_ROOTS (folders left out of the reasons: the sidecar names no folder of
# the machine that built it).
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/amd_targets.cmake)
if(NOT SPEC OR NOT EXISTS "${SPEC}")
  message(FATAL_ERROR "wavebench_hip_compile.cmake: -DSPEC=<the module's settings> is missing or gone ('${SPEC}')")
endif()
include(${SPEC})
foreach(assignment IN LISTS WB_ENV)
  string(FIND "${assignment}" "=" at)
  string(SUBSTRING "${assignment}" 0 ${at} name)
  math(EXPR at "${at} + 1")
  string(SUBSTRING "${assignment}" ${at} -1 value)
  set(ENV{${name}} "${value}")
endforeach()
get_filename_component(module ${WB_OUTPUT} NAME)
set(sidecar ${WB_OUTPUT}.omitted)

# Builds the module for `targets`: sets ok and text (what the compiler said).
function(build targets)
  wavebench_hip_arch_flags(arch "${targets}" ${WB_WAVE_DEFINES})
  execute_process(COMMAND ${WB_COMPILER} ${WB_FLAGS} ${arch} ${WB_ARGS} -x hip ${WB_SOURCE} -o ${WB_OUTPUT} ${WB_LINK}
                          -MD -MF ${WB_DEPFILE}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    set(ok TRUE PARENT_SCOPE)
  else()
    set(ok FALSE PARENT_SCOPE)
  endif()
  set(text "${out}" PARENT_SCOPE)
endfunction()

build("${WB_TARGETS}")
if(ok)
  if(text)
    message(NOTICE "${text}")
  endif()
  file(REMOVE ${sidecar})
  return()
endif()
set(first_text "${text}")

# Which targets fail alone: their device code, compiled and thrown away.
set(good)
set(bad)
set(lines)
foreach(t IN LISTS WB_TARGETS)
  wavebench_hip_arch_flags(arch ${t} ${WB_WAVE_DEFINES})
  execute_process(COMMAND ${WB_COMPILER} ${WB_FLAGS} ${arch} ${WB_ARGS} --cuda-device-only -c -x hip ${WB_SOURCE}
                          -o /dev/null
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    list(APPEND good ${t})
  else()
    list(APPEND bad ${t})
    foreach(root IN LISTS WB_ROOTS)
      string(REPLACE "${root}/" "" out "${out}")
    endforeach()
    wavebench_hip_first_error(reason "${out}")
    string(APPEND lines "${t}\t${reason}\n")
  endif()
endforeach()
if(NOT good OR NOT bad)
  if(NOT good)
    set(why "it fails for every target")
  else()
    set(why "it fails, but for no target alone (the host code's error?)")
  endif()
  message(FATAL_ERROR "${first_text}\n${module}: ${why}")
endif()

build("${good}")
if(NOT ok)
  message(FATAL_ERROR "${text}\n${module}: it fails even for the targets it compiles for alone (${good})")
endif()
if(text)
  message(NOTICE "${text}")
endif()
file(WRITE ${sidecar} "${lines}")
string(REPLACE ";" ", " left_out "${bad}")
string(REPLACE ";" ", " built "${good}")
string(REPLACE "\t" ": " reasons "${lines}")
message(WARNING "${module}: left out for ${left_out}, which it cannot be built for (built for ${built}; the "
                "reasons are in ${module}.omitted):\n${reasons}")
