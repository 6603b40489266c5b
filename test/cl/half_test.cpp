// Half precision (cl_khr_fp16) on every device that reports it: the device
// queries, arithmetic and conversions bit for bit against an independent
// binary16 reference (half_reference.h), the math functions against double
// results within the spec's half ULP bounds (OpenCL C 3.0, 7.4), and half
// vectors through vloadn/vstoren and vector arithmetic.
#include "cl_test.h"
#include "half_reference.h"
#include "stdout_capture.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace cltest;
namespace ref = cltest::half_ref;

namespace {

bool sameHalf(uint16_t got, uint16_t expected) { return ref::isNan(expected) ? ref::isNan(got) : got == expected; }

/// `h` with a denormal replaced by a zero of its sign.
uint16_t flushed(uint16_t h) { return (h & 0x7c00) == 0 ? uint16_t(h & 0x8000) : h; }

class HalfTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!deviceHasExtension(device(), "cl_khr_fp16"))
      GTEST_SKIP() << "no cl_khr_fp16";
    flushes_ = !(deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_HALF_FP_CONFIG) & CL_FP_DENORM);
  }

  /// Whether `got` is `expected`, or, on a device that may flush half
  /// denormals (no CL_FP_DENORM; OpenCL C 3.0 7.5.3, as the CTS judges it),
  /// `flushedExpected` (the result for the operands with their denormals
  /// replaced by zeros), or a zero where either of those is a denormal.
  bool acceptable(uint16_t got, uint16_t expected, uint16_t flushedExpected) const {
    auto matches = [&](uint16_t e) { return sameHalf(got, e) || ((e & 0x7c00) == 0 && (got & 0x7fff) == 0); };
    return sameHalf(got, expected) || (flushes_ && (matches(expected) || matches(flushedExpected)));
  }

  bool flushes_ = false;

  /// Runs `kernel(in..., out)` over `items` work-items; every buffer holds
  /// `items * width` ushorts (half bit patterns) unless given.
  std::vector<uint16_t> run(cl_program program, const char *name, const std::vector<std::vector<uint16_t>> &inputs,
                            size_t items, size_t outWidth = 1) {
    std::vector<Mem> buffers;
    Kernel k = kernel(program, name);
    cl_uint index = 0;
    for (const std::vector<uint16_t> &input : inputs) {
      buffers.push_back(buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, input.size() * sizeof(uint16_t),
                               const_cast<uint16_t *>(input.data())));
      cl_mem mem = buffers.back().get();
      EXPECT_CL(clSetKernelArg(k, index++, sizeof(cl_mem), &mem));
    }
    Mem output = buffer(CL_MEM_WRITE_ONLY, items * outWidth * sizeof(uint16_t));
    cl_mem out = output.get();
    EXPECT_CL(clSetKernelArg(k, index, sizeof(cl_mem), &out));
    EXPECT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
    return read<uint16_t>(output, items * outWidth);
  }
};

/// Every binary16 bit pattern, in order.
std::vector<uint16_t> everyHalf() {
  std::vector<uint16_t> all(65536);
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = uint16_t(i);
  return all;
}

/// `count` halves: the special ones (zeros, denormals, the largest and
/// smallest normals, infinities, a NaN) first, then random bit patterns.
std::vector<uint16_t> someHalves(size_t count, uint32_t seed) {
  std::vector<uint16_t> values = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff,
                                  0x7c00, 0xfc00, 0x7e00, 0x3c00, 0xbc00, 0x3555, 0x3bff, 0x3c01};
  std::mt19937 random(seed);
  while (values.size() < count)
    values.push_back(uint16_t(random()));
  values.resize(count);
  return values;
}

std::string hex(uint16_t h) {
  std::ostringstream out;
  out << "0x" << std::hex << h << " (" << std::hexfloat << ref::toDouble(h) << ")";
  return out.str();
}

TEST_P(HalfTest, DeviceReportsHalfConsistently) {
  const auto config = deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_HALF_FP_CONFIG);
  // The OpenCL 3.0 minimum: round to nearest (or to zero) with inf and NaN.
  EXPECT_TRUE(config & CL_FP_INF_NAN);
  EXPECT_TRUE(config & (CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO));
  EXPECT_GT(deviceInfo<cl_uint>(device(), CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF), 0u);
  EXPECT_GT(deviceInfo<cl_uint>(device(), CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF), 0u);
  std::vector<cl_name_version> features = deviceArray<cl_name_version>(device(), CL_DEVICE_OPENCL_C_FEATURES);
  EXPECT_TRUE(std::any_of(features.begin(), features.end(),
                          [](const cl_name_version &f) { return std::string(f.name) == "__opencl_c_fp16"; }));
  std::vector<cl_name_version> extensions = deviceArray<cl_name_version>(device(), CL_DEVICE_EXTENSIONS_WITH_VERSION);
  EXPECT_TRUE(std::any_of(extensions.begin(), extensions.end(),
                          [](const cl_name_version &e) { return std::string(e.name) == "cl_khr_fp16"; }));
  // Both macros are defined for OpenCL C 3.0, the extension's for 1.2
  // (Clang wants the pragma for half arithmetic in both).
  Program cl30 = build(R"(
#if !defined(cl_khr_fp16) || !defined(__opencl_c_fp16)
#error missing macro
#endif
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void k(__global half *p) { p[0] = p[1] + p[2]; })",
                       "-cl-std=CL3.0");
  EXPECT_TRUE(cl30);
  Program cl12 = build(R"(
#ifndef cl_khr_fp16
#error missing macro
#endif
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void k(__global half *p) { p[0] = p[1] * p[2]; })");
  EXPECT_TRUE(cl12);
}

