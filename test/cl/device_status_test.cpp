// cl_polymux_device_status: clGetDeviceStatusInfoPOLYMUX on every device:
// the queries, both integrity checks, that a check holds queued work back,
// the error paths, and (riscv_sim) that a faulty device fails its checks.
#include "cl_test.h"

#include <CL/cl_ext_polymux.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

using namespace cltest;

namespace {

/// A kernel that keeps the device busy for `rounds` iterations per work-item.
constexpr const char *kSpinSource = R"(
    kernel void spin(global uint *out, uint rounds) {
      uint x = (uint)get_global_id(0);
      for (uint i = 0; i < rounds; ++i) x = x * 1664525u + 1013904223u;
      out[get_global_id(0)] = x;
    })";

/// Work-group g spins (g + 1) * rounds times: the groups finish one after
/// the other even on a device that runs them all at once.
constexpr const char *kStaggeredSource = R"(
    uint step(uint x) {
      x ^= x << 13; x ^= x >> 17; x ^= x << 5;
      return x;
    }
    kernel void staggered(global uint *out, uint rounds) {
      uint x = (uint)get_global_id(0) + 1;
      for (uint g = 0; g <= (uint)get_group_id(0); ++g)
        for (uint i = 0; i < rounds; ++i) x = step(step(step(step(x))));
      out[get_global_id(0)] = x;
    })";

class DeviceStatusTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    status_ = extensionFunction<clGetDeviceStatusInfoPOLYMUX_fn>("clGetDeviceStatusInfoPOLYMUX");
    ASSERT_NE(status_, nullptr);
  }
  template <typename T> T query(cl_device_status_info_POLYMUX param) {
    T value{};
    EXPECT_CL(status_(device(), param, sizeof(T), &value, nullptr)) << "param 0x" << std::hex << param;
    return value;
  }
  std::string message() {
    size_t size = 0;
    EXPECT_CL(status_(device(), CL_DEVICE_STATUS_COMMAND_MESSAGE_POLYMUX, 0, nullptr, &size));
    std::string text(size, '\0');
    EXPECT_CL(status_(device(), CL_DEVICE_STATUS_COMMAND_MESSAGE_POLYMUX, size, text.data(), nullptr));
    if (!text.empty())
      text.pop_back();
    return text;
  }
  /// Waits (up to two minutes) for the check issued last to complete.
  bool waitForCheck() {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    while (query<cl_bool>(CL_DEVICE_STATUS_COMMAND_COMPLETE_POLYMUX) != CL_TRUE) {
      if (std::chrono::steady_clock::now() > deadline)
        return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
  }
  /// Issues a check and waits for it; returns CL_DEVICE_STATUS_COMMAND_STATUS_POLYMUX.
  cl_bool runCheck(cl_device_status_info_POLYMUX check) {
    cl_int issued = 1;
    EXPECT_CL(status_(device(), check, sizeof(issued), &issued, nullptr));
    EXPECT_EQ(issued, CL_SUCCESS);
    EXPECT_TRUE(waitForCheck());
    return query<cl_bool>(CL_DEVICE_STATUS_COMMAND_STATUS_POLYMUX);
  }

  /// The rounds for which one launch of `k` (arguments: a buffer and the
  /// rounds) lasts at least `atLeast` on this device, doubling from
  /// `rounds` up to `maxRounds`: a fixed count that is long on lavapipe
  /// ends in a few milliseconds on a large GPU, too soon for a polling
  /// thread on a loaded machine to see it run.
  cl_uint roundsLasting(cl_kernel k, cl_mem out, size_t global, size_t local, std::chrono::milliseconds atLeast,
                        cl_uint rounds, cl_uint maxRounds) {
    for (;;) {
      setArgs(k, out, rounds);
      auto start = std::chrono::steady_clock::now();
      EXPECT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
      EXPECT_CL(clFinish(queue_));
      auto took = std::chrono::steady_clock::now() - start;
      if (took >= atLeast || rounds >= maxRounds)
        return rounds;
      rounds = std::min<cl_uint>(rounds * (took < atLeast / 10 ? 8 : 2), maxRounds);
    }
  }

  clGetDeviceStatusInfoPOLYMUX_fn status_ = nullptr;
};

TEST_P(DeviceStatusTest, EveryDeviceReportsTheExtension) {
  EXPECT_NE(deviceString(device(), CL_DEVICE_EXTENSIONS).find(CL_POLYMUX_DEVICE_STATUS_EXTENSION_NAME),
            std::string::npos);
}

