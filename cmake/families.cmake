# The families: one per core/families/<name>.cpp. core/ generates the list of families from these
# names and reference/ the table of their references, so no list of families is kept by hand.
wavebench_glob(family_definitions ${PROJECT_SOURCE_DIR}/core/families/*.cpp)
set(WAVEBENCH_FAMILIES "")
foreach(src IN LISTS family_definitions)
  get_filename_component(name ${src} NAME_WE)
  list(APPEND WAVEBENCH_FAMILIES ${name})
endforeach()

# Sets `out` to one line per family: `pattern` with @family@ replaced by the family's name.
function(wavebench_family_lines out pattern)
  set(text "")
  foreach(name IN LISTS WAVEBENCH_FAMILIES)
    string(REPLACE "@family@" "${name}" line "${pattern}")
    string(APPEND text "${line}\n")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