TEST_P(HalfTest, ArithmeticIsCorrectlyRounded) {
  Program program = build(R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void arith(__global const half *a, __global const half *b, __global const half *c, __global half *out) {
  size_t i = get_global_id(0);
  half x = a[i], y = b[i], z = c[i];
  out[8 * i + 0] = x + y;
  out[8 * i + 1] = x - y;
  out[8 * i + 2] = x * y;
  out[8 * i + 3] = x / y;
  out[8 * i + 4] = sqrt(x);
  out[8 * i + 5] = fma(x, y, z);
  out[8 * i + 6] = -x;
  out[8 * i + 7] = x < y ? x : y;
})");
  ASSERT_TRUE(program);
  constexpr size_t kItems = 1 << 14;
  std::vector<uint16_t> a = someHalves(kItems, 1), b = someHalves(kItems, 2), c = someHalves(kItems, 3);
  // Operands whose fma sums cancel or land on ties: c = -(a * b) rounded.
  for (size_t i = 0; i < kItems; i += 4)
    c[i] = ref::fromDouble(-ref::toDouble(a[i]) * ref::toDouble(b[i]));
  // Products exactly halfway between two halves, plus a tiny c that decides
  // the rounding: an fma that rounds twice (through float) gets these wrong.
  std::mt19937 random(4);
  for (size_t i = 1; i < kItems; i += 4) {
    for (;;) {
      uint16_t x = uint16_t((random() & 0x8000) | (0x3c00 + random() % 0x2000));
      uint16_t y = uint16_t(0x3c00 + random() % 0x2000);
      double p = ref::toDouble(x) * ref::toDouble(y);
      uint16_t down = ref::fromDouble(p, ref::Rounding::Zero);
      double gap = ref::toDouble(uint16_t(down + 1)) - ref::toDouble(down);
      if (std::fabs(p) - std::fabs(ref::toDouble(down)) == gap / 2) {
        a[i] = x, b[i] = y;
        c[i] = uint16_t((random() & 0x8000) | (random() % 0x0800)); // a denormal or tiny normal
        break;
      }
    }
  }
  std::vector<uint16_t> got = run(program, "arith", {a, b, c}, kItems, 8);
  size_t failures = 0;
  const char *names[] = {"+", "-", "*", "/", "sqrt", "fma", "neg", "min"};
  // +, -, * of halves are exact in double; / and sqrt round once in double
  // first, which cannot change a rounding to half (53 >= 2 * 11 + 2). fma:
  // the product is exact, the sum a double-double (two-sum).
  auto results = [](uint16_t ha, uint16_t hb, uint16_t hc) {
    const double x = ref::toDouble(ha), y = ref::toDouble(hb), z = ref::toDouble(hc);
    const double p = x * y, s = p + z;
    const double bp = s - p, tail = (p - (s - bp)) + (z - bp);
    return std::array<uint16_t, 8>{ref::fromDouble(x + y),
                                   ref::fromDouble(x - y),
                                   ref::fromDouble(p),
                                   ref::fromDouble(x / y),
                                   ref::fromDouble(std::sqrt(x)),
                                   ref::fromDouble(s, ref::Rounding::Nearest, std::isfinite(tail) ? tail : 0.0),
                                   uint16_t(ha ^ 0x8000),
                                   x < y ? ha : hb};
  };
  for (size_t i = 0; i < kItems && failures < 20; ++i) {
    const std::array<uint16_t, 8> expected = results(a[i], b[i], c[i]);
    const std::array<uint16_t, 8> flushedExpected = results(flushed(a[i]), flushed(b[i]), flushed(c[i]));
    for (size_t op = 0; op < 8; ++op) {
      uint16_t g = got[8 * i + op];
      // A zero sum's sign is fixed by IEEE; NaN payloads are free.
      if (!acceptable(g, expected[op], flushedExpected[op])) {
        ++failures;
        ADD_FAILURE() << names[op] << " of " << hex(a[i]) << ", " << hex(b[i]) << ", " << hex(c[i]) << ": got "
                      << hex(g) << ", expected " << hex(expected[op]);
      }
    }
  }
}

