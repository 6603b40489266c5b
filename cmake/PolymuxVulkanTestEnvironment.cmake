# POLYMUX_VULKAN_TEST_ENVIRONMENT: the ctest environment of tests that run
# on vulkan devices. It points the Vulkan loader at Mesa's lavapipe (a CPU
# Vulkan driver, installed by scripts/setup) unless the configuring
# environment chose a driver itself (VK_DRIVER_FILES / VK_ICD_FILENAMES, e.g.
# NVIDIA's on a GPU machine).
set(POLYMUX_LAVAPIPE_ICD /usr/share/vulkan/icd.d/lvp_icd.x86_64.json)
# lavapipe runs in 128-bit mode: on AVX2 CPUs without AVX-512 (seen on an
# AMD EPYC), Debian 12's lavapipe returns double RoundEven (OpenCL's rint)
# unrounded in its 256-bit code (doc/targets/vulkan.md). Its shader cache
# does not tell the two modes apart, so the tests keep one of their own.
set(POLYMUX_LAVAPIPE_VECTOR_WIDTH 128)
set(POLYMUX_LAVAPIPE_SHADER_CACHE ${CMAKE_BINARY_DIR}/lavapipe-shader-cache)
set(POLYMUX_VULKAN_TEST_ENVIRONMENT "")
if(EXISTS ${POLYMUX_LAVAPIPE_ICD} AND NOT DEFINED ENV{VK_DRIVER_FILES} AND NOT DEFINED ENV{VK_ICD_FILENAMES})
  # VK_ICD_FILENAMES too for loaders older than 1.3.234.
  set(POLYMUX_VULKAN_TEST_ENVIRONMENT
      "VK_DRIVER_FILES=${POLYMUX_LAVAPIPE_ICD};VK_ICD_FILENAMES=${POLYMUX_LAVAPIPE_ICD};LP_NATIVE_VECTOR_WIDTH=128;MESA_SHADER_CACHE_DIR=${POLYMUX_LAVAPIPE_SHADER_CACHE}")
endif()