TEST_P(DeviceStatusTest, QueriesAnswerInRange) {
  const cl_ulong global = deviceInfo<cl_ulong>(device(), CL_DEVICE_GLOBAL_MEM_SIZE);
  const cl_ulong available = query<cl_ulong>(CL_DEVICE_STATUS_MEMORY_AVAILABLE_POLYMUX);
  EXPECT_GT(available, 0u);
  EXPECT_LE(available, global);
  EXPECT_LE(query<cl_uint>(CL_DEVICE_STATUS_ALU_UTILIZATION_POLYMUX), 100u);
  EXPECT_LE(query<cl_uint>(CL_DEVICE_STATUS_MEMORY_UTILIZATION_POLYMUX), 100u);
  // Nothing runs on the device now.
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(query<cl_uint>(CL_DEVICE_STATUS_COMMAND_PROGRESS_POLYMUX), 100u);
  EXPECT_EQ(query<cl_bool>(CL_DEVICE_STATUS_COMMAND_COMPLETE_POLYMUX), cl_bool(CL_TRUE));
  size_t size = 0;
  ASSERT_CL(status_(device(), CL_DEVICE_STATUS_MEMORY_AVAILABLE_POLYMUX, 0, nullptr, &size));
  EXPECT_EQ(size, sizeof(cl_ulong));
}

TEST_P(DeviceStatusTest, MemoryAvailableFollowsAllocations) {
  const size_t size = 32u << 20;
  const cl_ulong before = query<cl_ulong>(CL_DEVICE_STATUS_MEMORY_AVAILABLE_POLYMUX);
  {
    Mem block = buffer(CL_MEM_READ_WRITE, size);
    cl_uint zero = 0;
    // Storage is allocated on the device on first use.
    ASSERT_CL(clEnqueueFillBuffer(queue_, block, &zero, sizeof(zero), 0, size, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queue_));
    const cl_ulong during = query<cl_ulong>(CL_DEVICE_STATUS_MEMORY_AVAILABLE_POLYMUX);
    // Slack for other memory the driver frees meanwhile (objects of earlier
    // tests released as their commands finish: 128 bytes were seen).
    EXPECT_LE(during + size, before + size / 8);
  }
  EXPECT_GE(query<cl_ulong>(CL_DEVICE_STATUS_MEMORY_AVAILABLE_POLYMUX) + size / 2, before);
}

TEST_P(DeviceStatusTest, UtilisationSeesKernelsAndTransfers) {
  Program program = build(kSpinSource);
  ASSERT_TRUE(program);
  Kernel spin = kernel(program, "spin");
  Mem out = buffer(CL_MEM_READ_WRITE, 256 * sizeof(cl_uint));
  // Kernels for about 200 ms, whatever the device's speed.
  cl_uint rounds = 1000;
  auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(200)) {
    setArgs(spin.get(), out.get(), rounds);
    size_t global = 256;
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, spin, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queue_));
    rounds = std::min<cl_uint>(rounds * 2, 1u << 24);
  }
  EXPECT_GT(query<cl_uint>(CL_DEVICE_STATUS_ALU_UTILIZATION_POLYMUX), 0u);
  // Transfers for about 200 ms.
  std::vector<cl_uint> host(4u << 20, 1);
  Mem big = buffer(CL_MEM_READ_WRITE, host.size() * sizeof(cl_uint));
  start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(200))
    ASSERT_CL(
        clEnqueueWriteBuffer(queue_, big, CL_TRUE, 0, host.size() * sizeof(cl_uint), host.data(), 0, nullptr, nullptr));
  EXPECT_GT(query<cl_uint>(CL_DEVICE_STATUS_MEMORY_UTILIZATION_POLYMUX), 0u);
}

TEST_P(DeviceStatusTest, ProgressOfARunningKernel) {
  Program program = build(kSpinSource);
  ASSERT_TRUE(program);
  Kernel spin = kernel(program, "spin");
  const size_t global = 4096, local = 16;
  Mem out = buffer(CL_MEM_READ_WRITE, global * sizeof(cl_uint));
  // At least 300 ms, at most 65,535 iterations (lavapipe's loop limit).
  const cl_uint rounds = roundsLasting(spin, out, global, local, std::chrono::milliseconds(300), 20000, 65535);
  setArgs(spin.get(), out.get(), rounds);
  Event event;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, spin, 1, nullptr, &global, &local, 0, nullptr, event.out()));
  ASSERT_CL(clFlush(queue_));
  // The event is CL_RUNNING a little before the launch starts and after it
  // ends (100 then), so only the values below 100 are compared.
  cl_uint last = 0;
  bool sawLaunch = false;
  while (eventInfo<cl_int>(event, CL_EVENT_COMMAND_EXECUTION_STATUS) > CL_COMPLETE) {
    cl_uint progress = query<cl_uint>(CL_DEVICE_STATUS_COMMAND_PROGRESS_POLYMUX);
    EXPECT_LE(progress, 100u);
    if (progress < 100) {
      EXPECT_GE(progress, last);
      last = progress;
      sawLaunch = true;
    }
  }
  ASSERT_CL(clFinish(queue_));
  EXPECT_TRUE(sawLaunch) << "rounds " << rounds;
  EXPECT_EQ(query<cl_uint>(CL_DEVICE_STATUS_COMMAND_PROGRESS_POLYMUX), 100u);
}

