// What cl_khr_fp64 requires of double arithmetic beyond Vulkan's promises
// (the vulkan target measures both before it offers the extension,
// modules/targets/vulkan/fp64_probe.h): fma rounds once, and denormal
// operands and results are kept. Checked on every device that offers fp64.
#include "cl_test.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace cltest;

namespace {

class DoubleArithmeticTest : public DeviceTest {};

TEST_P(DoubleArithmeticTest, FmaRoundsOnceAndDenormalsAreKept) {
  if (!deviceHasExtension(device(), "cl_khr_fp64"))
    GTEST_SKIP() << "no cl_khr_fp64";
  Program program = build(R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void arithmetic(__global const double *in, __global double *out) {
  double a = in[0], b = in[1], c = in[2], d = in[3], x = in[4], y = in[5];
  out[0] = fma(x, x, y);
  out[1] = a + b;
  out[2] = a - b;
  out[3] = a * c;
  out[4] = d * d;
  out[5] = fma(a, c, b);
  out[6] = a > 0.0 ? 1.0 : 0.0;
  out[7] = -a;
  out[8] = a / 2.0;
})");
  ASSERT_TRUE(program);
  const double a = std::bit_cast<double>(uint64_t{0x000F00000000ABCC}); // a denormal; a * 1.5 is exact
  const double b = std::bit_cast<double>(uint64_t{7});
  const double x = 1.0 + std::ldexp(1.0, -30);
  const std::vector<double> in{a, b, 1.5, std::ldexp(1.0, -530), x, -(1.0 + std::ldexp(1.0, -29))};
  // Exact values: each is representable, so no rounding enters them.
  const std::vector<double> expected{std::ldexp(1.0, -60),
                                     a + b,
                                     a - b,
                                     a * 1.5,
                                     std::ldexp(1.0, -1060),
                                     a * 1.5 + b,
                                     1.0,
                                     -a,
                                     std::bit_cast<double>(uint64_t{0x00078000000055E6})};
  Mem input =
      buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in.size() * sizeof(double), const_cast<double *>(in.data()));
  Mem output = buffer(CL_MEM_WRITE_ONLY, expected.size() * sizeof(double));
  Kernel k = kernel(program, "arithmetic");
  setArgs(k, input.get(), output.get());
  const size_t one = 1;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
  std::vector<double> got = read<double>(output, expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(std::bit_cast<uint64_t>(got[i]), std::bit_cast<uint64_t>(expected[i]))
        << "result " << i << ": " << std::hexfloat << got[i] << ", expected " << expected[i];
}

} // namespace

CLTEST_INSTANTIATE(DoubleArithmeticTest);
