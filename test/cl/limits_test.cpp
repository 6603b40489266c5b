// Limits that fail cleanly: more memory than the device (or the system
// behind it) holds, more private memory than a work-item may use, a million
// queued commands. Each gives the specification's error or a failed event,
// nothing is touched that the system cannot commit (a host allocation the
// out-of-memory killer would answer), and the device keeps working.
#include "cl_test.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace cltest;

namespace {

constexpr const char *kIncrementSource = R"(
kernel void increment(global int *data) { data[get_global_id(0)] += 1; }
)";

// 16 MiB of private memory per work-item: more than any target's stack.
constexpr const char *kHugePrivateSource = R"(
kernel void huge(global int *out, int n) {
  volatile int scratch[1 << 22];
  for (int i = 0; i < n; ++i)
    scratch[i] = i;
  out[get_global_id(0)] = scratch[n - 1];
}
)";

class LimitsTest : public DeviceTest {
protected:
  // Whether a small kernel still runs correctly on the device.
  void expectDeviceStillWorks() {
    Program program = build(kIncrementSource);
    ASSERT_TRUE(program);
    Kernel k = kernel(program, "increment");
    std::vector<cl_int> values = {1, 2, 3, 4};
    Mem mem = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(cl_int), values.data());
    cl_mem handle = mem;
    setArgs(k, handle);
    size_t global = values.size();
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
    EXPECT_EQ(read<cl_int>(mem, values.size()), (std::vector<cl_int>{2, 3, 4, 5}));
  }
};

bool isOutOfMemoryError(cl_int code) {
  return code == CL_MEM_OBJECT_ALLOCATION_FAILURE || code == CL_OUT_OF_RESOURCES || code == CL_OUT_OF_HOST_MEMORY;
}

} // namespace

TEST_P(LimitsTest, AllocationsBeyondWhatTheDeviceHoldsFailCleanly) {
  const cl_ulong maxAlloc = deviceInfo<cl_ulong>(device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  const cl_ulong global = deviceInfo<cl_ulong>(device(), CL_DEVICE_GLOBAL_MEM_SIZE);
  const uint64_t systemMemory = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  // A device's memory is its own or the system's. A GPU's driver may hold
  // more than the device reports (an H200's Vulkan driver granted its whole
  // 141 GB heap; the device reports 17 GB, four times the largest Vulkan
  // allocation): allocations must fail before twice the larger of the two.
  const uint64_t bound = 2 * std::max<uint64_t>(global, systemMemory);
  const size_t attempts = static_cast<size_t>(bound / maxAlloc + 1);
  std::vector<Mem> held;
  cl_int failure = CL_SUCCESS;
  while (held.size() < attempts && failure == CL_SUCCESS) {
    cl_int err = CL_SUCCESS;
    Mem mem(clCreateBuffer(context_, CL_MEM_READ_WRITE, maxAlloc, nullptr, &err));
    if (err != CL_SUCCESS) {
      failure = err;
      break;
    }
    // Storage may be allocated on first use: ask for it without touching it.
    cl_mem handle = mem;
    cl_event event = nullptr;
    err = clEnqueueMigrateMemObjects(queue_, 1, &handle, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, nullptr, &event);
    if (err != CL_SUCCESS) {
      failure = err;
      break;
    }
    clWaitForEvents(1, &event);
    cl_int status = CL_COMPLETE;
    EXPECT_CL(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
    clReleaseEvent(event);
    if (status < 0) {
      failure = status;
      break;
    }
    held.push_back(std::move(mem));
  }
  ASSERT_NE(failure, CL_SUCCESS) << held.size() << " allocations of " << maxAlloc
                                 << " bytes succeeded, more than the device (" << global << " bytes) or the system ("
                                 << systemMemory << " bytes) holds";
  EXPECT_TRUE(isOutOfMemoryError(failure)) << errorName(failure);
  held.clear();
  ASSERT_CL(clFinish(queue_));
  expectDeviceStillWorks();
}

TEST_P(LimitsTest, PrivateMemoryBeyondTheStackFailsTheBuildOrTheCommand) {
  const char *text = kHugePrivateSource;
  cl_int err = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context_, 1, &text, nullptr, &err));
  ASSERT_CL(err);
  cl_device_id dev = device();
  err = clBuildProgram(program, 1, &dev, "", nullptr, nullptr);
  if (err != CL_SUCCESS) {
    // Refused at build time, with the reason in the build log.
    EXPECT_EQ(Err{err}, Err{CL_BUILD_PROGRAM_FAILURE});
    EXPECT_NE(programBuildLog(program, dev).find("private"), std::string::npos) << programBuildLog(program, dev);
  } else {
    Kernel k = kernel(program, "huge");
    Mem out = buffer(CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
    cl_mem handle = out;
    setArgs(k, handle, cl_int{1 << 22});
    size_t global = 64;
    cl_event event = nullptr;
    err = clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, &event);
    if (err == CL_SUCCESS) {
      // The event fails; it does not take the process down.
      clWaitForEvents(1, &event);
      cl_int status = CL_COMPLETE;
      EXPECT_CL(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
      clReleaseEvent(event);
      EXPECT_EQ(Err{status}, Err{CL_OUT_OF_RESOURCES});
    } else {
      EXPECT_EQ(Err{err}, Err{CL_OUT_OF_RESOURCES});
    }
  }
  expectDeviceStillWorks();
}

TEST_P(LimitsTest, AMillionQueuedCommandsRunInOrder) {
  constexpr size_t kCommands = 1000000;
  Mem counter = buffer(CL_MEM_READ_WRITE, sizeof(cl_int));
  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  cl_event gateHandle = gate;
  // Everything waits behind the user event, so all million are queued at
  // once; the last fill decides the value.
  for (size_t i = 0; i < kCommands; ++i) {
    const cl_int value = static_cast<cl_int>(i);
    err = clEnqueueFillBuffer(queue_, counter, &value, sizeof value, 0, sizeof value, i == 0 ? 1 : 0,
                              i == 0 ? &gateHandle : nullptr, nullptr);
    if (err != CL_SUCCESS)
      break;
  }
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(err) << "enqueueing a million commands";
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(read<cl_int>(counter, 1)[0], static_cast<cl_int>(kCommands - 1));
  expectDeviceStillWorks();
}

CLTEST_INSTANTIATE(LimitsTest);
