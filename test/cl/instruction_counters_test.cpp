// cl_polymux_instruction_counters: devices that count retired instructions
// report them per command through clGetEventProfilingInfo; the others reject
// the query.
#include "cl_test.h"

#include <CL/cl_ext_polymux.h>

#include <vector>

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
    kernel void hash(global int *out, global const int *in, int n) {
      // A chain the optimiser cannot fold into a closed form.
      int total = (int)get_global_id(0);
      for (int i = 0; i < n; ++i) total = total * 31 + in[i];
      out[get_global_id(0)] = total;
    })");
  ASSERT_TRUE(program);
  Kernel kernel = this->kernel(program, "hash");
  Mem out = buffer(CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  std::vector<cl_int> values(1000, 7);
  Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(cl_int), values.data());
  auto run = [&](cl_int n, Event &event) {
    setArgs(kernel.get(), out.get(), in.get(), n);
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
  // 64 work-items each run the loop: 990 more iterations each, at least a
  // load, a multiply and an add per iteration.
  EXPECT_GT(shortCount, 64u * 10);
  EXPECT_GT(longCount, shortCount + 64u * 990 * 3);
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
