// Saturated conversions from floating point to every integer type (OpenCL C
// 3.0 6.4.3.3): NaN gives 0, values beyond the type's range its limits, the
// rest truncate (or round as named). From float: scalars (also _rte) and
// float4 lanes on edge values; from float, double (cl_khr_fp64) and half
// (cl_khr_fp16): every range limit of every integer type, the source values
// next to it and half a unit and one beyond, in scalars and in vectors of
// every width.
#include "cl_test.h"
#include "half_reference.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace cltest;

namespace {

/// A floating-point source type of the conversions: its OpenCL C name, the
/// extension it needs, its size.
struct FloatSource {
  const char *name;
  const char *extension; // null for float
  size_t bytes;
};
constexpr FloatSource kFloat{"float", nullptr, 4}, kDouble{"double", "cl_khr_fp64", 8}, kHalf{"half", "cl_khr_fp16", 2};

class SaturatedConversionTest : public DeviceTest {
protected:
  template <typename T> void checkLimits(const FloatSource &source, const std::string &integer);
};

std::vector<float> edgeFloats() {
  std::vector<float> values = {NAN,           INFINITY,      -INFINITY,      0.0f,           -0.0f,
                               0.5f,          -0.5f,         1.5f,           -1.5f,          127.5f,
                               128.0f,        -128.5f,       -129.0f,        255.5f,         256.0f,
                               32767.5f,      32768.0f,      -32769.0f,      65535.0f,       65536.0f,
                               2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f, 4294967040.0f,
                               4294967296.0f, 9.2233715e18f, 9.2233720e18f,  -9.2233720e18f, -9.3e18f,
                               1.8446743e19f, 1.9e19f,       3.0e38f,        -3.0e38f,       1e-30f};
  return values;
}

template <typename T> T saturate(float x, bool roundToNearestEven) {
  if (std::isnan(x))
    return 0;
  double v = roundToNearestEven ? std::nearbyint(double(x)) : std::trunc(double(x));
  if (v <= double(std::numeric_limits<T>::min()))
    return std::numeric_limits<T>::min();
  if (v >= double(std::numeric_limits<T>::max()))
    return std::numeric_limits<T>::max();
  return T(v);
}

#define SATURATED_CASE(T, CL)                                                                                          \
  TEST_P(SaturatedConversionTest, FloatTo_##CL) {                                                                      \
    std::string source = "__kernel void k(__global const float *in, __global " #CL " *out) {"                          \
                         " size_t i = get_global_id(0);"                                                               \
                         " out[2 * i] = convert_" #CL "_sat(in[i]);"                                                   \
                         " out[2 * i + 1] = convert_" #CL "_sat_rte(in[i]); }"                                         \
                         "__kernel void k4(__global const float *in, __global " #CL " *out) {"                         \
                         " size_t i = get_global_id(0);"                                                               \
                         " vstore4(convert_" #CL "4_sat(vload4(i, in)), i, out); }";                                   \
    Program program = build(source);                                                                                   \
    ASSERT_TRUE(program);                                                                                              \
    std::vector<float> in = edgeFloats();                                                                              \
    while (in.size() % 4)                                                                                              \
      in.push_back(-1.75f);                                                                                            \
    size_t n = in.size(), quads = n / 4;                                                                               \
    Mem input = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), in.data());                         \
    Mem output = buffer(CL_MEM_WRITE_ONLY, 2 * n * sizeof(T));                                                         \
    Mem output4 = buffer(CL_MEM_WRITE_ONLY, n * sizeof(T));                                                            \
    Kernel k = kernel(program, "k");                                                                                   \
    setArgs(k, input.get(), output.get());                                                                             \
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));                        \
    Kernel k4 = kernel(program, "k4");                                                                                 \
    setArgs(k4, input.get(), output4.get());                                                                           \
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k4, 1, nullptr, &quads, nullptr, 0, nullptr, nullptr));                   \
    std::vector<T> got = read<T>(output, 2 * n), got4 = read<T>(output4, n);                                           \
    for (size_t i = 0; i < n; ++i) {                                                                                   \
      EXPECT_EQ(int64_t(got[2 * i]), int64_t(saturate<T>(in[i], false))) << #CL " from " << in[i];                     \
      EXPECT_EQ(int64_t(got[2 * i + 1]), int64_t(saturate<T>(in[i], true))) << #CL " (rte) from " << in[i];            \
      EXPECT_EQ(int64_t(got4[i]), int64_t(saturate<T>(in[i], false))) << #CL "4 from " << in[i];                       \
    }                                                                                                                  \
  }

