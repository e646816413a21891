# Run by the build (cmake/report_assets.cmake): `npm ci` of tools/report's package files in
# OUT_DIR/npm, then the minified browser builds of vega, vega-lite and vega-embed copied to OUT_DIR
# as the report page inlines them (source map comments dropped: the page requests nothing), and
# their licenses. Fails with what is missing when npm or the registry cannot deliver them.
# cmake -DNPM=npm -DPACKAGE_DIR=tools/report -DOUT_DIR=build/report -P report_npm.cmake
set(work ${OUT_DIR}/npm)
file(MAKE_DIRECTORY ${work})
foreach(f package.json package-lock.json)
  file(COPY_FILE ${PACKAGE_DIR}/${f} ${work}/${f} ONLY_IF_DIFFERENT)
endforeach()
# --prefer-offline: what npm's cache holds is not fetched again; no scripts, audit or fund.
execute_process(COMMAND ${NPM} ci --ignore-scripts --no-audit --no-fund --prefer-offline --no-update-notifier
                        --engine-strict=false --loglevel=error
                WORKING_DIRECTORY ${work} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status MATCHES "^[0-9]+$")
  message(FATAL_ERROR "could not run npm (${NPM}: ${status}): wavebench report embeds Vega from the npm registry "
                      "at build time; install Node.js with npm (`make deps` installs Debian's nodejs and npm)")
elseif(NOT status EQUAL 0)
  execute_process(COMMAND ${NPM} config get registry OUTPUT_VARIABLE registry ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  message(FATAL_ERROR "`npm ci` of tools/report failed (status ${status}): wavebench report embeds Vega, Vega-Lite "
                      "and vega-embed from the npm registry (${registry}) or npm's cache, and could get neither. "
                      "Reach the registry once (or point npm at a mirror: npm config set registry URL), then build "
                      "again. npm said:\n${out}")
endif()

set(licenses "")
foreach(package vega vega-lite vega-embed)
  set(file ${work}/node_modules/${package}/build/${package}.min.js)
  if(NOT EXISTS ${file})
    message(FATAL_ERROR "${package}: npm installed no ${file}; tools/report/package.json names a version without it")
  endif()
  file(READ ${file} js)
  string(REGEX REPLACE "//# sourceMappingURL=[^\n]*\n?$" "" js "${js}")
  # Inlined in a <script>: text that would end it or change how the browser reads it is refused.
  string(TOLOWER "${js}" lower)
  foreach(bad "</script" "<!--")
    string(FIND "${lower}" "${bad}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${file} holds '${bad}' and cannot be inlined in the report page")
    endif()
  endforeach()
  file(WRITE ${OUT_DIR}/${package}.min.js "${js}")
  file(READ ${work}/node_modules/${package}/package.json manifest)
  string(JSON version GET "${manifest}" version)
  file(READ ${work}/node_modules/${package}/LICENSE license)
  string(APPEND licenses "${package} ${version}\n\n${license}\n\n")
endforeach()
file(WRITE ${OUT_DIR}/licenses.txt "${licenses}")
