# wavebench_glob(<var> [RECURSE] <pattern>...): file(GLOB) (GLOB_RECURSE with RECURSE), with the
# folders whose listing the result depends on made configure dependencies of the build.
#
# Why not CONFIGURE_DEPENDS: with it, every build first runs a CMake script that globs again
# ("Re-checking globbed directories"), so no build is ever empty (`ninja -n` always has work) and each
# pays the script. A folder's modification time changes exactly when an entry is added to it, removed
# or renamed, which is when a glob's result can change; editing a file in place changes no folder, so
# it costs nothing. A new plugin file, family folder or test source re-runs CMake (about a second
# once configured) at the next build, and only what is new compiles.
function(wavebench_glob var)
  set(recurse FALSE)
  set(patterns ${ARGN})
  if(ARGV1 STREQUAL "RECURSE")
    set(recurse TRUE)
    list(REMOVE_AT patterns 0)
  endif()
  set(found)
  set(folders)
  foreach(pattern IN LISTS patterns)
    if(recurse)
      file(GLOB_RECURSE matches ${pattern})
    else()
      file(GLOB matches ${pattern})
    endif()
    list(APPEND found ${matches})
    get_filename_component(dir_pattern ${pattern} DIRECTORY)
    _wavebench_glob_folders(dirs ${dir_pattern})
    if(recurse) # every folder under each: a file may appear at any depth
      foreach(d IN LISTS dirs)
        file(GLOB_RECURSE below LIST_DIRECTORIES true ${d}/*)
        foreach(b IN LISTS below)
          if(IS_DIRECTORY ${b})
            list(APPEND dirs ${b})
          endif()
        endforeach()
      endforeach()
    endif()
    list(APPEND folders ${dirs})
  endforeach()
  # A folder that does not exist yet: the nearest one above it that does (where it would appear).
  set(existing)
  foreach(d IN LISTS folders)
    while(NOT IS_DIRECTORY ${d})
      get_filename_component(d ${d} DIRECTORY)
    endwhile()
    list(APPEND existing ${d})
  endforeach()
  set(folders ${existing})
  list(REMOVE_DUPLICATES folders)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${folders})
  set(${var} ${found} PARENT_SCOPE)
endfunction()

# The folders a glob of `dir_pattern`/<file pattern> lists: the pattern's folders where it has no
# wildcard; where it has one, the folder above the first wildcard (an entry added there may be a
# new match) and, for each folder that matches so far, the folders below it that the rest names.
function(_wavebench_glob_folders out dir_pattern)
  if(NOT dir_pattern MATCHES "[*?[]")
    set(${out} ${dir_pattern} PARENT_SCOPE)
    return()
  endif()
  string(REGEX MATCH "^[^*?[]*/" fixed "${dir_pattern}") # up to the component with the wildcard
  string(LENGTH "${fixed}" n)
  string(SUBSTRING "${dir_pattern}" ${n} -1 rest)
  string(REGEX MATCH "^[^/]*" component "${rest}")
  string(LENGTH "${component}" m)
  string(SUBSTRING "${rest}" ${m} -1 rest) # "" or "/..."
  string(REGEX REPLACE "/$" "" parent "${fixed}")
  set(result ${parent})
  file(GLOB matches LIST_DIRECTORIES true ${fixed}${component})
  foreach(match IN LISTS matches)
    if(IS_DIRECTORY ${match})
      _wavebench_glob_folders(below ${match}${rest})
      list(APPEND result ${below})
    endif()
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()