SATURATED_CASE(cl_char, char)
SATURATED_CASE(cl_uchar, uchar)
SATURATED_CASE(cl_short, short)
SATURATED_CASE(cl_ushort, ushort)
SATURATED_CASE(cl_int, int)
SATURATED_CASE(cl_uint, uint)
SATURATED_CASE(cl_long, long)
SATURATED_CASE(cl_ulong, ulong)

/// `x` rounded to `source`, as its bytes (little-endian, as the device reads
/// them) and as the double it is exactly.
struct SourceValue {
  uint64_t bits;
  double exact;
};

SourceValue roundTo(const FloatSource &source, double x) {
  SourceValue value{};
  if (source.bytes == 8) {
    std::memcpy(&value.bits, &x, 8);
    value.exact = x;
  } else if (source.bytes == 4) {
    float f = float(x);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    value = {bits, double(f)};
  } else {
    uint16_t h = half_ref::fromDouble(x);
    value = {h, half_ref::toDouble(h)};
  }
  return value;
}

/// The next value of `source` above (`up`) or below `value`: finite,
/// non-zero values only.
SourceValue neighbour(const FloatSource &source, const SourceValue &value, bool up) {
  if (source.bytes == 8)
    return roundTo(source, std::nextafter(value.exact, up ? INFINITY : -INFINITY));
  if (source.bytes == 4)
    return roundTo(source, std::nextafter(float(value.exact), up ? INFINITY : -INFINITY));
  // Half: one step of the magnitude's bits, away from or towards zero.
  bool away = up == (value.exact > 0);
  uint16_t bits = uint16_t(value.bits + (away ? 1 : -1));
  return {bits, half_ref::toDouble(bits)};
}

/// NaN, the infinities, zeros and halves, and around every limit of every
/// integer type: the limit as `source` rounds it, its neighbours in
/// `source`, and the limit plus and minus a half and one.
std::vector<SourceValue> limitValues(const FloatSource &source) {
  std::vector<SourceValue> values;
  for (double x : {double(NAN), double(INFINITY), double(-INFINITY), 0.0, -0.0, 0.5, -0.5, 0.75, -0.999})
    values.push_back(roundTo(source, x));
  const double limits[] = {-128.0,  127.0,      255.0,      -32768.0, 32767.0, 65535.0,
                           -0x1p31, 0x1p31 - 1, 0x1p32 - 1, -0x1p63,  0x1p63,  0x1p64};
  for (double limit : limits)
    for (double step : {0.0, 0.5, -0.5, 1.0, -1.0}) {
      SourceValue value = roundTo(source, limit + step);
      values.push_back(value);
      if (step == 0.0 && std::isfinite(value.exact)) {
        values.push_back(neighbour(source, value, true));
        values.push_back(neighbour(source, value, false));
      }
    }
  return values;
}

/// The saturated conversion of `x` (NaN included) toward zero.
template <typename T> int64_t saturated(double x) {
  if (std::isnan(x))
    return 0;
  double t = std::trunc(x);
  // The limits in double: 2^63 and 2^64 for the 64-bit maxima, where
  // anything at or past them saturates anyway.
  if (t <= double(std::numeric_limits<T>::min()))
    return int64_t(std::numeric_limits<T>::min());
  if (t >= double(std::numeric_limits<T>::max()))
    return int64_t(std::numeric_limits<T>::max());
  return int64_t(T(t));
}