TEST_P(HalfTest, ConversionsRoundAsNamed) {
  Program program = build(R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void from_float(__global const float *in, __global half *out) {
  size_t i = get_global_id(0);
  float x = in[i];
  out[4 * i + 0] = convert_half(x);
  out[4 * i + 1] = convert_half_rtz(x);
  out[4 * i + 2] = convert_half_rtp(x);
  out[4 * i + 3] = convert_half_rtn(x);
}
__kernel void from_int(__global const int *in, __global half *out) {
  size_t i = get_global_id(0);
  out[2 * i] = convert_half(in[i]);
  out[2 * i + 1] = convert_half_rtz(in[i]);
}
__kernel void to_others(__global const half *in, __global float *f, __global int *n, __global short *s,
                        __global uchar *u) {
  size_t i = get_global_id(0);
  half x = in[i];
  f[i] = convert_float(x);
  n[i] = isnan(x) ? 0 : convert_int_sat_rte(x);
  s[i] = isnan(x) ? 0 : convert_short_sat(x);
  u[i] = isnan(x) ? 0 : convert_uchar_sat_rtp(x);
})");
  ASSERT_TRUE(program);
  // float -> half in every mode: random floats around half's range.
  constexpr size_t kFloats = 1 << 14;
  std::vector<float> floats(kFloats);
  std::mt19937 random(7);
  for (size_t i = 0; i < kFloats; ++i) {
    // Exponents from 2^-30 to 2^17, every fraction; some halves and ties.
    float mantissa = std::ldexp(float(random() & 0xffffff), -24);
    float value = std::ldexp(1.0f + mantissa, int(random() % 48) - 30);
    if (i % 5 == 0) // halfway between two halves
      value = float(ref::toDouble(uint16_t(random() & 0x7bff))) * (1.0f + std::ldexp(1.0f, -11));
    floats[i] = (random() & 1) ? -value : value;
  }
  floats[0] = 65520.0f, floats[1] = -65519.0f, floats[2] = std::ldexp(1.0f, -25), floats[3] = INFINITY;
  {
    Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kFloats * sizeof(float), floats.data());
    Mem out = buffer(CL_MEM_WRITE_ONLY, 4 * kFloats * sizeof(uint16_t));
    Kernel k = kernel(program, "from_float");
    setArgs(k, in.get(), out.get());
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &kFloats, nullptr, 0, nullptr, nullptr));
    std::vector<uint16_t> got = read<uint16_t>(out, 4 * kFloats);
    size_t failures = 0;
    for (size_t i = 0; i < kFloats && failures < 20; ++i)
      for (int mode = 0; mode < 4; ++mode) {
        uint16_t expected = ref::fromDouble(floats[i], ref::Rounding(mode));
        if (got[4 * i + mode] != expected) {
          ++failures;
          ADD_FAILURE() << "float " << std::hexfloat << floats[i] << " mode " << mode << ": got "
                        << hex(got[4 * i + mode]) << ", expected " << hex(expected);
        }
      }
  }
  // int -> half: to nearest and towards zero.
  {
    std::vector<int> ints(4096);
    for (size_t i = 0; i < ints.size(); ++i)
      ints[i] = int(random()) >> (random() % 31);
    ints[0] = 65519, ints[1] = 65520, ints[2] = -2049, ints[3] = 2049;
    size_t count = ints.size();
    Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * sizeof(int), ints.data());
    Mem out = buffer(CL_MEM_WRITE_ONLY, 2 * count * sizeof(uint16_t));
    Kernel k = kernel(program, "from_int");
    setArgs(k, in.get(), out.get());
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &count, nullptr, 0, nullptr, nullptr));
    std::vector<uint16_t> got = read<uint16_t>(out, 2 * count);
    size_t failures = 0;
    for (size_t i = 0; i < count && failures < 20; ++i)
      for (int mode : {0, 1}) {
        uint16_t expected = ref::fromDouble(double(ints[i]), ref::Rounding(mode));
        if (got[2 * i + mode] != expected) {
          ++failures;
          ADD_FAILURE() << "int " << ints[i] << " mode " << mode << ": got " << hex(got[2 * i + mode]) << ", expected "
                        << hex(expected);
        }
      }
  }
  // half -> float, int (saturated, to nearest even), short (saturated,
  // towards zero), uchar (saturated, upwards): every half.
  {
    std::vector<uint16_t> all = everyHalf();
    size_t count = all.size();
    Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * sizeof(uint16_t), all.data());
    Mem f = buffer(CL_MEM_WRITE_ONLY, count * sizeof(float));
    Mem n = buffer(CL_MEM_WRITE_ONLY, count * sizeof(int));
    Mem s = buffer(CL_MEM_WRITE_ONLY, count * sizeof(short));
    Mem u = buffer(CL_MEM_WRITE_ONLY, count);
    Kernel k = kernel(program, "to_others");
    setArgs(k, in.get(), f.get(), n.get(), s.get(), u.get());
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &count, nullptr, 0, nullptr, nullptr));
    std::vector<float> gotF = read<float>(f, count);
    std::vector<int> gotN = read<int>(n, count);
    std::vector<short> gotS = read<short>(s, count);
    std::vector<uint8_t> gotU = read<uint8_t>(u, count);
    size_t failures = 0;
    for (size_t i = 0; i < count && failures < 20; ++i) {
      const double x = ref::toDouble(all[i]);
      const bool nan = std::isnan(x);
      const bool floatOk = nan ? std::isnan(gotF[i]) : double(gotF[i]) == x && std::signbit(gotF[i]) == std::signbit(x);
      const int expectedN = nan ? 0 : int(std::clamp(std::nearbyint(x), -2147483648.0, 2147483647.0));
      const short expectedS = nan ? 0 : short(std::clamp(std::trunc(x), -32768.0, 32767.0));
      const uint8_t expectedU = nan ? 0 : uint8_t(std::clamp(std::ceil(x), 0.0, 255.0));
      if (!floatOk || gotN[i] != expectedN || gotS[i] != expectedS || gotU[i] != expectedU) {
        ++failures;
        ADD_FAILURE() << "half " << hex(all[i]) << ": float " << std::hexfloat << gotF[i] << ", int " << std::dec
                      << gotN[i] << " (expected " << expectedN << "), short " << gotS[i] << " (expected " << expectedS
                      << "), uchar " << int(gotU[i]) << " (expected " << int(expectedU) << ")";
      }
    }
  }
}

