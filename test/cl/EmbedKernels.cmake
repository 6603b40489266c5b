# cmake -DKERNEL_DIR=<dir> -DOUTPUT=<header> -P EmbedKernels.cmake
#
# Writes every <dir>/<name>.cl as `inline constexpr std::string_view <name>`
# (a raw string literal) into namespace cltest::kernels.
file(GLOB kernel_files ${KERNEL_DIR}/*.cl)
list(SORT kernel_files)
set(text "// Generated from test/kernels/*.cl by test/cl/EmbedKernels.cmake. Do not edit.\n")
string(APPEND text "#pragma once\n\n#include <string_view>\n\nnamespace cltest::kernels {\n")
foreach(file IN LISTS kernel_files)
  get_filename_component(name ${file} NAME_WE)
  file(READ ${file} source)
  string(FIND "${source}" ")POLYMUX_CL\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${file} contains the raw string delimiter )POLYMUX_CL\"")
  endif()
  string(APPEND text "\ninline constexpr std::string_view ${name} = R\"POLYMUX_CL(${source})POLYMUX_CL\";\n")
endforeach()
string(APPEND text "\n} // namespace cltest::kernels\n")
include(${CMAKE_CURRENT_LIST_DIR}/WriteIfChanged.cmake)
write_if_changed(${OUTPUT} "${text}")