/// Runs convert_<integer>_sat on `values` (of `source`) in scalars and in
/// vectors of 2, 3, 4, 8 and 16 elements; checks each result.
template <typename T> void SaturatedConversionTest::checkLimits(const FloatSource &source, const std::string &integer) {
  if (source.extension && !deviceHasExtension(device(), source.extension))
    GTEST_SKIP() << "no " << source.extension;
  // Half values travel as their bits (there is no host half type).
  const std::string element = source.bytes == 2 ? "ushort" : source.name;
  std::string program;
  if (source.extension)
    program += std::string("#pragma OPENCL EXTENSION ") + source.extension + " : enable\n";
  auto asSource = [&](const std::string &v, const std::string &width) {
    return source.bytes == 2 ? "as_half" + width + "(" + v + ")" : v;
  };
  program += "__kernel void k1(__global const " + element + " *in, __global " + integer + " *out) {" +
             " size_t i = get_global_id(0); out[i] = convert_" + integer + "_sat(" + asSource("in[i]", "") + "); }\n";
  const int widths[] = {2, 3, 4, 8, 16};
  for (int width : widths) {
    std::string n = std::to_string(width);
    program += "__kernel void k" + n + "(__global const " + element + " *in, __global " + integer + " *out) {" +
               " size_t i = get_global_id(0); vstore" + n + "(convert_" + integer + n + "_sat(" +
               asSource("vload" + n + "(i, in)", n) + "), i, out); }\n";
  }
  Program built = build(program);
  ASSERT_TRUE(built);
  std::vector<SourceValue> values = limitValues(source);
  while (values.size() % 48) // whole vectors of every width
    values.push_back(roundTo(source, -1.75));
  const size_t count = values.size();
  std::vector<unsigned char> bytes(count * source.bytes);
  for (size_t i = 0; i < count; ++i)
    std::memcpy(&bytes[i * source.bytes], &values[i].bits, source.bytes);
  Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes.size(), bytes.data());
  for (int width : {1, 2, 3, 4, 8, 16}) {
    Mem out = buffer(CL_MEM_WRITE_ONLY, count * sizeof(T));
    Kernel k = kernel(built, ("k" + std::to_string(width)).c_str());
    ASSERT_TRUE(k);
    setArgs(k, in.get(), out.get());
    size_t items = count / size_t(width);
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
    std::vector<T> got = read<T>(out, count);
    for (size_t i = 0; i < count; ++i)
      EXPECT_EQ(int64_t(got[i]), saturated<T>(values[i].exact))
          << "convert_" << integer << (width > 1 ? std::to_string(width) : "") << "_sat(" << source.name << " "
          << std::hexfloat << values[i].exact << std::defaultfloat << ")";
  }
}

#define LIMITS_CASE(T, CL)                                                                                             \
  TEST_P(SaturatedConversionTest, LimitsFromFloatTo_##CL) { checkLimits<T>(kFloat, #CL); }                             \
  TEST_P(SaturatedConversionTest, LimitsFromDoubleTo_##CL) { checkLimits<T>(kDouble, #CL); }                           \
  TEST_P(SaturatedConversionTest, LimitsFromHalfTo_##CL) { checkLimits<T>(kHalf, #CL); }

LIMITS_CASE(cl_char, char)
LIMITS_CASE(cl_uchar, uchar)
LIMITS_CASE(cl_short, short)
LIMITS_CASE(cl_ushort, ushort)
LIMITS_CASE(cl_int, int)
LIMITS_CASE(cl_uint, uint)
LIMITS_CASE(cl_long, long)
LIMITS_CASE(cl_ulong, ulong)

} // namespace

CLTEST_INSTANTIATE(SaturatedConversionTest);