TEST_P(HalfTest, ConversionFromDoubleRoundsOnce) {
  if (!deviceHasExtension(device(), "cl_khr_fp64"))
    GTEST_SKIP() << "no cl_khr_fp64";
  Program program = build(R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void k(__global const double *in, __global half *out, __global half *out4) {
  size_t i = get_global_id(0);
  out[i] = convert_half(in[i]);
  if (i % 4 == 0)
    vstore4(convert_half4(vload4(0, in + i)), 0, out4 + i);
})");
  ASSERT_TRUE(program);
  // Just off the midpoint between two halves, by far less than half a
  // float ulp: a conversion through float lands on the midpoint and rounds
  // to even, half the time the wrong way. Also denormal midpoints.
  constexpr size_t kCount = 4096;
  std::vector<double> in(kCount);
  std::mt19937 random(8);
  for (size_t i = 0; i < kCount; ++i) {
    uint16_t h = uint16_t(random() % 0x7bff);
    double mid = (ref::toDouble(h) + ref::toDouble(uint16_t(h + 1))) / 2;
    double off = std::ldexp(mid == 0 ? 1.0 : std::fabs(mid), -40) * ((random() & 1) ? 1 : -1);
    in[i] = ((random() & 1) ? -1 : 1) * (mid + off);
  }
  Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kCount * sizeof(double), in.data());
  Mem output = buffer(CL_MEM_WRITE_ONLY, kCount * 2), output4 = buffer(CL_MEM_WRITE_ONLY, kCount * 2);
  Kernel k = kernel(program, "k");
  setArgs(k, input.get(), output.get(), output4.get());
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &kCount, nullptr, 0, nullptr, nullptr));
  std::vector<uint16_t> got = read<uint16_t>(output, kCount), got4 = read<uint16_t>(output4, kCount);
  size_t failures = 0;
  for (size_t i = 0; i < kCount && failures < 20; ++i) {
    const uint16_t expected = ref::fromDouble(in[i]);
    for (uint16_t g : {got[i], got4[i]})
      if (!acceptable(g, expected, expected)) {
        ++failures;
        ADD_FAILURE() << "convert_half(" << std::hexfloat << in[i] << ") = " << hex(g) << ", expected "
                      << hex(expected);
      }
  }
}

TEST_P(HalfTest, CommonFunctions) {
  Program program = build(R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void k(__global const half *a, __global const half *b, __global half *out) {
  size_t i = get_global_id(0);
  half x = a[i], y = b[i];
  out[8 * i + 0] = degrees(x);
  out[8 * i + 1] = radians(x);
  out[8 * i + 2] = mix(x, y, (half)0.25h);
  out[8 * i + 3] = step(y, x);
  out[8 * i + 4] = smoothstep((half)-1.0h, (half)2.0h, x);
  out[8 * i + 5] = sign(x);
  out[8 * i + 6] = clamp(x, (half)-0.5h, (half)0.75h);
  half4 v = max((half4)(x, y, -x, -y), (half)0.125h);
  out[8 * i + 7] = v.x + v.y + v.z + v.w;
})");
  ASSERT_TRUE(program);
  constexpr size_t kItems = 4096;
  std::vector<uint16_t> a(kItems), b(kItems);
  std::mt19937 random(6);
  // Finite halves of magnitude below 64.
  for (size_t i = 0; i < kItems; ++i)
    a[i] = uint16_t((random() & 0x8000) | (random() % 0x5400)),
    b[i] = uint16_t((random() & 0x8000) | (random() % 0x5400));
  std::vector<uint16_t> got = run(program, "k", {a, b}, kItems, 8);
  auto h = [](uint16_t bits) { return ref::toDouble(bits); };
  auto r = [](double v) { return ref::toDouble(ref::fromDouble(v)); };
  size_t failures = 0;
  for (size_t i = 0; i < kItems && failures < 20; ++i) {
    const double x = h(a[i]), y = h(b[i]);
    const double pi = 3.14159265358979323846;
    double t = std::clamp((x + 1.0) / 3.0, 0.0, 1.0);
    const double maxSum = r(r(r(std::max(x, 0.125) + std::max(y, 0.125)) + std::max(-x, 0.125)) + std::max(-y, 0.125));
    // {exact value, ulp bound}: degrees and radians within 2 ulp; mix and
    // smoothstep (implementation-defined precision) within a few; the rest
    // exact (mix's formula rounds three times).
    const std::pair<double, double> expected[] = {{x * 180.0 / pi, 2},
                                                  {x * pi / 180.0, 2},
                                                  {r(x + r(r(y - x) * 0.25)), 0},
                                                  {x < y ? 0.0 : 1.0, 0},
                                                  {t * t * (3 - 2 * t), 4},
                                                  {x > 0   ? 1.0
                                                   : x < 0 ? -1.0
                                                           : x,
                                                   0},
                                                  {std::clamp(x, -0.5, 0.75), 0},
                                                  {maxSum, 0}};
    for (size_t c = 0; c < 8; ++c) {
      uint16_t g = got[8 * i + c];
      double error = expected[c].second == 0
                         ? (h(g) == expected[c].first || (g & 0x7fff) == 0 && expected[c].first == 0 ? 0.0 : INFINITY)
                         : ref::ulpError(g, expected[c].first);
      if (error > expected[c].second) {
        ++failures;
        ADD_FAILURE() << "common function " << c << " of " << hex(a[i]) << ", " << hex(b[i]) << ": " << hex(g)
                      << ", expected " << expected[c].first;
      }
    }
  }
}

