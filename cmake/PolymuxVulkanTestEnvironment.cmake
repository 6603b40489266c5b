# POLYMUX_VULKAN_TEST_ENVIRONMENT: the ctest environment of tests that run
# on vulkan devices. It points the Vulkan loader at Mesa's lavapipe (a CPU
# Vulkan driver, installed by scripts/setup) unless the configuring
# environment chose a driver itself (VK_DRIVER_FILES / VK_ICD_FILENAMES, e.g.
# NVIDIA's on a GPU machine).
set(POLYMUX_LAVAPIPE_ICD /usr/share/vulkan/icd.d/lvp_icd.x86_64.json)
set(POLYMUX_VULKAN_TEST_ENVIRONMENT "")
if(EXISTS ${POLYMUX_LAVAPIPE_ICD} AND NOT DEFINED ENV{VK_DRIVER_FILES} AND NOT DEFINED ENV{VK_ICD_FILENAMES})
  # VK_ICD_FILENAMES too for loaders older than 1.3.234. LP_NATIVE_VECTOR_WIDTH:
  # on AVX2 CPUs without AVX-512 (seen on an AMD EPYC), Debian 12's lavapipe
  # returns double RoundEven (OpenCL's rint) unrounded in its 256-bit code;
  # its 128-bit code rounds (doc/targets/vulkan.md, "lavapipe bugs").
  set(POLYMUX_VULKAN_TEST_ENVIRONMENT
      "VK_DRIVER_FILES=${POLYMUX_LAVAPIPE_ICD};VK_ICD_FILENAMES=${POLYMUX_LAVAPIPE_ICD};LP_NATIVE_VECTOR_WIDTH=128")
endif()
