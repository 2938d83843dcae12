# Fails when any C++ source differs from what .clang-format asks for.
file(GLOB_RECURSE sources
  "${SOURCE_DIR}/core/*.cpp" "${SOURCE_DIR}/core/*.h"
  "${SOURCE_DIR}/ui/*.cpp" "${SOURCE_DIR}/ui/*.h"
  "${SOURCE_DIR}/app/*.cpp" "${SOURCE_DIR}/app/*.h"
  "${SOURCE_DIR}/tests/*.cpp" "${SOURCE_DIR}/tests/*.h")
execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror ${sources}
                RESULT_VARIABLE rc ERROR_VARIABLE diff)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "clang-format wants changes (run: clang-format -i on these files):\n${diff}")
endif()