struct UnaryCase {
  const char *name;
  double (*reference)(double);
  double ulps; ///< the spec's half bound
};

TEST_P(HalfTest, UnaryMathIsWithinTheSpecBoundsForEveryHalf) {
  static const UnaryCase cases[] = {
      {"exp", [](double x) { return std::exp(x); }, 2},
      {"exp2", [](double x) { return std::exp2(x); }, 2},
      {"expm1", [](double x) { return std::expm1(x); }, 2},
      {"log", [](double x) { return std::log(x); }, 2},
      {"log2", [](double x) { return std::log2(x); }, 2},
      {"log10", [](double x) { return std::log10(x); }, 2},
      {"log1p", [](double x) { return std::log1p(x); }, 2},
      {"sin", [](double x) { return std::sin(x); }, 2},
      {"cos", [](double x) { return std::cos(x); }, 2},
      {"tan", [](double x) { return std::tan(x); }, 2},
      {"asin", [](double x) { return std::asin(x); }, 2},
      {"acos", [](double x) { return std::acos(x); }, 2},
      {"atan", [](double x) { return std::atan(x); }, 2},
      {"sinh", [](double x) { return std::sinh(x); }, 2},
      {"cosh", [](double x) { return std::cosh(x); }, 2},
      {"tanh", [](double x) { return std::tanh(x); }, 2},
      {"asinh", [](double x) { return std::asinh(x); }, 2},
      {"atanh", [](double x) { return std::atanh(x); }, 2},
      {"cbrt", [](double x) { return std::cbrt(x); }, 2},
      {"rsqrt", [](double x) { return 1.0 / std::sqrt(x); }, 1},
      {"erf", [](double x) { return std::erf(x); }, 4},
      {"erfc", [](double x) { return std::erfc(x); }, 4},
      {"sqrt", [](double x) { return std::sqrt(x); }, 0},
      {"floor", [](double x) { return std::floor(x); }, 0},
      {"rint", [](double x) { return std::nearbyint(x); }, 0},
      {"logb", [](double x) { return std::logb(x); }, 0},
  };
  std::string source = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  for (const UnaryCase &c : cases)
    source += std::string("__kernel void k_") + c.name +
              "(__global const half *in, __global half *out) { size_t i = get_global_id(0); out[i] = " + c.name +
              "(in[i]); }\n";
  Program program = build(source);
  ASSERT_TRUE(program);
  std::vector<uint16_t> all = everyHalf();
  for (const UnaryCase &c : cases) {
    std::vector<uint16_t> got = run(program, (std::string("k_") + c.name).c_str(), {all}, all.size());
    size_t failures = 0;
    double worst = 0.0;
    for (size_t i = 0; i < all.size() && failures < 10; ++i) {
      double exact = c.reference(ref::toDouble(all[i]));
      // A denormal operand or result flushed, as a device without
      // CL_FP_DENORM may.
      if (flushes_ && !sameHalf(got[i], ref::fromDouble(exact)) &&
          acceptable(got[i], ref::fromDouble(exact), ref::fromDouble(c.reference(ref::toDouble(flushed(all[i]))))))
        continue;
      // A zero-ulp function's result is the correctly rounded one; the
      // others are measured against the exact (double) value.
      double error =
          c.ulps == 0 ? (sameHalf(got[i], ref::fromDouble(exact)) ? 0.0 : INFINITY) : ref::ulpError(got[i], exact);
      // Signed zeros must match where the result is zero.
      if (error == 0.0 && exact == 0.0 && (got[i] & 0x8000) != (std::signbit(exact) ? 0x8000 : 0))
        error = INFINITY;
      worst = std::max(worst, std::isinf(error) ? 0.0 : error);
      if (error > c.ulps) {
        ++failures;
        ADD_FAILURE() << c.name << "(" << hex(all[i]) << ") = " << hex(got[i]) << ", exact " << std::hexfloat << exact
                      << ": " << std::defaultfloat << error << " ulp, bound " << c.ulps;
      }
    }
    RecordProperty(std::string("max_ulp_") + c.name, std::to_string(worst));
  }
}

struct BinaryCase {
  const char *name;
  double (*reference)(double, double);
  double ulps;
};

