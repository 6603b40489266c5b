# polymux_discovered_test_properties(<test list> [TIMEOUT <seconds>]
#                                    [ENVIRONMENT <NAME=value>...])
#
# Sets TIMEOUT and ENVIRONMENT on the tests that gtest_discover_tests(...
# TEST_LIST <test list>) registers. gtest_discover_tests' own PROPERTIES
# cannot carry an environment of more than one entry with CMake < 3.29: the
# list is flattened into the property/value pairs, so every entry after the
# first (and any property after it) is silently dropped or misread. Here the
# properties are set by a ctest include file that runs after the discovered
# tests exist, with the environment written as one bracket argument.
function(polymux_discovered_test_properties test_list)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TIMEOUT" "ENVIRONMENT")
  set(properties "")
  if(DEFINED arg_TIMEOUT)
    string(APPEND properties " TIMEOUT ${arg_TIMEOUT}")
  endif()
  if(arg_ENVIRONMENT)
    string(APPEND properties " ENVIRONMENT [==[${arg_ENVIRONMENT}]==]")
  endif()
  if(NOT properties)
    return()
  endif()
  set(file "${CMAKE_CURRENT_BINARY_DIR}/${test_list}_properties.cmake")
  file(WRITE "${file}" "if(${test_list})\n  set_tests_properties(\${${test_list}} PROPERTIES${properties})\nendif()\n")
  # Included after gtest_discover_tests' own file, which defines the list.
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${file}")
endfunction()
