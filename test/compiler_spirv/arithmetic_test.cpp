// Integer, floating-point and vector arithmetic, conversions, comparisons.
#include "spirv_test_support.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp11>

namespace compiler::spirv::test {
namespace {

TEST(SpirvArithmetic, IntegerOperations) {
  buildOk(R"(
    kernel void k(global int *p, global uint *u, global long *l, global short *s, global uchar *c) {
      int i = get_global_id(0);
      int a = p[i], b = p[i + 1];
      p[i] = a / b + a % b + (a << 3) + (a >> 2) + (a & b) + (a | b) + (a ^ b) + (a < b) + min(a, b) + max(a, b);
      u[i] = u[i] / u[i + 1] + u[i] % 7u + (u[i] >> 5) + popcount(u[i]) + abs(a);
      l[i] = l[i] * l[i + 1] + (long)a + (long)u[i];
      s[i] = (short)(s[i] + s[i + 1]);
      c[i] = (uchar)(c[i] * 3);
    })");
}

TEST(SpirvArithmetic, FloatOperationsAndConversions) {
  buildOk(R"(
    kernel void k(global float *f, global double *d, global int *p) {
      int i = get_global_id(0);
      float x = f[i], y = f[i + 1];
      f[i] = x / y + fabs(x) + floor(y) + ceil(x) + trunc(y) + fmin(x, y) + fmax(x, y) + fmod(x, y);
      d[i] = (double)x * d[i] + (double)p[i];
      p[i] = (int)x + (int)(uint)y + (x < y) + (x != y) + isnan(x) + (x >= y);
    })");
}

TEST(SpirvArithmetic, Vectors) {
  buildOk(R"(
    kernel void k(global float4 *v, global int2 *w, float4 scale) {
      int i = get_global_id(0);
      float4 a = v[i] * scale;
      v[i] = a.wzyx + (float4)(a.x, 1.0f, 2.0f, a.y);
      int2 b = w[i];
      w[i] = (int2)(b.y, b.x) + (b > 3);
    })");
}

TEST(SpirvArithmetic, SelectAndPhi) {
  buildOk(R"(
    kernel void k(global float *f, int n) {
      float acc = 0.0f;
      for (int i = 0; i < n; ++i)
        acc = f[i] > acc ? f[i] : acc * 0.5f;
      f[get_global_id(0)] = acc;
    })");
}

} // namespace
} // namespace compiler::spirv::test

namespace compiler::spirv::test {
namespace {

TEST(SpirvArithmetic, WideVectorsAreScalarized) {
  buildOk(R"(
    kernel void k(global float16 *v, global int8 *w, global uchar3 *c) {
      int i = get_global_id(0);
      v[i] = v[i] * v[i + 1] + (float16)(2.0f);
      w[i] = w[i].s76543210 + (w[i] > 0);
      c[i] = c[i] + (uchar3)(1, 2, 3);
    })");
}

TEST(SpirvArithmetic, SqrtCopysignRint) {
  buildOk(R"(
    kernel void k(global float *f, global double *d) {
      int i = get_global_id(0);
      f[i] = sqrt(f[i]) + copysign(f[i], f[i + 1]) + rint(f[i + 2]);
      d[i] = rint(d[i]) + copysign(d[i], d[i + 1]);
    })");
}

TEST(SpirvArithmetic, PrivateArrayInitialisedWithMemset) {
  buildOk(R"(
    kernel void k(global int *p, int n) {
      int counts[32] = {0};
      for (int i = 0; i < n; ++i)
        counts[p[i] & 31]++;
      for (int i = 0; i < 32; ++i)
        p[i] = counts[i];
    })");
}

} // namespace
} // namespace compiler::spirv::test

namespace compiler::spirv::test {
namespace {

TEST(SpirvArithmetic, SaturatingAddAndSubtract) {
  buildOk(R"(
    kernel void k(global int *i, global uint *u, global char *c, global ushort *s) {
      int x = get_global_id(0);
      i[x] = add_sat(i[x], i[x + 1]) + sub_sat(i[x], 7);
      u[x] = add_sat(u[x], u[x + 1]) + sub_sat(u[x], 7u);
      c[x] = add_sat(c[x], (char)100);
      s[x] = sub_sat(s[x], (ushort)3);
    })");
}

} // namespace
} // namespace compiler::spirv::test

