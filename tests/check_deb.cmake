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
message(STATUS "${debs} holds bloomscope, bloomctl, the .desktop file and the icon")
