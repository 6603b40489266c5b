// Constructs the SPIR-V compiler does not translate fail the build with a
// log line naming the kernel and the construct; none is a silent success.
#include "spirv_test_support.h"

namespace compiler::spirv::test {
namespace {

TEST(SpirvBuildErrors, RecursionNamesTheFunction) {
  std::string log = buildFails(R"(
    int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
    kernel void k(global int *p) { p[0] = fact(p[1]); })");
  EXPECT_NE(log.find("'fact'"), std::string::npos) << log;
  EXPECT_NE(log.find("recursion"), std::string::npos) << log;
}

TEST(SpirvBuildErrors, PrivateMemoryBeyondTheLimit) {
  // 64 MiB per work-item (lavapipe grew past 23 GiB running it); the same
  // kernel with a 64 KiB array builds.
  const char *hog = R"(
    kernel void hog(global int *out, int n) {
      volatile int big[SIZE];
      for (int i = 0; i < n; ++i)
        big[i] = i;
      out[get_global_id(0)] = big[n - 1];
    })";
  std::string log = buildFails(hog, "-DSIZE=16777216");
  EXPECT_NE(log.find("error: hog:"), std::string::npos) << log;
  EXPECT_NE(log.find("private memory"), std::string::npos) << log;
  buildOk(hog, "-DSIZE=16384");
}

TEST(SpirvBuildErrors, SyntaxErrorsKeepClangsDiagnostics) {
  std::string log = buildFails("kernel void k(global int *p) { p[0] = ; }");
  EXPECT_NE(log.find("expected expression"), std::string::npos) << log;
}

} // namespace
} // namespace compiler::spirv::test
