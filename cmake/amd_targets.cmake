# What one compile for AMD targets needs, shared by the toolchain's probes (amd_toolchain.cmake)
# and the build step of an amd module (wavebench_hip_compile.cmake): a target's wavefront size and
# ISA version, the options that compile for a set of targets, and the compiler's first error.
# Functions only; amd modules are rebuilt when it changes (the probes' logic is not here).

# The wavefront size a target's HIP code is compiled for: 64 on GCN/CDNA (gfx9 and older), 32 on
# RDNA (gfx10 and newer; wave64 there is a compile option this project does not use).
function(wavebench_hip_wave_size out target)
  string(REGEX REPLACE ":.*" "" name "${target}")
  if(name MATCHES "^gfx([0-9]+)-.*generic$")
    set(major ${CMAKE_MATCH_1})
  elseif(name MATCHES "^gfx([0-9]+)[0-9a-f][0-9a-f]$")
    set(major ${CMAKE_MATCH_1})
  else()
    set(major 9)
  endif()
  if(major GREATER_EQUAL 10)
    set(${out} 32 PARENT_SCOPE)
  else()
    set(${out} 64 PARENT_SCOPE)
  endif()
endfunction()

# A target's ISA-version bitcode: `lib` its file name (oclc_isa_version_942.bc), `version` the
# constant it defines (gfx942: 9402, gfx90a: 9010, gfx1151: 11501). Both empty for a generic target.
function(wavebench_hip_isa_version lib version target)
  string(REGEX REPLACE ":.*" "" name "${target}")
  set(${lib} "" PARENT_SCOPE)
  set(${version} "" PARENT_SCOPE)
  if(name MATCHES "^gfx([0-9]+)([0-9a-f])([0-9a-f])$")
    math(EXPR v "${CMAKE_MATCH_1} * 1000 + 0x${CMAKE_MATCH_2} * 100 + 0x${CMAKE_MATCH_3}")
    string(SUBSTRING "${name}" 3 -1 suffix)
    set(${lib} oclc_isa_version_${suffix}.bc PARENT_SCOPE)
    set(${version} ${v} PARENT_SCOPE)
  endif()
endfunction()

# The options that compile for `targets`: --offload-arch for each, and with `wave_defines` the
# wavefront size of each (-Xarch_<t>) and of the host.
function(wavebench_hip_arch_flags out targets wave_defines)
  set(flags)
  foreach(t IN LISTS targets)
    list(APPEND flags --offload-arch=${t})
  endforeach()
  if(wave_defines)
    list(APPEND flags -Xarch_host -D__AMDGCN_WAVEFRONT_SIZE=64)
    foreach(t IN LISTS targets)
      wavebench_hip_wave_size(size ${t})
      list(APPEND flags -Xarch_${t} -D__AMDGCN_WAVEFRONT_SIZE=${size})
    endforeach()
  endif()
  set(${out} ${flags} PARENT_SCOPE)
endfunction()

# The compiler's first `error:` line in `text` (else its first line), on one line, at most 200
# characters: the reason a target was left out, or a probe failed.
function(wavebench_hip_first_error out text)
  string(REGEX MATCH "[^\n]*error:[^\n]*" line "${text}")
  if(line STREQUAL "")
    string(REGEX MATCH "[^\n]+" line "${text}")
  endif()
  string(REGEX REPLACE "[\t\r]" " " line "${line}")
  string(STRIP "${line}" line)
  string(LENGTH "${line}" n)
  if(n GREATER 200)
    string(SUBSTRING "${line}" 0 197 line)
    string(APPEND line "...")
  endif()
  if(line STREQUAL "")
    set(line "the compiler failed and said nothing")
  endif()
  set(${out} "${line}" PARENT_SCOPE)
endfunction()