TEST_P(HalfTest, BinaryAndTernaryMathIsWithinTheSpecBounds) {
  static const BinaryCase cases[] = {
      {"pow", [](double x, double y) { return std::pow(x, y); }, 4},
      {"atan2", [](double y, double x) { return std::atan2(y, x); }, 2},
      {"hypot", [](double x, double y) { return std::hypot(x, y); }, 2},
      {"fmod", [](double x, double y) { return std::fmod(x, y); }, 0},
      {"remainder", [](double x, double y) { return std::remainder(x, y); }, 0},
      {"fdim", [](double x, double y) { return x > y ? x - y : (std::isnan(x) || std::isnan(y) ? NAN : 0.0); }, 0},
      {"fmax", [](double x, double y) { return std::fmax(x, y); }, 0},
      {"nextafter", nullptr, 0},
  };
  std::string source = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  for (const BinaryCase &c : cases)
    source += std::string("__kernel void k_") + c.name +
              "(__global const half *a, __global const half *b, __global half *out) { size_t i = get_global_id(0); "
              "out[i] = " +
              c.name + "(a[i], b[i]); }\n";
  // The second operand's bits give pown's and ldexp's integer operand.
  source += "__kernel void k_pown(__global const half *a, __global const half *b, __global half *out) {"
            " size_t i = get_global_id(0); out[i] = pown(a[i], (int)(as_ushort(b[i]) & 15) - 8); }\n"
            "__kernel void k_ldexp(__global const half *a, __global const half *b, __global half *out) {"
            " size_t i = get_global_id(0); out[i] = ldexp(a[i], (int)(as_ushort(b[i]) & 63) - 32); }\n";
  Program program = build(source);
  ASSERT_TRUE(program);
  constexpr size_t kItems = 1 << 15;
  std::vector<uint16_t> a = someHalves(kItems, 11), b = someHalves(kItems, 12);
  std::mt19937 random(5);
  // Half of the pairs with both operands of ordinary size, where pow and
  // atan2 are most interesting.
  for (size_t i = 16; i < kItems; i += 2)
    a[i] = uint16_t(0x3000 + random() % 0x1800), b[i] = uint16_t((random() & 0x8000) | (0x2800 + random() % 0x2000));
  auto check = [&](const char *name, double ulps, const std::function<double(size_t)> &exact) {
    std::vector<uint16_t> got = run(program, (std::string("k_") + name).c_str(), {a, b}, kItems);
    size_t failures = 0;
    for (size_t i = 0; i < kItems && failures < 10; ++i) {
      double e = exact(i);
      double error = ulps == 0 ? (sameHalf(got[i], ref::fromDouble(e)) ? 0.0 : INFINITY) : ref::ulpError(got[i], e);
      if (error > ulps) {
        ++failures;
        ADD_FAILURE() << name << "(" << hex(a[i]) << ", " << hex(b[i]) << ") = " << hex(got[i]) << ", exact "
                      << std::hexfloat << e << std::defaultfloat << ": " << error << " ulp, bound " << ulps;
      }
    }
  };
  for (const BinaryCase &c : cases) {
    if (!c.reference)
      continue;
    check(c.name, c.ulps, [&](size_t i) { return c.reference(ref::toDouble(a[i]), ref::toDouble(b[i])); });
  }
  check("nextafter", 0, [&](size_t i) {
    double x = ref::toDouble(a[i]), y = ref::toDouble(b[i]);
    if (std::isnan(x) || std::isnan(y))
      return double(NAN);
    if (x == y)
      return y;
    if (x == 0.0)
      return std::copysign(std::ldexp(1.0, -24), y);
    uint16_t bits = a[i];
    bool away = (y > x) == (x > 0.0);
    return ref::toDouble(uint16_t(away ? bits + 1 : bits - 1));
  });
  check("pown", 4, [&](size_t i) { return std::pow(ref::toDouble(a[i]), double(int(b[i] & 15) - 8)); });
  check("ldexp", 0, [&](size_t i) { return std::ldexp(ref::toDouble(a[i]), int(b[i] & 63) - 32); });
}

TEST_P(HalfTest, FunctionsWithPointerResultsAndSpecialValues) {
  Program program = build(R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void k(__global const half *in, __global half *out, __global int *n) {
  size_t i = get_global_id(0);
  half x = in[i], whole, c;
  out[6 * i + 0] = fract(x, &whole);
  out[6 * i + 1] = whole;
  out[6 * i + 2] = sincos(x, &c);
  out[6 * i + 3] = c;
  int e;
  out[6 * i + 4] = frexp(x, &e);
  n[2 * i] = e;
  n[2 * i + 1] = ilogb(x);
  out[6 * i + 5] = nan((ushort)i);
})");
  ASSERT_TRUE(program);
  std::vector<uint16_t> all = everyHalf();
  size_t count = all.size();
  Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * sizeof(uint16_t), all.data());
  Mem out = buffer(CL_MEM_WRITE_ONLY, 6 * count * sizeof(uint16_t));
  Mem n = buffer(CL_MEM_WRITE_ONLY, 2 * count * sizeof(int));
  Kernel k = kernel(program, "k");
  setArgs(k, in.get(), out.get(), n.get());
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &count, nullptr, 0, nullptr, nullptr));
  std::vector<uint16_t> got = read<uint16_t>(out, 6 * count);
  std::vector<int> ints = read<int>(n, 2 * count);
  size_t failures = 0;
  for (size_t i = 0; i < count && failures < 20; ++i) {
    const double x = ref::toDouble(all[i]);
    auto fail = [&](const char *what, uint16_t g, const std::string &expected) {
      ++failures;
      ADD_FAILURE() << what << "(" << hex(all[i]) << ") = " << hex(g) << ", expected " << expected;
    };
    // fract: x - floor(x) rounded, kept below 1; floor(x) through the pointer.
    if (std::isfinite(x)) {
      // (fract(-0) is -0.)
      uint16_t expected = x == 0.0 ? all[i] : std::min<uint16_t>(ref::fromDouble(x - std::floor(x)), 0x3bff);
      if (got[6 * i] != expected)
        fail("fract", got[6 * i], hex(expected));
      if (got[6 * i + 1] != ref::fromDouble(std::floor(x)))
        fail("fract's floor", got[6 * i + 1], hex(ref::fromDouble(std::floor(x))));
      if (ref::ulpError(got[6 * i + 2], std::sin(x)) > 2)
        fail("sincos's sin", got[6 * i + 2], hex(ref::fromDouble(std::sin(x))));
      if (ref::ulpError(got[6 * i + 3], std::cos(x)) > 2)
        fail("sincos's cos", got[6 * i + 3], hex(ref::fromDouble(std::cos(x))));
      int e = 0;
      double m = std::frexp(x, &e);
      if (got[6 * i + 4] != ref::fromDouble(m) || ints[2 * i] != e)
        fail("frexp", got[6 * i + 4], hex(ref::fromDouble(m)) + " exponent " + std::to_string(e));
      int expectedIlogb = x == 0.0 ? FP_ILOGB0 : std::ilogb(x);
      if (ints[2 * i + 1] != expectedIlogb)
        fail("ilogb", uint16_t(ints[2 * i + 1]), std::to_string(expectedIlogb));
    } else if (std::isnan(x)) {
      if (!ref::isNan(got[6 * i]) || !ref::isNan(got[6 * i + 2]) || !ref::isNan(got[6 * i + 3]))
        fail("fract/sincos of NaN", got[6 * i], "NaN");
    }
    if (!ref::isNan(got[6 * i + 5]))
      fail("nan", got[6 * i + 5], "a NaN");
  }
}

