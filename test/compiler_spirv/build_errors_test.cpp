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

TEST(SpirvBuildErrors, SyntaxErrorsKeepClangsDiagnostics) {
  std::string log = buildFails("kernel void k(global int *p) { p[0] = ; }");
  EXPECT_NE(log.find("expected expression"), std::string::npos) << log;
}

} // namespace
} // namespace compiler::spirv::test
