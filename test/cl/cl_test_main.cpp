// The cl_tests entry point. Before anything touches the ICD loader, point it
// at the build's own icd/ directory unless the caller chose one: running
// ./cl_tests by hand, or test discovery (which CMake < 3.29 runs without the
// test environment), then reaches Polymux and never another installed ICD.
// Likewise the kernel cache goes to a temporary directory of this process
// unless POLYMUX_CACHE is set, so tests never write into the user's cache.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

int main(int argc, char **argv) {
#ifdef POLYMUX_TEST_DEFAULT_ICD_DIR
  setenv("OCL_ICD_VENDORS", POLYMUX_TEST_DEFAULT_ICD_DIR, /*overwrite=*/0);
#endif
  std::string ownCache;
  if (!std::getenv("POLYMUX_CACHE")) {
    std::error_code ec;
    std::string model = (std::filesystem::temp_directory_path(ec) / "polymux-cl-tests-XXXXXX").string();
    if (!ec && mkdtemp(model.data())) {
      ownCache = model;
      setenv("POLYMUX_CACHE", ownCache.c_str(), 1);
    } else {
      setenv("POLYMUX_CACHE", "0", 1); // no temporary directory: no cache
    }
  }
  testing::InitGoogleTest(&argc, argv);
  int result = RUN_ALL_TESTS();
  if (!ownCache.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(ownCache, ignored);
  }
  return result;
}