TEST_P(HalfTest, VectorsLoadStoreAndComputeLaneByLane) {
  Program program = build(R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void vec(__global const half *a, __global const half *b, __global half *out, __global half *geo) {
  size_t i = get_global_id(0);
  half8 x = vload8(i, a), y = vload8(i, b);
  half8 r = fma(x, y, (half8)(0.5h)) + x * y - exp(x / (half8)8.0h);
  vstore8(r, i, out);
  half3 p = vload3(i, a), q = vload3(i, b);
  vstore3(cross(p, q), 0, geo + 8 * i);
  half4 s = vload4(2 * i + 1, a);
  geo[8 * i + 3] = dot(s, s);
  geo[8 * i + 4] = length(s);
  half2 t = (half2)(s.x, s.y) * (half2)(2.0h, 0.25h);
  geo[8 * i + 5] = t.x + t.y;
  geo[8 * i + 6] = as_half((ushort)(as_ushort(s.z) ^ (ushort)0x8000));
  geo[8 * i + 7] = convert_half(select(s, -s, isless(s, (half4)0.0h)).w);
})");
  ASSERT_TRUE(program);
  constexpr size_t kItems = 512;
  std::vector<uint16_t> a(8 * kItems), b(8 * kItems);
  std::mt19937 random(9);
  // Operands in [0.25, 4): no overflow in the products or the dot products.
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = uint16_t((random() & 0x8000) | (0x3400 + random() % 0x1000)),
    b[i] = uint16_t((random() & 0x8000) | (0x3400 + random() % 0x1000));
  Mem ma = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a.size() * 2, a.data());
  Mem mb = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b.size() * 2, b.data());
  Mem out = buffer(CL_MEM_WRITE_ONLY, a.size() * 2);
  Mem geo = buffer(CL_MEM_WRITE_ONLY, 8 * kItems * 2);
  Kernel k = kernel(program, "vec");
  setArgs(k, ma.get(), mb.get(), out.get(), geo.get());
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &kItems, nullptr, 0, nullptr, nullptr));
  std::vector<uint16_t> got = read<uint16_t>(out, a.size());
  std::vector<uint16_t> g = read<uint16_t>(geo, 8 * kItems);
  auto h = [](uint16_t bits) { return ref::toDouble(bits); };
  auto round = [](double v) { return ref::fromDouble(v); };
  size_t failures = 0;
  for (size_t i = 0; i < kItems && failures < 20; ++i) {
    for (size_t lane = 0; lane < 8; ++lane) {
      size_t j = 8 * i + lane;
      double x = h(a[j]), y = h(b[j]);
      // Each operation rounds to half (fma once); exp within 2 ulp: allow
      // the result 2 ulp of exp plus one ulp of the subtraction.
      double sum = h(round(h(round(x * y + 0.5)) + h(round(x * y))));
      double expected = sum - std::exp(h(round(x / 8.0)));
      if (ref::ulpError(got[j], expected) > 3 + 2 * std::exp(h(round(x / 8.0))) / std::max(std::fabs(expected), 1e-3)) {
        ++failures;
        ADD_FAILURE() << "lane " << j << ": " << hex(got[j]) << ", expected about " << expected;
      }
    }
    // cross: each component is a*b - c*d of halves, rounded once.
    double p[3] = {h(a[3 * i]), h(a[3 * i + 1]), h(a[3 * i + 2])};
    double q[3] = {h(b[3 * i]), h(b[3 * i + 1]), h(b[3 * i + 2])};
    double cross[3] = {p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]};
    for (int c = 0; c < 3; ++c)
      if (ref::ulpError(g[8 * i + c], cross[c]) > 1) {
        ++failures;
        ADD_FAILURE() << "cross " << i << "." << c << ": " << hex(g[8 * i + c]) << ", exact " << cross[c];
      }
    double s[4] = {h(a[8 * i + 4]), h(a[8 * i + 5]), h(a[8 * i + 6]), h(a[8 * i + 7])};
    double dot = s[0] * s[0] + s[1] * s[1] + s[2] * s[2] + s[3] * s[3];
    // dot: four roundings to half at most (each within 0.5 ulp of its
    // partial sum, all of which are below the total).
    if (ref::ulpError(g[8 * i + 3], dot) > 2.5) {
      ++failures;
      ADD_FAILURE() << "dot " << i << ": " << hex(g[8 * i + 3]) << ", exact " << dot;
    }
    if (ref::ulpError(g[8 * i + 4], std::sqrt(dot)) > 2) {
      ++failures;
      ADD_FAILURE() << "length " << i << ": " << hex(g[8 * i + 4]) << ", exact " << std::sqrt(dot);
    }
    uint16_t t = round(h(round(s[0] * 2.0)) + h(round(s[1] * 0.25)));
    uint16_t negated = uint16_t(a[8 * i + 6] ^ 0x8000);
    uint16_t absolute = uint16_t(a[8 * i + 7] & 0x7fff);
    if (g[8 * i + 5] != t || g[8 * i + 6] != negated || g[8 * i + 7] != absolute) {
      ++failures;
      ADD_FAILURE() << "item " << i << ": half2 sum " << hex(g[8 * i + 5]) << " (expected " << hex(t) << "), as_half "
                    << hex(g[8 * i + 6]) << " (expected " << hex(negated) << "), select " << hex(g[8 * i + 7])
                    << " (expected " << hex(absolute) << ")";
    }
  }
}

