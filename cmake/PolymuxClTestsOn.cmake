# polymux_cl_tests_on(<name> <devices>): an executable <name> that runs
# cl_tests (test/cl) with POLYMUX_DEVICES=<devices> (comma-separated target
# names), the Vulkan loader pointed at lavapipe unless the caller chose a
# driver (test/vulkan/cl_tests_on.cpp). ctest registers the suite on a
# subset of the targets through it.
include(PolymuxVulkanTestEnvironment)
function(polymux_cl_tests_on name devices)
  add_executable(${name} ${PROJECT_SOURCE_DIR}/test/vulkan/cl_tests_on.cpp)
  target_compile_definitions(${name} PRIVATE POLYMUX_CL_TESTS="$<TARGET_FILE:cl_tests>"
                                             POLYMUX_TEST_DEVICES="${devices}" POLYMUX_LAVAPIPE_ICD="${POLYMUX_LAVAPIPE_ICD}"
                                             POLYMUX_LAVAPIPE_VECTOR_WIDTH="${POLYMUX_LAVAPIPE_VECTOR_WIDTH}"
                                             POLYMUX_LAVAPIPE_SHADER_CACHE="${POLYMUX_LAVAPIPE_SHADER_CACHE}")
  add_dependencies(${name} cl_tests)
endfunction()
