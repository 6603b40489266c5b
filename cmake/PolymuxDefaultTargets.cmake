# POLYMUX_DEFAULT_TARGETS: the targets a build gets when POLYMUX_TARGETS is
# not given. host and riscv_sim need only what the whole build needs; vulkan
# joins them where its own dependencies are installed (scripts/setup installs
# them: libvulkan-dev, libvulkan-volk-dev, spirv-tools, spirv-headers), so
# CI builds and tests it in the one configuration. Nothing links the Vulkan
# loader: a machine without a driver simply has no vulkan devices.
set(POLYMUX_DEFAULT_TARGETS host riscv_sim)
find_path(POLYMUX_VOLK_INCLUDE_DIR volk.h)
find_file(POLYMUX_VOLK_SOURCE volk.c PATHS ${POLYMUX_VOLK_INCLUDE_DIR} NO_DEFAULT_PATH)
find_path(POLYMUX_VULKAN_HEADERS_DIR vulkan/vulkan_core.h)
find_path(POLYMUX_SPIRV_HEADERS_DIR spirv/unified1/spirv.hpp11)
find_package(SPIRV-Tools CONFIG QUIET)
if(POLYMUX_VOLK_INCLUDE_DIR AND POLYMUX_VOLK_SOURCE AND POLYMUX_VULKAN_HEADERS_DIR AND POLYMUX_SPIRV_HEADERS_DIR
   AND SPIRV-Tools_FOUND)
  list(APPEND POLYMUX_DEFAULT_TARGETS vulkan)
else()
  message(STATUS "The vulkan target is not built by default: volk, the Vulkan headers, SPIRV-Tools or the SPIR-V "
                 "headers are missing (scripts/setup installs them)")
endif()
