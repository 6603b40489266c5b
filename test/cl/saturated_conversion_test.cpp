// Saturated conversions from float to every integer type (OpenCL C 3.0
// 6.4.3.3): NaN gives 0, values beyond the type's range its limits, the rest
// truncate (or round as named). Scalars and float4 lanes.
#include "cl_test.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace cltest;

namespace {

class SaturatedConversionTest : public DeviceTest {};

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

} // namespace

CLTEST_INSTANTIATE(SaturatedConversionTest);
