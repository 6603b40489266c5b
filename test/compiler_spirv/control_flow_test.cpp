// Structured control flow: every shape must give a module the Vulkan
// validator accepts (merge and continue blocks derived from the IR).
#include "spirv_test_support.h"

namespace compiler::spirv::test {
namespace {

struct ControlFlowCase {
  const char *name;
  const char *source;
};
void PrintTo(const ControlFlowCase &c, std::ostream *os) { *os << c.name; }

class SpirvControlFlow : public ::testing::TestWithParam<ControlFlowCase> {};

TEST_P(SpirvControlFlow, BuildsToValidSpirv) {
  Built built = buildOk(GetParam().source);
  ASSERT_EQ(built.binary.kernels.size(), 1u);
  EXPECT_EQ(built.binary.kernels[0].name, "k");
}

const ControlFlowCase kCases[] = {
    {"EarlyReturn", R"(
      kernel void k(global int *p, int n) {
        int i = get_global_id(0);
        if (i >= n) return;
        p[i] = i * 2;
      })"},
    {"IfElseChain", R"(
      kernel void k(global int *p, int n) {
        int i = get_global_id(0);
        int v;
        if (p[i] < 0) v = -1; else if (p[i] == 0) v = 0; else v = 1;
        if (n > 3) { if (v > 0) p[i] = v; }
        p[i + n] = v;
      })"},
    {"NestedLoopsBreakContinue", R"(
      kernel void k(global int *p, int n) {
        int sum = 0;
        for (int i = 0; i < n; ++i) {
          if (p[i] < 0) continue;
          for (int j = 0; j < n; ++j) {
            if (p[j] == 7) break;
            sum += p[i] * p[j];
          }
          if (sum > 1000) break;
        }
        p[get_global_id(0)] = sum;
      })"},
    {"ReturnFromInnerLoop", R"(
      kernel void k(global int *p, int n) {
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j)
            if (p[i * n + j] == 42) { p[0] = i; return; }
        p[0] = -1;
      })"},
    {"Switch", R"(
      kernel void k(global int *p) {
        int i = get_global_id(0);
        switch (p[i] & 7) {
        case 0: p[i] = 10; break;
        case 1: p[i] = 20;
        case 2: p[i] += 30; break;
        case 5: p[i] = -p[i]; break;
        default: p[i] = 0;
        }
      })"},
    {"WhileTrueManyExits", R"(
      kernel void k(global int *p, int n) {
        int i = 0;
        while (1) {
          if (p[i] == 0) break;
          if (p[i] < 0) { p[i] = 0; break; }
          if (++i >= n) break;
        }
        p[n] = i;
      })"},
    {"DoWhile", R"(
      kernel void k(global uint *p) {
        uint x = p[get_global_id(0)];
        uint steps = 0;
        do { x = (x & 1) ? 3 * x + 1 : x / 2; ++steps; } while (x != 1 && steps < 1000);
        p[get_global_id(0)] = steps;
      })"},
    {"IrreducibleGoto", R"(
      kernel void k(global int *p, int n) {
        int i = 0;
        if (p[0] > 0) goto second;
      first:
        p[i] += 1;
        ++i;
      second:
        p[i] += 2;
        if (i < n) goto first;
      })"},
};

INSTANTIATE_TEST_SUITE_P(Cases, SpirvControlFlow, ::testing::ValuesIn(kCases),
                         [](const auto &info) { return std::string(info.param.name); });

} // namespace
} // namespace compiler::spirv::test