TEST_P(DeviceStatusTest, ProgressRisesWhileGroupsFinish) {
  Program program = build(kStaggeredSource);
  ASSERT_TRUE(program);
  Kernel staggered = kernel(program, "staggered");
  const size_t local = 64, groups = 64, global = local * groups;
  Mem out = buffer(CL_MEM_READ_WRITE, global * sizeof(cl_uint));
  // Rounds for a launch of at least 300 ms, whatever the device's speed,
  // but at most 65,535 loop iterations per work-item, the outer loop's
  // counted: lavapipe ends every loop of an invocation after that many in
  // all.
  const cl_uint maxRounds = (65535 - groups) / groups;
  const cl_uint rounds = roundsLasting(staggered, out, global, local, std::chrono::milliseconds(300), 16, maxRounds);
  setArgs(staggered.get(), out.get(), rounds);
  Event event;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, staggered, 1, nullptr, &global, &local, 0, nullptr, event.out()));
  ASSERT_CL(clFlush(queue_));
  std::vector<cl_uint> seen;
  while (eventInfo<cl_int>(event, CL_EVENT_COMMAND_EXECUTION_STATUS) > CL_COMPLETE) {
    cl_uint progress = query<cl_uint>(CL_DEVICE_STATUS_COMMAND_PROGRESS_POLYMUX);
    if (progress > 0 && progress < 100 && (seen.empty() || seen.back() != progress))
      seen.push_back(progress);
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  ASSERT_CL(clFinish(queue_));
  // Values between 0 and 100, never falling: the groups were seen finishing.
  ASSERT_GE(seen.size(), 2u) << "rounds " << rounds;
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_EQ(query<cl_uint>(CL_DEVICE_STATUS_COMMAND_PROGRESS_POLYMUX), 100u);
  // And the kernel did its work.
  std::vector<cl_uint> results(global);
  ASSERT_CL(
      clEnqueueReadBuffer(queue_, out, CL_TRUE, 0, global * sizeof(cl_uint), results.data(), 0, nullptr, nullptr));
  for (size_t id : {size_t(0), global / 2 + 3, global - 1}) {
    uint32_t x = uint32_t(id) + 1, steps = 4 * uint32_t(id / local + 1) * rounds;
    for (uint32_t i = 0; i < steps; ++i) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
    }
    EXPECT_EQ(results[id], x) << "work-item " << id;
  }
}

TEST_P(DeviceStatusTest, MemoryCheckPasses) {
  EXPECT_EQ(runCheck(CL_DEVICE_STATUS_COMMAND_MEM_CHECK_POLYMUX), cl_bool(CL_TRUE)) << message();
  EXPECT_NE(message().find("memory check passed"), std::string::npos) << message();
  EXPECT_EQ(query<cl_uint>(CL_DEVICE_STATUS_COMMAND_PROGRESS_POLYMUX), 100u);
}

TEST_P(DeviceStatusTest, AluCheckPasses) {
  EXPECT_EQ(runCheck(CL_DEVICE_STATUS_COMMAND_ALU_CHECK_POLYMUX), cl_bool(CL_TRUE)) << message();
  EXPECT_NE(message().find("ALU check passed"), std::string::npos) << message();
}

TEST_P(DeviceStatusTest, ACheckHoldsQueuedWorkBack) {
  std::vector<cl_uint> values(1024, 7);
  Mem data = buffer(CL_MEM_READ_WRITE, values.size() * sizeof(cl_uint));
  ASSERT_CL(clFinish(queue_));
  ASSERT_CL(status_(device(), CL_DEVICE_STATUS_COMMAND_MEM_CHECK_POLYMUX, 0, nullptr, nullptr));
  Event write;
  ASSERT_CL(clEnqueueWriteBuffer(queue_, data, CL_FALSE, 0, values.size() * sizeof(cl_uint), values.data(), 0, nullptr,
                                 write.out()));
  ASSERT_CL(clFlush(queue_));
  for (;;) {
    cl_int status = eventInfo<cl_int>(write, CL_EVENT_COMMAND_EXECUTION_STATUS);
    cl_bool complete = query<cl_bool>(CL_DEVICE_STATUS_COMMAND_COMPLETE_POLYMUX);
    if (complete == CL_TRUE)
      break;
    // The check was issued first: the write cannot have run while it runs.
    ASSERT_GT(status, CL_RUNNING);
  }
  ASSERT_CL(clWaitForEvents(1, write.ptr()));
  EXPECT_EQ(query<cl_bool>(CL_DEVICE_STATUS_COMMAND_STATUS_POLYMUX), cl_bool(CL_TRUE)) << message();
}