TEST_P(HalfTest, SubGroupAndWorkGroupCollectives) {
  std::vector<cl_name_version> features = deviceArray<cl_name_version>(device(), CL_DEVICE_OPENCL_C_FEATURES);
  if (!std::any_of(features.begin(), features.end(),
                   [](const cl_name_version &f) { return std::string(f.name) == "__opencl_c_subgroups"; }))
    GTEST_SKIP() << "no sub-groups";
  Program program = build(R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void k(__global const half *in, __global half *out, __global uint *ids) {
  size_t i = get_global_id(0);
  half x = in[i];
  out[5 * i + 0] = sub_group_reduce_add(x);
  out[5 * i + 1] = sub_group_scan_inclusive_add(x);
  out[5 * i + 2] = sub_group_reduce_max(x);
  out[5 * i + 3] = sub_group_broadcast(x, 0);
  out[5 * i + 4] = work_group_reduce_min(x);
  ids[2 * i] = get_sub_group_id();
  ids[2 * i + 1] = get_sub_group_local_id();
})",
                          "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  constexpr size_t kItems = 64;
  // Small integers: every sum is exact in half, whatever the order.
  std::vector<uint16_t> in(kItems);
  std::mt19937 random(3);
  for (uint16_t &h : in)
    h = ref::fromDouble(double(int(random() % 17) - 8));
  Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kItems * 2, in.data());
  Mem output = buffer(CL_MEM_WRITE_ONLY, 5 * kItems * 2);
  Mem ids = buffer(CL_MEM_WRITE_ONLY, 2 * kItems * sizeof(cl_uint));
  Kernel k = kernel(program, "k");
  setArgs(k, input.get(), output.get(), ids.get());
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &kItems, &kItems, 0, nullptr, nullptr));
  std::vector<uint16_t> got = read<uint16_t>(output, 5 * kItems);
  std::vector<cl_uint> id = read<cl_uint>(ids, 2 * kItems);
  double minimum = INFINITY;
  for (uint16_t h : in)
    minimum = std::min(minimum, ref::toDouble(h));
  for (size_t i = 0; i < kItems; ++i) {
    double sum = 0, scan = 0, maximum = -INFINITY, first = NAN;
    for (size_t j = 0; j < kItems; ++j) {
      if (id[2 * j] != id[2 * i])
        continue;
      double v = ref::toDouble(in[j]);
      sum += v, maximum = std::max(maximum, v);
      if (id[2 * j + 1] <= id[2 * i + 1])
        scan += v;
      if (id[2 * j + 1] == 0)
        first = v;
    }
    const double expected[] = {sum, scan, maximum, first, minimum};
    for (size_t c = 0; c < 5; ++c)
      EXPECT_EQ(ref::toDouble(got[5 * i + c]), expected[c]) << "item " << i << " collective " << c;
  }
}

TEST_P(HalfTest, PrintfShowsHalfScalarsAndVectors) {
  // A half argument of %f, %a or %e is promoted as a float is; a halfn
  // takes the hf vector modifier (OpenCL C 3.0 6.15.14.2).
  Program program = build(R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void p(__global const half *in) {
  half x = in[0];
  half2 v = (half2)(in[1], in[2]);
  printf("%f %a %v2hf %.3e\n", x, x, v, in[3]);
})");
  ASSERT_TRUE(program);
  std::vector<uint16_t> in = {0x3e00, 0x0001, 0xc000, 0x7bff}; // 1.5, 2^-24, -2, 65504
  Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in.size() * 2, in.data());
  Kernel k = kernel(program, "p");
  setArgs(k, input.get());
  size_t global = 1;
  StdoutCapture capture;
  ASSERT_TRUE(capture.begin());
  cl_int enqueued = clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
  cl_int finished = clFinish(queue_);
  std::string text = capture.end();
  EXPECT_CL(enqueued);
  EXPECT_CL(finished);
  EXPECT_EQ(text, "1.500000 0x1.8p+0 0.000000,-2.000000 6.550e+04\n");
}

} // namespace

CLTEST_INSTANTIATE(HalfTest);