namespace compiler::spirv::test {
namespace {

TEST(SpirvArithmetic, SqrtWithoutFp64AndClassification) {
  VulkanTargetConfig config = lavapipeConfig();
  config.fp64 = false;
  config.extensions = {"cl_khr_byte_addressable_store"};
  std::string log;
  auto module = createVulkanTarget(config)->build(R"(
    kernel void k(global float *f, global int *p) {
      int i = get_global_id(0);
      f[i] = sqrt(f[i]);
      p[i] = isnan(f[i + 1]) + isinf(f[i + 2]) * 2 + isfinite(f[i + 3]) * 4 + isnormal(f[i + 4]) * 8 +
             signbit(f[i + 5]) * 16;
    })",
                                                  "", log);
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError()) << log;
  auto bytes = (*module)->binary();
  ASSERT_TRUE(bool(bytes));
  auto binary = decodeVulkanBinary(*bytes);
  ASSERT_TRUE(bool(binary));
  EXPECT_EQ(validationMessages(binary->spirv), "");
}

} // namespace
} // namespace compiler::spirv::test

namespace compiler::spirv::test {
namespace {

TEST(SpirvArithmetic, FloatFmaNeedsDoubleArithmetic) {
  const char *source = "kernel void k(global float *f) { f[0] = fma(f[1], f[2], f[3]); }";
  VulkanTargetConfig config = lavapipeConfig();
  config.fp64 = false;
  config.shaderFloat64 = true;
  config.extensions = {};
  std::string log;
  auto module = createVulkanTarget(config)->build(source, "", log);
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError()) << log;
  auto binary = decodeVulkanBinary(*(*module)->binary());
  ASSERT_TRUE(bool(binary));
  EXPECT_EQ(validationMessages(binary->spirv), "");
  // Without double arithmetic there is no exact fma: the build says so.
  config.shaderFloat64 = false;
  log.clear();
  auto refused = createVulkanTarget(config)->build(source, "", log);
  EXPECT_FALSE(bool(refused));
  if (!refused)
    llvm::consumeError(refused.takeError());
  EXPECT_NE(log.find("llvm.fma.f32"), std::string::npos) << log;
}

/// How many GLSL.std.450 Fma instructions `spirv` has.
size_t fmaCount(const std::vector<uint32_t> &spirv) {
  return countInstructions(spirv, [](std::span<const uint32_t> words) {
    return (words[0] & 0xffff) == uint32_t(spv::Op::OpExtInst) && words.size() >= 5 && words[4] == GLSLstd450Fma;
  });
}

TEST(SpirvArithmetic, DoubleFmaIsComputedInIntegersWhereTheDeviceRoundsTwice) {
  VulkanTargetConfig fused = lavapipeConfig(), roundsTwice = lavapipeConfig();
  fused.exactDoubleFma = true;
  roundsTwice.exactDoubleFma = false;
  // fma() on doubles, a scalar and a vector: the device's Fma, or none.
  const std::string doubles = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void k(global double *d, global double2 *v) {
  d[0] = fma(d[1], d[2], d[3]);
  v[0] = fma(v[1], v[2], v[3]);
})";
  EXPECT_EQ(fmaCount(buildOk(doubles, "", fused).binary.spirv), 3u);
  Built emulated = buildOk(doubles, "", roundsTwice);
  EXPECT_EQ(fmaCount(emulated.binary.spirv), 0u);
  EXPECT_GT(opcodeCount(emulated.binary.spirv, uint32_t(spv::Op::OpShiftRightLogical)), 10u);
  // The library's exact fmas (error-free transformations, PMX_FMA_EXACT)
  // are computed in integers; its polynomials keep the device's Fma.
  const std::string doubleExp = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void k(global double *d) { d[0] = exp(d[1]); })";
  size_t fusedInExp = fmaCount(buildOk(doubleExp, "", fused).binary.spirv);
  Built emulatedExp = buildOk(doubleExp, "", roundsTwice);
  EXPECT_GT(fmaCount(emulatedExp.binary.spirv), 0u);
  EXPECT_LT(fmaCount(emulatedExp.binary.spirv), fusedInExp);
  EXPECT_GT(opcodeCount(emulatedExp.binary.spirv, uint32_t(spv::Op::OpShiftRightLogical)), 10u);
  // The float builtins compute in double for extra precision, which a
  // second rounding does not spoil: all of erf(float)'s fmas, its exact
  // ones included, stay the device's.
  const std::string floatErf = "kernel void k(global float *f) { f[0] = erf(f[1]); }";
  size_t fusedInErf = fmaCount(buildOk(floatErf, "", fused).binary.spirv);
  EXPECT_GT(fusedInErf, 0u);
  EXPECT_EQ(fmaCount(buildOk(floatErf, "", roundsTwice).binary.spirv), fusedInErf);
}

} // namespace
} // namespace compiler::spirv::test

