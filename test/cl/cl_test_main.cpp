// The cl_tests entry point. Before anything touches the ICD loader, point it
// at the build's own icd/ directory unless the caller chose one: running
// ./cl_tests by hand, or test discovery (which CMake < 3.29 runs without the
// test environment), then reaches Polymux and never another installed ICD.
#include <gtest/gtest.h>

#include <cstdlib>

int main(int argc, char **argv) {
#ifdef POLYMUX_TEST_DEFAULT_ICD_DIR
  setenv("OCL_ICD_VENDORS", POLYMUX_TEST_DEFAULT_ICD_DIR, /*overwrite=*/0);
#endif
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