TEST_P(DeviceStatusTest, ErrorPaths) {
  cl_uint value = 0;
  EXPECT_CL_ERR(CL_INVALID_DEVICE,
                status_(nullptr, CL_DEVICE_STATUS_COMMAND_PROGRESS_POLYMUX, sizeof(value), &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_DEVICE, status_(reinterpret_cast<cl_device_id>(context_.get()),
                                           CL_DEVICE_STATUS_COMMAND_PROGRESS_POLYMUX, sizeof(value), &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, status_(device(), 0x4F6F, sizeof(value), &value, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, status_(device(), CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(value), &value, nullptr));
  cl_ulong memory = 0;
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                status_(device(), CL_DEVICE_STATUS_MEMORY_AVAILABLE_POLYMUX, sizeof(cl_uint), &memory, nullptr));
  cl_uchar small = 0;
  EXPECT_CL_ERR(CL_INVALID_VALUE, status_(device(), CL_DEVICE_STATUS_COMMAND_PROGRESS_POLYMUX, 1, &small, nullptr));
  // A check call with too small a buffer issues nothing.
  ASSERT_TRUE(waitForCheck());
  EXPECT_CL_ERR(CL_INVALID_VALUE, status_(device(), CL_DEVICE_STATUS_COMMAND_ALU_CHECK_POLYMUX, 1, &small, nullptr));
  EXPECT_EQ(query<cl_bool>(CL_DEVICE_STATUS_COMMAND_COMPLETE_POLYMUX), cl_bool(CL_TRUE));
  // A check issued while one runs is refused, and so is the result.
  ASSERT_CL(status_(device(), CL_DEVICE_STATUS_COMMAND_MEM_CHECK_POLYMUX, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_OPERATION,
                status_(device(), CL_DEVICE_STATUS_COMMAND_ALU_CHECK_POLYMUX, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_OPERATION,
                status_(device(), CL_DEVICE_STATUS_COMMAND_MEM_CHECK_POLYMUX, 0, nullptr, nullptr));
  cl_bool passed = CL_FALSE;
  EXPECT_CL_ERR(CL_INVALID_OPERATION,
                status_(device(), CL_DEVICE_STATUS_COMMAND_STATUS_POLYMUX, sizeof(passed), &passed, nullptr));
  ASSERT_TRUE(waitForCheck());
  EXPECT_CL_ERR(CL_INVALID_VALUE, status_(device(), CL_DEVICE_STATUS_COMMAND_STATUS_POLYMUX, 0, &passed, nullptr));
  EXPECT_CL(status_(device(), CL_DEVICE_STATUS_COMMAND_STATUS_POLYMUX, sizeof(passed), &passed, nullptr));
}

/// riscv_sim only: POLYMUX_RISCV_SIM_FAULT makes a simulated device faulty.
/// The faulty device lives in a fresh process (a "threadsafe" death test
/// starts one, which inherits the variable); this process's device is not
/// touched.
TEST_P(DeviceStatusTest, AFaultyDeviceFailsItsChecks) {
  if (deviceString(device(), CL_DEVICE_NAME).find("RISC-V simulator") == std::string::npos)
    GTEST_SKIP() << "fault injection is a riscv_sim test knob";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto checkIn = [&](const char *fault, cl_device_status_info_POLYMUX check, const char *name) {
    ASSERT_EQ(setenv("POLYMUX_RISCV_SIM_FAULT", fault, 1), 0);
    EXPECT_EXIT(
        {
          cl_bool passed = runCheck(check);
          std::fprintf(stderr, "%s=%d: %s\n", name, int(passed), message().c_str());
          std::exit(0);
        },
        testing::ExitedWithCode(0), std::string(name) + "=0: .*check failed");
    unsetenv("POLYMUX_RISCV_SIM_FAULT");
  };
  checkIn("alu", CL_DEVICE_STATUS_COMMAND_ALU_CHECK_POLYMUX, "alu");
  checkIn("memory", CL_DEVICE_STATUS_COMMAND_MEM_CHECK_POLYMUX, "memory");
  // This process's device passes both.
  EXPECT_EQ(runCheck(CL_DEVICE_STATUS_COMMAND_ALU_CHECK_POLYMUX), cl_bool(CL_TRUE)) << message();
  EXPECT_EQ(runCheck(CL_DEVICE_STATUS_COMMAND_MEM_CHECK_POLYMUX), cl_bool(CL_TRUE)) << message();
}

} // namespace

CLTEST_INSTANTIATE(DeviceStatusTest);
