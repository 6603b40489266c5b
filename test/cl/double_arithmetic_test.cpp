// What cl_khr_fp64 requires of double arithmetic beyond Vulkan's promises
// (the vulkan target measures both before it offers the extension,
// modules/targets/vulkan/fp64_probe.h): fma rounds once, and denormal
// operands and results are kept. Checked on every device that offers fp64.
#include "cl_test.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using namespace cltest;

namespace {

class DoubleArithmeticTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!deviceHasExtension(device(), "cl_khr_fp64"))
      GTEST_SKIP() << "no cl_khr_fp64";
  }
};

TEST_P(DoubleArithmeticTest, FmaRoundsOnceAndDenormalsAreKept) {
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

/// fma operands that stress a correctly rounded fma: every exponent and
/// class, sums that cancel, results that are subnormal or overflow, and
/// sums that lie exactly halfway between two doubles or next to it.
std::vector<double> hardFmaOperands(size_t count) {
  std::mt19937_64 random(20261127);
  auto bits = [&](uint64_t sign, uint64_t field, uint64_t mantissa) {
    return std::bit_cast<double>(sign << 63 | field << 52 | (mantissa & ((uint64_t{1} << 52) - 1)));
  };
  auto anyDouble = [&] { return bits(random() & 1, random() % 2048, random()); };
  auto nearExponent = [&](int exponent) { // |x| near 2^exponent, normal
    int field = std::clamp(exponent + 1023 + int(random() % 5) - 2, 1, 2046);
    return bits(random() & 1, uint64_t(field), random());
  };
  const double special[] = {0.0,
                            -0.0,
                            std::numeric_limits<double>::infinity(),
                            -std::numeric_limits<double>::infinity(),
                            std::numeric_limits<double>::quiet_NaN(),
                            std::numeric_limits<double>::denorm_min(),
                            -std::numeric_limits<double>::max(),
                            1.0};
  std::vector<double> operands;
  operands.reserve(3 * count);
  for (size_t i = 0; i < count; ++i) {
    double a, b, c;
    switch (i % 7) {
    case 0: // anything, subnormals, infinities and NaNs included
      a = anyDouble(), b = anyDouble(), c = anyDouble();
      break;
    case 1: // c cancels most of the product, give or take a few ulps
      a = anyDouble(), b = nearExponent(int(random() % 200) - 100);
      c = -(a * b);
      c = std::bit_cast<double>(std::bit_cast<uint64_t>(c) + (random() % 9) - 4);
      break;
    case 2: { // short mantissas: exact products, halfway sums
      auto shortMantissa = [&](int exponent) {
        return std::ldexp(double(random() % (uint64_t{1} << 27) | 1), exponent) * ((random() & 1) ? -1 : 1);
      };
      int ea = int(random() % 200) - 100, eb = int(random() % 200) - 100;
      a = shortMantissa(ea), b = shortMantissa(eb);
      c = std::ldexp((random() & 1) ? 1.0 : -1.0, ea + eb + 54 + int(random() % 8) - 4);
      break;
    }
    case 3: // subnormal and underflowing results
      a = nearExponent(-540 + int(random() % 40)), b = nearExponent(-540 + int(random() % 40));
      c = (random() & 1) ? bits(random() & 1, 0, random()) : nearExponent(-1022 + int(random() % 4));
      break;
    case 4: // results near the overflow threshold
      a = nearExponent(512), b = nearExponent(511), c = nearExponent(1023);
      break;
    case 5: // a special operand among ordinary ones
      a = (random() & 1) ? special[random() % 8] : anyDouble();
      b = (random() & 1) ? special[random() % 8] : anyDouble();
      c = (random() & 1) ? special[random() % 8] : nearExponent(int(random() % 100) - 50);
      break;
    default: // ordinary numbers of similar scale
      a = nearExponent(int(random() % 40) - 20), b = nearExponent(int(random() % 40) - 20),
      c = nearExponent(int(random() % 40) - 20);
      break;
    }
    operands.insert(operands.end(), {a, b, c});
  }
  return operands;
}

TEST_P(DoubleArithmeticTest, FmaIsCorrectlyRoundedForHardOperands) {
  // Scalars and vectors: a target may lower the two differently.
  Program program = build(R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void fma1(__global const double *in, __global double *out) {
  size_t i = get_global_id(0);
  out[i] = fma(in[3 * i], in[3 * i + 1], in[3 * i + 2]);
}
__kernel void fma2(__global const double *in, __global double *out) {
  size_t i = get_global_id(0);
  double2 a = (double2)(in[6 * i], in[6 * i + 3]), b = (double2)(in[6 * i + 1], in[6 * i + 4]);
  double2 c = (double2)(in[6 * i + 2], in[6 * i + 5]);
  vstore2(fma(a, b, c), i, out);
})");
  ASSERT_TRUE(program);
  constexpr size_t kCount = 1 << 16;
  std::vector<double> operands = hardFmaOperands(kCount);
  Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, operands.size() * sizeof(double), operands.data());
  for (auto [name, items] : {std::pair{"fma1", kCount}, std::pair{"fma2", kCount / 2}}) {
    Mem output = buffer(CL_MEM_WRITE_ONLY, kCount * sizeof(double));
    Kernel k = kernel(program, name);
    setArgs(k, input.get(), output.get());
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
    std::vector<double> got = read<double>(output, kCount);
    size_t failures = 0;
    for (size_t i = 0; i < kCount && failures < 10; ++i) {
      double a = operands[3 * i], b = operands[3 * i + 1], c = operands[3 * i + 2];
      double expected = std::fma(a, b, c);
      bool same = std::isnan(expected) ? std::isnan(got[i])
                                       : std::bit_cast<uint64_t>(got[i]) == std::bit_cast<uint64_t>(expected);
      if (!same) {
        ++failures;
        ADD_FAILURE() << name << " item " << i << ": fma(" << std::hexfloat << a << ", " << b << ", " << c
                      << ") = " << got[i] << ", expected " << expected;
      }
    }
  }
}

} // namespace

CLTEST_INSTANTIATE(DoubleArithmeticTest);
