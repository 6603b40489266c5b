# cmake -DOUTPUT=<header> -DMODULES="<name>=<file.spv>;..." -P EmbedSpirv.cmake
#
# Writes each SPIR-V module as `inline constexpr unsigned char <name>[]`
# into namespace cltest::il_modules.
set(text "// Generated from test/kernels_il/*.cl by test/cl/EmbedSpirv.cmake. Do not edit.\n")
string(APPEND text "#pragma once\n\nnamespace cltest::il_modules {\n")
foreach(entry IN LISTS MODULES)
  string(REPLACE "=" ";" parts "${entry}")
  list(GET parts 0 name)
  list(GET parts 1 file)
  file(READ ${file} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(APPEND text "\ninline constexpr unsigned char ${name}[] = {${bytes}};\n")
endforeach()
string(APPEND text "\n} // namespace cltest::il_modules\n")
include(${CMAKE_CURRENT_LIST_DIR}/WriteIfChanged.cmake)
write_if_changed(${OUTPUT} "${text}")