namespace compiler::spirv::test {
namespace {

TEST(SpirvArithmetic, RoundHalfAwayFromZero) {
  buildOk(R"(
    kernel void k(global float *f, global double *d) {
      int i = get_global_id(0);
      f[i] = round(f[i]);
      d[i] = round(d[i]);
    })");
}

TEST(SpirvArithmetic, PopcountOfEveryWidth) {
  // OpBitCount takes 32-bit integers in Vulkan: the others are widened or
  // counted in halves.
  buildOk(R"(
    kernel void k(global uchar *c, global ushort *s, global uint *i, global ulong *l) {
      size_t n = get_global_id(0);
      c[n] = popcount(c[n]);
      s[n] = popcount(s[n]);
      i[n] = popcount(i[n]);
      l[n] = popcount(l[n]);
    })");
}

TEST(SpirvArithmetic, ReductionsOfThreeElements) {
  // any()/all() of a char3 are reductions of a width ExpandReductions
  // leaves alone.
  buildOk(R"(
    kernel void k(global const char3 *a, global const short3 *b, global int *o) {
      size_t n = get_global_id(0);
      o[n] = any(a[n]) + 2 * all(a[n]) + 4 * any(b[n]) + 8 * all(b[n]);
    })");
}

TEST(SpirvArithmetic, WideProductsCompared) {
  // mad_sat and mul_hi of one ulong share a 128-bit product that is
  // compared with zero.
  buildOk(R"(
    kernel void k(global const ulong *u, global ulong *r) {
      size_t n = get_global_id(0);
      r[n] = mul_hi(u[n], u[n]) + mad_sat(u[n], u[n], u[n]);
    })");
}

} // namespace
} // namespace compiler::spirv::test

namespace compiler::spirv::test {
namespace {

/// The DenormPreserve widths `spirv` declares (OpExecutionMode operands).
std::vector<uint32_t> denormPreserveWidths(const std::vector<uint32_t> &spirv) {
  std::vector<uint32_t> widths;
  for (size_t i = 5; i < spirv.size() && (spirv[i] >> 16) != 0; i += spirv[i] >> 16)
    if ((spirv[i] & 0xFFFF) == uint32_t(spv::Op::OpExecutionMode) && (spirv[i] >> 16) == 4 &&
        spirv[i + 2] == uint32_t(spv::ExecutionMode::DenormPreserve))
      widths.push_back(spirv[i + 3]);
  return widths;
}

TEST(SpirvArithmetic, DenormalsPreservedWhereTheDeviceCan) {
  const char *source = "kernel void k(global float *f) { f[0] = f[1] * f[2]; }";
  VulkanTargetConfig config = lavapipeConfig();
  config.extensions = {};
  for (auto [preserve32, preserve64] : {std::pair{false, false}, {true, false}, {false, true}, {true, true}}) {
    config.denormPreserveFloat32 = preserve32;
    config.denormPreserveFloat64 = preserve64;
    Built built = buildOk(source, "", config);
    ASSERT_FALSE(built.binary.spirv.empty());
    std::vector<uint32_t> expected;
    if (preserve32)
      expected.push_back(32);
    if (preserve64) // the configuration has fp64
      expected.push_back(64);
    EXPECT_EQ(denormPreserveWidths(built.binary.spirv), expected) << preserve32 << preserve64;
  }
}

} // namespace
} // namespace compiler::spirv::test

namespace compiler::spirv::test {
namespace {

/// How often `opcode` occurs in `spirv`.
size_t countOpcode(const std::vector<uint32_t> &spirv, spv::Op opcode) {
  size_t count = 0;
  for (size_t i = 5; i < spirv.size() && (spirv[i] >> 16) != 0; i += spirv[i] >> 16)
    count += (spirv[i] & 0xFFFF) == uint32_t(opcode);
  return count;
}

TEST(SpirvArithmetic, SignOperationsOnBitsWhereDenormalsMayBeFlushed) {
  // fabs and fneg are bit operations in LLVM; GLSL FAbs and OpFNegate may
  // flush a denormal operand on a device that does not keep denormals.
  const char *source = "kernel void k(global float *f) { f[0] = fabs(f[1]); f[2] = -f[3]; }";
  VulkanTargetConfig config = lavapipeConfig();
  config.extensions = {};
  for (bool preserve : {false, true}) {
    config.denormPreserveFloat32 = preserve;
    Built built = buildOk(source, "", config);
    const std::vector<uint32_t> &spirv = built.binary.spirv;
    ASSERT_FALSE(spirv.empty());
    EXPECT_EQ(countOpcode(spirv, spv::Op::OpFNegate), preserve ? 1u : 0u);
    EXPECT_EQ(countOpcode(spirv, spv::Op::OpBitwiseXor), preserve ? 0u : 1u);
    EXPECT_EQ(countOpcode(spirv, spv::Op::OpBitwiseAnd) > 0, !preserve);
  }
}

} // namespace
} // namespace compiler::spirv::test
