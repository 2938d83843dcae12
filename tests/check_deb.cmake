# Builds the Debian package into a scratch directory and checks its file list.
set(out "${BUILD_DIR}/deb-check")
file(REMOVE_RECURSE "${out}")
execute_process(COMMAND cpack -G DEB -B "${out}" --config "${BUILD_DIR}/CPackConfig.cmake"
                RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cpack failed (${rc}):\n${log}")
endif()
file(GLOB debs "${out}/*.deb")
list(LENGTH debs n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one .deb in ${out}, found ${n}: ${debs}")
endif()
execute_process(COMMAND dpkg-deb -c ${debs} RESULT_VARIABLE rc OUTPUT_VARIABLE listing)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dpkg-deb -c failed on ${debs}")
endif()
foreach(want
    "./usr/bin/bloomscope"
    "./usr/bin/bloomctl"
    "./usr/share/applications/org.bloomscope.Bloomscope.desktop"
    "./usr/share/icons/hicolor/scalable/apps/org.bloomscope.Bloomscope.svg")
  string(FIND "${listing}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the .deb lacks ${want}; it holds:\n${listing}")
  endif()
endforeach()


# What a distribution checks: lintian (no error, no warning), the AppStream metainfo, the .desktop file.
foreach(tool lintian appstreamcli desktop-file-validate)
  find_program(${tool}_exe ${tool})
  if(NOT ${tool}_exe)
    message(FATAL_ERROR "${tool} is not installed (packaging/setup installs it)")
  endif()
endforeach()
execute_process(COMMAND ${lintian_exe} --info ${debs} RESULT_VARIABLE rc OUTPUT_VARIABLE lint ERROR_VARIABLE lint)
if(lint MATCHES "(^|\n)[EW]: ")
  message(FATAL_ERROR "lintian reports errors or warnings on ${debs}:\n${lint}")
endif()

# Installed into a throw-away root: the files are where the tools and bash-completion look.
set(root "${out}/root")
execute_process(COMMAND dpkg-deb -x ${debs} ${root} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dpkg-deb -x failed on ${debs}")
endif()
foreach(want
    usr/share/man/man1/bloomctl.1.gz usr/share/man/man1/bloomscope.1.gz
    usr/share/doc/bloomscope/copyright usr/share/doc/bloomscope/changelog.gz
    usr/share/bash-completion/completions/bloomctl
    lib/systemd/system/bloomscope-record@.service lib/systemd/system/bloomscope-record@.timer
    usr/share/doc/bloomscope/README.systemd usr/share/doc/bloomscope/examples/pg_service.conf
    usr/share/metainfo/org.bloomscope.Bloomscope.metainfo.xml
    usr/share/icons/hicolor/48x48/apps/org.bloomscope.Bloomscope.png
    usr/share/icons/hicolor/256x256/apps/org.bloomscope.Bloomscope.png)
  if(NOT EXISTS "${root}/${want}")
    message(FATAL_ERROR "the .deb lacks /${want}")
  endif()
endforeach()
execute_process(COMMAND ${appstreamcli_exe} validate --no-net --explain
                        ${root}/usr/share/metainfo/org.bloomscope.Bloomscope.metainfo.xml
                RESULT_VARIABLE rc OUTPUT_VARIABLE as ERROR_VARIABLE as)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "appstreamcli validate failed:\n${as}")
endif()
execute_process(COMMAND ${desktop-file-validate_exe} ${root}/usr/share/applications/org.bloomscope.Bloomscope.desktop
                RESULT_VARIABLE rc OUTPUT_VARIABLE dfv ERROR_VARIABLE dfv)
if(NOT rc EQUAL 0 OR dfv MATCHES "error|warning")
  message(FATAL_ERROR "desktop-file-validate:\n${dfv}")
endif()
execute_process(COMMAND ${root}/usr/bin/bloomctl --version RESULT_VARIABLE rc OUTPUT_VARIABLE version)
if(NOT rc EQUAL 0 OR NOT version MATCHES "^bloomctl [0-9]+\\.[0-9]+\\.[0-9]+")
  message(FATAL_ERROR "the installed bloomctl --version gave (${rc}): ${version}")
endif()
execute_process(COMMAND ${root}/usr/bin/bloomctl explain ada RESULT_VARIABLE rc OUTPUT_VARIABLE explained)
if(NOT rc EQUAL 0 OR NOT explained MATCHES "71962")
  message(FATAL_ERROR "the installed bloomctl explain ada gave (${rc}):\n${explained}")
endif()
execute_process(COMMAND bash -c "source /usr/share/bash-completion/bash_completion && source '${root}/usr/share/bash-completion/completions/bloomctl' && complete -p bloomctl"
                RESULT_VARIABLE rc OUTPUT_VARIABLE completion ERROR_VARIABLE completion)
if(NOT rc EQUAL 0 OR NOT completion MATCHES "_bloomctl")
  message(FATAL_ERROR "the bash completion does not load:\n${completion}")
endif()
# The timer and its service as systemd reads them (the installed bloomctl stands in for /usr/bin's).
find_program(systemd_analyze systemd-analyze)
if(systemd_analyze)
  set(units "${out}/units")
  file(MAKE_DIRECTORY "${units}")
  file(READ "${root}/lib/systemd/system/bloomscope-record@.service" service)
  string(REPLACE "/usr/bin/bloomctl" "${root}/usr/bin/bloomctl" service "${service}")
  file(WRITE "${units}/bloomscope-record@check.service" "${service}")
  file(COPY_FILE "${root}/lib/systemd/system/bloomscope-record@.timer" "${units}/bloomscope-record@check.timer")
  execute_process(COMMAND ${systemd_analyze} verify --man=no bloomscope-record@check.service bloomscope-record@check.timer
                  WORKING_DIRECTORY "${units}" RESULT_VARIABLE rc OUTPUT_VARIABLE sd ERROR_VARIABLE sd)
  if(NOT rc EQUAL 0 OR NOT sd STREQUAL "")
    message(FATAL_ERROR "systemd-analyze verify on the timer and its service (${rc}):\n${sd}")
  endif()
endif()
file(SIZE ${debs} bytes)
message(STATUS "lintian clean, metainfo and .desktop valid, installed bloomctl runs; ${bytes} bytes")
