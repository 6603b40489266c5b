// cl_polymux_instruction_counters: devices that count retired instructions
// report them per command through clGetEventProfilingInfo; the others reject
// the query.
#include "cl_test.h"

#include <CL/cl_ext_polymux.h>

namespace cltest {
namespace {

class InstructionCountersTest : public DeviceTest {
protected:
  bool counts() const {
    return deviceString(device(), CL_DEVICE_EXTENSIONS).find(CL_POLYMUX_INSTRUCTION_COUNTERS_EXTENSION_NAME) !=
           std::string::npos;
  }
  cl_int retired(cl_event event, cl_ulong &value) {
    return clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_INSTRUCTIONS_RETIRED_POLYMUX, sizeof(value), &value,
                                   nullptr);
  }
};

TEST_P(InstructionCountersTest, KernelsCountTheirWorkAndTransfersNone) {
  Queue queue = makeQueue(CL_QUEUE_PROFILING_ENABLE);
  Program program = build(R"(
    kernel void sum(global int *out, int n) {
      int total = 0;
      for (int i = 0; i < n; ++i) total += i;
      out[get_global_id(0)] = total;
    })");
  ASSERT_TRUE(program);
  Kernel kernel = this->kernel(program, "sum");
  Mem out = buffer(CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  auto run = [&](cl_int n, Event &event) {
    setArgs(kernel.get(), out.get(), n);
    size_t global = 64;
    ASSERT_CL(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, event.out()));
    ASSERT_CL(clWaitForEvents(1, event.ptr()));
  };
  Event shortRun, longRun, write;
  run(10, shortRun);
  run(1000, longRun);
  cl_int zero = 0;
  ASSERT_CL(clEnqueueWriteBuffer(queue, out, CL_TRUE, 0, sizeof(zero), &zero, 0, nullptr, write.out()));

  cl_ulong shortCount = 0, longCount = 0, writeCount = 1;
  if (!counts()) {
    EXPECT_CL_ERR(CL_INVALID_VALUE, retired(longRun, longCount));
    return;
  }
  ASSERT_CL(retired(shortRun, shortCount));
  ASSERT_CL(retired(longRun, longCount));
  ASSERT_CL(retired(write, writeCount));
  // 64 work-items each run the loop: 990 more iterations each, several
  // instructions per iteration.
  EXPECT_GT(shortCount, 64u * 10);
  EXPECT_GT(longCount, shortCount + 64u * 990 * 2);
  EXPECT_EQ(writeCount, 0u);
}

TEST_P(InstructionCountersTest, UnavailableWithoutProfiling) {
  if (!counts())
    GTEST_SKIP() << "the device does not count instructions";
  Mem out = buffer(CL_MEM_READ_WRITE, sizeof(cl_int));
  cl_int zero = 0;
  Event write;
  ASSERT_CL(clEnqueueWriteBuffer(queue_, out, CL_TRUE, 0, sizeof(zero), &zero, 0, nullptr, write.out()));
  cl_ulong value = 0;
  EXPECT_CL_ERR(CL_PROFILING_INFO_NOT_AVAILABLE, retired(write, value));
}

CLTEST_INSTANTIATE(InstructionCountersTest);

} // namespace
} // namespace cltest
