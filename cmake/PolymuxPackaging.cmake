# `cmake --install` and CPack: the driver, its ICD file, the public headers
# and the documentation; `cpack` in the build directory makes
# polymux_<version>_amd64.deb, which a clean Debian 12 installs with
# `apt install ./polymux_*.deb` (its dependencies come from the archive).
include(GNUInstallDirs)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/CL DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
set(POLYMUX_INSTALL_DOCDIR ${CMAKE_INSTALL_DATAROOTDIR}/doc/polymux)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${POLYMUX_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/doc/ DESTINATION ${POLYMUX_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME polymux)
set(CPACK_PACKAGE_VENDOR "The Polymux developers")
set(CPACK_PACKAGE_CONTACT "The Polymux developers <polymux@invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "OpenCL 3.0 implementation for CPUs, Vulkan GPUs and a simulated RISC-V device")
set(CPACK_GENERATOR DEB)
# The ICD file lives in /etc, outside the prefix: install with DESTDIR so
# that it lands in the package, not on the building machine.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
# libLLVM, libclang-cpp, libstdc++ & co. from the binaries; the loader that
# reads /etc/OpenCL/vendors, and Vulkan (loaded at run time) for GPUs;
# llvm-spirv-15, run for SPIR-V programs (clCreateProgramWithIL).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "ocl-icd-libopencl1 | libopencl1")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libvulkan1, mesa-vulkan-drivers | vulkan-icd, clinfo, llvm-spirv-15")
set(CPACK_DEBIAN_PACKAGE_PROVIDES "opencl-icd")
include(CPack)
