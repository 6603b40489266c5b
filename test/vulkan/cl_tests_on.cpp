// cl_tests on some targets' devices: sets POLYMUX_DEVICES to
// POLYMUX_TEST_DEVICES ("vulkan"; "host,vulkan" for contexts of both; the
// targets other than vulkan) and, unless the caller chose a Vulkan driver,
// points the Vulkan loader at Mesa's lavapipe (128-bit mode, a shader cache
// of its own); then runs cl_tests with the same arguments. A program of its
// own (not an environment setting of ctest) so that test discovery, which
// CMake 3.25 runs without the tests' environment, lists the same tests,
// under the same names, as the runs do.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

int main(int argc, char **argv) {
  setenv("POLYMUX_DEVICES", POLYMUX_TEST_DEVICES, 1);
  if (!std::getenv("VK_DRIVER_FILES") && !std::getenv("VK_ICD_FILENAMES") && access(POLYMUX_LAVAPIPE_ICD, R_OK) == 0) {
    setenv("VK_DRIVER_FILES", POLYMUX_LAVAPIPE_ICD, 1);
    setenv("VK_ICD_FILENAMES", POLYMUX_LAVAPIPE_ICD, 1); // loaders before 1.3.234
    // lavapipe's 256-bit code leaves double rint unrounded on some CPUs
    // (PolymuxVulkanTestEnvironment.cmake); its cache mixes the two modes.
    setenv("LP_NATIVE_VECTOR_WIDTH", POLYMUX_LAVAPIPE_VECTOR_WIDTH, 0);
    setenv("MESA_SHADER_CACHE_DIR", POLYMUX_LAVAPIPE_SHADER_CACHE, 0);
  }
  argv[0] = const_cast<char *>(POLYMUX_CL_TESTS);
  execv(POLYMUX_CL_TESTS, argv);
  std::fprintf(stderr, "cannot run %s: %s\n", POLYMUX_CL_TESTS, std::strerror(errno));
  return 127;
}
