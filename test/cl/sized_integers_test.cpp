// cl_polymux_sized_integers: int8_t ... uint64_t and their limits in OpenCL
// C on every device that reports it, and the opt-out for programs that
// declare the names themselves (doc/extensions/cl_polymux_sized_integers.md).
#include "cl_test.h"

#include <CL/cl_ext_polymux.h>

#include <cstdint>
#include <limits>
#include <vector>

using namespace cltest;

namespace {

class SizedIntegersTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (deviceString(device(), CL_DEVICE_EXTENSIONS).find(CL_POLYMUX_SIZED_INTEGERS_EXTENSION_NAME) ==
        std::string::npos)
      GTEST_SKIP() << "the device does not report " CL_POLYMUX_SIZED_INTEGERS_EXTENSION_NAME;
  }
};

TEST_P(SizedIntegersTest, TypesHaveTheirWidthsSignsAndLimits) {
  Program program = build(R"(
kernel void facts(global long *out, global const int *in) {
  int i = 0;
  out[i++] = sizeof(int8_t);  out[i++] = sizeof(uint8_t);
  out[i++] = sizeof(int16_t); out[i++] = sizeof(uint16_t);
  out[i++] = sizeof(int32_t); out[i++] = sizeof(uint32_t);
  out[i++] = sizeof(int64_t); out[i++] = sizeof(uint64_t);
  // Wrapping at the width, from a run-time value the compiler cannot fold.
  int8_t small = (int8_t)(in[0] + 127);   // 128 wraps to -128
  uint8_t usmall = (uint8_t)(in[0] + 255); // 256 wraps to 0
  int16_t medium = (int16_t)(in[0] + INT16_MAX);
  uint32_t large = (uint32_t)in[0] - 2u;   // wraps to UINT32_MAX
  int64_t huge = (int64_t)INT64_MAX;
  out[i++] = small;
  out[i++] = usmall;
  out[i++] = medium;
  out[i++] = large;
  out[i++] = huge;
  out[i++] = INT8_MIN;  out[i++] = INT8_MAX;  out[i++] = UINT8_MAX;
  out[i++] = INT16_MIN; out[i++] = INT16_MAX; out[i++] = UINT16_MAX;
  out[i++] = INT32_MIN; out[i++] = INT32_MAX; out[i++] = UINT32_MAX;
  out[i++] = INT64_MIN; out[i++] = (long)(UINT64_MAX >> 1);  // INT64_MAX
}
)");
  ASSERT_TRUE(program);
  Kernel kernel = this->kernel(program, "facts");
  const size_t count = 24;
  Mem out = buffer(CL_MEM_WRITE_ONLY, count * sizeof(cl_long));
  cl_int one = 1;
  Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof one, &one);
  setArgs(kernel.get(), out.get(), in.get());
  size_t global = 1;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  std::vector<cl_long> values = read<cl_long>(out, count);
  const std::vector<cl_long> expected = {
      1,         1,         2,          2,          4,         4,          8,         8,
      -128,      0,         INT16_MIN,  UINT32_MAX, INT64_MAX, INT8_MIN,   INT8_MAX,  UINT8_MAX,
      INT16_MIN, INT16_MAX, UINT16_MAX, INT32_MIN,  INT32_MAX, UINT32_MAX, INT64_MIN, INT64_MAX,
  };
  ASSERT_EQ(expected.size(), count);
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(values[i], expected[i]) << "value " << i;
}

TEST_P(SizedIntegersTest, ProgramsDeclaringTheNamesThemselvesCanOptOut) {
  // Different types than the extension's: a conflict, unless opted out.
  const char *source = "typedef int int8_t;\n"
                       "kernel void k(global int *out) { int8_t big = 100000; out[0] = big; }\n";
  cl_int error = CL_SUCCESS;
  Program conflicting(clCreateProgramWithSource(context_, 1, &source, nullptr, &error));
  ASSERT_CL(error);
  cl_device_id dev = device();
  EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(conflicting, 1, &dev, "", nullptr, nullptr));
  Program optedOut = build(source, "-DPOLYMUX_NO_SIZED_INTEGER_TYPES");
  ASSERT_TRUE(optedOut);
  Kernel kernel = this->kernel(optedOut, "k");
  Mem out = buffer(CL_MEM_WRITE_ONLY, sizeof(cl_int));
  setArgs(kernel.get(), out.get());
  size_t global = 1;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  EXPECT_EQ(read<cl_int>(out, 1)[0], 100000);
}

} // namespace

CLTEST_INSTANTIATE(SizedIntegersTest);
