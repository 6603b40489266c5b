// cl_khr_command_buffer: record once, enqueue many times, on every device.
// Results are checked against references computed on the host.
#include "CL/cl_khr_command_buffer_next.h"
#include "command_buffer_api.h"
#include "stdout_capture.h"
#include "test_kernels.h"

#include <array>
#include <cstring>
#include <numeric>
#include <sstream>

using namespace cltest;

namespace {

constexpr size_t kCount = 1024;

std::vector<cl_int> sequence(size_t count, cl_int seed) {
  std::vector<cl_int> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = static_cast<cl_int>((i * 7919 + seed * 104729) % 100003) - 50000;
  return values;
}

class CommandBufferExecution : public CommandBufferTest {
protected:
  void SetUp() override {
    CommandBufferTest::SetUp();
    if (HasFatalFailure())
      return;
    program_ = build(kernels::command_buffer);
    ASSERT_TRUE(program_);
    kernel_ = kernel(program_, "scale_add");
    ASSERT_TRUE(kernel_);
    input_ = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
    work_ = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
    output_ = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
    ASSERT_TRUE(input_ && work_ && output_);
  }

  void write(cl_mem mem, const std::vector<cl_int> &values) {
    ASSERT_CL(clEnqueueWriteBuffer(queue_, mem, CL_TRUE, 0, values.size() * sizeof(cl_int), values.data(), 0, nullptr,
                                   nullptr));
  }

  /// Records copy input→work, scale_add(work, factor, addend), copy
  /// work→output, each waiting on the previous one's sync point.
  void recordPipeline(cl_command_buffer_khr commandBuffer, cl_int factor, cl_int addend) {
    setArgs(kernel_.get(), work_.get(), factor, addend);
    cl_sync_point_khr copied = 0, scaled = 0, out = 0;
    const size_t bytes = kCount * sizeof(cl_int);
    ASSERT_CL(api_.copy(commandBuffer, nullptr, nullptr, input_, work_, 0, 0, bytes, 0, nullptr, &copied, nullptr));
    const size_t global = kCount;
    ASSERT_CL(api_.ndrange(commandBuffer, nullptr, nullptr, kernel_, 1, nullptr, &global, nullptr, 1, &copied, &scaled,
                           nullptr));
    ASSERT_CL(api_.copy(commandBuffer, nullptr, nullptr, work_, output_, 0, 0, bytes, 1, &scaled, &out, nullptr));
    EXPECT_NE(0u, copied);
    EXPECT_NE(copied, scaled);
    EXPECT_NE(scaled, out);
  }

  static std::vector<cl_int> scaleAdd(const std::vector<cl_int> &in, cl_int factor, cl_int addend) {
    std::vector<cl_int> out(in.size());
    for (size_t i = 0; i < in.size(); ++i)
      out[i] = static_cast<cl_int>(static_cast<uint32_t>(in[i]) * static_cast<uint32_t>(factor) +
                                   static_cast<uint32_t>(addend));
    return out;
  }

  Program program_;
  Kernel kernel_;
  Mem input_, work_, output_;
};

} // namespace

TEST_P(CommandBufferTest, DeviceQueries) {
  auto extensions = deviceArray<cl_name_version>(device(), CL_DEVICE_EXTENSIONS_WITH_VERSION);
  bool found = false;
  for (const cl_name_version &extension : extensions)
    if (std::strcmp(extension.name, "cl_khr_command_buffer") == 0) {
      found = true;
      EXPECT_EQ(CL_MAKE_VERSION(0, 9, 8), extension.version);
    }
  EXPECT_TRUE(found);
  auto capabilities =
      deviceInfo<cl_device_command_buffer_capabilities_khr>(device(), CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR);
  // Offered: printf, and simultaneous use with mutable dispatch (every
  // Polymux device). Not offered: device-side enqueue. Out-of-order queues
  // are a supported queue property since revision 0.9.6, no capability.
  EXPECT_TRUE(deviceHasExtension(device(), "cl_khr_command_buffer_mutable_dispatch"));
  EXPECT_EQ(cl_device_command_buffer_capabilities_khr(CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR |
                                                      CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR),
            capabilities);
  EXPECT_EQ(0u,
            deviceInfo<cl_command_queue_properties>(device(), CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR));
  // Every queue property the device offers may be on the enqueueing queue.
  EXPECT_EQ(deviceInfo<cl_command_queue_properties>(device(), CL_DEVICE_QUEUE_PROPERTIES),
            deviceInfo<cl_command_queue_properties>(device(), CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR));
  EXPECT_EQ(cl_command_queue_properties(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE),
            deviceInfo<cl_command_queue_properties>(device(), CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR));
  // Without images the image commands exist and fail as clEnqueueCopyImage
  // (devices with images: image_command_buffer_test.cpp).
  if (deviceInfo<cl_bool>(device(), CL_DEVICE_IMAGE_SUPPORT))
    return;
  auto copyImage = extensionFunction<clCommandCopyImageKHR_fn>("clCommandCopyImageKHR");
  ASSERT_NE(nullptr, copyImage);
  CommandBuffer commandBuffer = create();
  ASSERT_TRUE(commandBuffer);
  const size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1};
  EXPECT_CL_ERR(CL_INVALID_OPERATION, copyImage(commandBuffer, nullptr, nullptr, nullptr, nullptr, origin, origin,
                                                region, 0, nullptr, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_COMMAND_BUFFER_KHR, copyImage(nullptr, nullptr, nullptr, nullptr, nullptr, origin, origin,
                                                         region, 0, nullptr, nullptr, nullptr));
}

// Revision 0.9.4's SVM commands: recorded like clEnqueueSVMMemcpy and
// clEnqueueSVMMemFill where the device has SVM, refused as they are where
// it has none.
TEST_P(CommandBufferTest, SvmCopyAndFill) {
  auto svmCopy = extensionFunction<clCommandSVMMemcpyKHR_fn>("clCommandSVMMemcpyKHR");
  auto svmFill = extensionFunction<clCommandSVMMemFillKHR_fn>("clCommandSVMMemFillKHR");
  ASSERT_TRUE(svmCopy && svmFill);
  CommandBuffer commandBuffer = create();
  ASSERT_TRUE(commandBuffer);
  cl_int word = 0, other = 0;
  EXPECT_CL_ERR(CL_INVALID_COMMAND_BUFFER_KHR,
                svmCopy(nullptr, nullptr, nullptr, &word, &other, sizeof word, 0, nullptr, nullptr, nullptr));
  if (deviceInfo<cl_device_svm_capabilities>(device(), CL_DEVICE_SVM_CAPABILITIES) == 0) {
    EXPECT_CL_ERR(CL_INVALID_OPERATION,
                  svmCopy(commandBuffer, nullptr, nullptr, &word, &other, sizeof word, 0, nullptr, nullptr, nullptr));
    EXPECT_CL_ERR(CL_INVALID_OPERATION, svmFill(commandBuffer, nullptr, nullptr, &word, &word, sizeof word, sizeof word,
                                                0, nullptr, nullptr, nullptr));
    return;
  }
  constexpr size_t kWords = 256, kBytes = kWords * sizeof(cl_int);
  cl_int *a = static_cast<cl_int *>(clSVMAlloc(context_, CL_MEM_READ_WRITE, kBytes, 0));
  cl_int *b = static_cast<cl_int *>(clSVMAlloc(context_, CL_MEM_READ_WRITE, kBytes, 0));
  ASSERT_TRUE(a && b);
  std::vector<cl_int> values(kWords);
  std::iota(values.begin(), values.end(), -100);
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_TRUE, a, values.data(), kBytes, 0, nullptr, nullptr));
  // Fill b, then copy the first half of a into its middle.
  const cl_int pattern = 0x0badf00d;
  cl_sync_point_khr filled = 0;
  ASSERT_CL(
      svmFill(commandBuffer, nullptr, nullptr, b, &pattern, sizeof pattern, kBytes, 0, nullptr, &filled, nullptr));
  ASSERT_CL(svmCopy(commandBuffer, nullptr, nullptr, b + kWords / 4, a, kBytes / 2, 1, &filled, nullptr, nullptr));
  // Command buffers record device work only: no copy between host ranges.
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                svmCopy(commandBuffer, nullptr, nullptr, &word, &other, sizeof word, 0, nullptr, nullptr, nullptr));
  EXPECT_CL_ERR(CL_MEM_COPY_OVERLAP,
                svmCopy(commandBuffer, nullptr, nullptr, a + 1, a, 8 * sizeof(cl_int), 0, nullptr, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                svmFill(commandBuffer, nullptr, nullptr, b, &pattern, 3, 12, 0, nullptr, nullptr, nullptr));
  ASSERT_CL(api_.finalize(commandBuffer));
  std::vector<cl_int> expected(kWords, pattern);
  std::copy(values.begin(), values.begin() + kWords / 2, expected.begin() + kWords / 4);
  for (int round = 0; round < 2; ++round) {
    ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, nullptr));
    std::vector<cl_int> got(kWords);
    ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_TRUE, got.data(), b, kBytes, 0, nullptr, nullptr));
    EXPECT_EQ(expected, got) << "round " << round;
    // Wipe b: the next enqueue must fill and copy again.
    ASSERT_CL(clEnqueueSVMMemFill(queue_, b, &word, sizeof word, kBytes, 0, nullptr, nullptr));
  }
  ASSERT_CL(clFinish(queue_));
  clSVMFree(context_, a);
  clSVMFree(context_, b);
}

TEST_P(CommandBufferExecution, RecordOnceEnqueueManyTimes) {
  CommandBuffer commandBuffer = create();
  ASSERT_TRUE(commandBuffer);
  const cl_int factor = 3, addend = -17;
  recordPipeline(commandBuffer, factor, addend);
  // Argument values are taken when the command is recorded.
  ASSERT_CL(setArg(kernel_.get(), 1, cl_int{1000}));
  ASSERT_CL(api_.finalize(commandBuffer));
  for (int round = 0; round < 5; ++round) {
    auto values = sequence(kCount, round);
    write(input_, values);
    ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, nullptr));
    EXPECT_EQ(scaleAdd(values, factor, addend), read<cl_int>(output_, kCount)) << "round " << round;
  }
}

TEST_P(CommandBufferExecution, EnqueuesChainWithQueueCommands) {
  // Without host waits in between: each enqueue runs after the commands
  // before it on the in-order queue.
  CommandBuffer commandBuffer = create();
  ASSERT_TRUE(commandBuffer);
  cl_sync_point_khr scaled = 0;
  setArgs(kernel_.get(), work_.get(), cl_int{2}, cl_int{1});
  const size_t global = kCount;
  ASSERT_CL(api_.ndrange(commandBuffer, nullptr, nullptr, kernel_, 1, nullptr, &global, nullptr, 0, nullptr, &scaled,
                         nullptr));
  ASSERT_CL(api_.finalize(commandBuffer));
  auto values = sequence(kCount, 9);
  auto expected = values;
  ASSERT_CL(
      clEnqueueWriteBuffer(queue_, work_, CL_FALSE, 0, kCount * sizeof(cl_int), values.data(), 0, nullptr, nullptr));
  ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, nullptr));
  expected = scaleAdd(expected, 2, 1);
  const cl_int pattern = 5;
  // An in-order queue command between two enqueues of the command buffer.
  ASSERT_CL(clEnqueueFillBuffer(queue_, work_, &pattern, sizeof pattern, 0, 16 * sizeof(cl_int), 0, nullptr, nullptr));
  std::fill(expected.begin(), expected.begin() + 16, pattern);
  ASSERT_CL(clFinish(queue_));
  ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, nullptr));
  expected = scaleAdd(expected, 2, 1);
  EXPECT_EQ(expected, read<cl_int>(work_, kCount));
}

TEST_P(CommandBufferTest, FillCopyAndRect) {
  constexpr size_t kBytes = 4096;
  Mem a = buffer(CL_MEM_READ_WRITE, kBytes);
  Mem b = buffer(CL_MEM_READ_WRITE, kBytes);
  ASSERT_TRUE(a && b);
  std::vector<uint8_t> initial(kBytes);
  for (size_t i = 0; i < kBytes; ++i)
    initial[i] = static_cast<uint8_t>(i * 37 + 11);
  ASSERT_CL(clEnqueueWriteBuffer(queue_, b, CL_TRUE, 0, kBytes, initial.data(), 0, nullptr, nullptr));

  CommandBuffer commandBuffer = create();
  ASSERT_TRUE(commandBuffer);
  const uint32_t pattern = 0xA1B2C3D4;
  cl_sync_point_khr filled = 0, copied = 0, rect = 0;
  ASSERT_CL(
      api_.fill(commandBuffer, nullptr, nullptr, a, &pattern, sizeof pattern, 256, 1024, 0, nullptr, &filled, nullptr));
  // b[2048, 2560) = a[256, 768)
  ASSERT_CL(api_.copy(commandBuffer, nullptr, nullptr, a, b, 256, 2048, 512, 1, &filled, &copied, nullptr));
  // A 3-D rectangle from a (pitches 64, 512) to b (pitches 32, 256).
  const size_t srcOrigin[3] = {4, 1, 0}, dstOrigin[3] = {2, 0, 1}, region[3] = {20, 6, 2};
  ASSERT_CL(api_.copyRect(commandBuffer, nullptr, nullptr, a, b, srcOrigin, dstOrigin, region, 64, 512, 32, 256, 1,
                          &copied, &rect, nullptr));
  ASSERT_CL(api_.barrier(commandBuffer, nullptr, nullptr, 2, std::array{filled, rect}.data(), nullptr, nullptr));
  ASSERT_CL(api_.finalize(commandBuffer));

  // The reference, computed on the host from a's contents before the run.
  std::vector<uint8_t> aBytes(kBytes, 0x5A);
  ASSERT_CL(clEnqueueWriteBuffer(queue_, a, CL_TRUE, 0, kBytes, aBytes.data(), 0, nullptr, nullptr));
  for (size_t i = 256; i < 256 + 1024; i += 4)
    std::memcpy(&aBytes[i], &pattern, 4);
  std::vector<uint8_t> expected = initial;
  std::memcpy(&expected[2048], &aBytes[256], 512);
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      std::memcpy(&expected[(dstOrigin[2] + z) * 256 + (dstOrigin[1] + y) * 32 + dstOrigin[0]],
                  &aBytes[(srcOrigin[2] + z) * 512 + (srcOrigin[1] + y) * 64 + srcOrigin[0]], region[0]);

  for (int round = 0; round < 3; ++round) {
    Event done;
    ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, done.out()));
    ASSERT_CL(clWaitForEvents(1, done.ptr()));
    EXPECT_EQ(expected, read<uint8_t>(b, kBytes)) << "round " << round;
    EXPECT_EQ(aBytes, read<uint8_t>(a, kBytes)) << "round " << round;
    // Dirty b again: the next round must restore it.
    ASSERT_CL(clEnqueueWriteBuffer(queue_, b, CL_TRUE, 0, kBytes, initial.data(), 0, nullptr, nullptr));
  }
}

TEST_P(CommandBufferExecution, EventsAndWaitLists) {
  CommandBuffer commandBuffer = create();
  ASSERT_TRUE(commandBuffer);
  recordPipeline(commandBuffer, 5, 7);
  ASSERT_CL(api_.finalize(commandBuffer));
  const auto values = sequence(kCount, 3);

  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  // The write that fills the input waits for the user event; the command
  // buffer waits for the write's event.
  Event written, ran;
  ASSERT_CL(clEnqueueWriteBuffer(queue_, input_, CL_FALSE, 0, kCount * sizeof(cl_int), values.data(), 1, gate.ptr(),
                                 written.out()));
  ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 1, written.ptr(), ran.out()));
  ASSERT_CL(clFlush(queue_));
  EXPECT_EQ(cl_command_type(CL_COMMAND_COMMAND_BUFFER_KHR), eventInfo<cl_command_type>(ran, CL_EVENT_COMMAND_TYPE));
  EXPECT_EQ(queue_.get(), eventInfo<cl_command_queue>(ran, CL_EVENT_COMMAND_QUEUE));
  EXPECT_GT(eventStatus(ran), CL_COMPLETE);
  // Revision 0.9.8 has no Pending state: in flight, it is still executable.
  EXPECT_EQ(cl_command_buffer_state_khr(CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR), state(commandBuffer));
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, ran.ptr()));
  EXPECT_EQ(CL_COMPLETE, eventStatus(ran));
  EXPECT_EQ(scaleAdd(values, 5, 7), read<cl_int>(output_, kCount));
}

TEST_P(CommandBufferExecution, FailedWaitEventFailsTheEnqueue) {
  CommandBuffer commandBuffer = create();
  ASSERT_TRUE(commandBuffer);
  recordPipeline(commandBuffer, 1, 1);
  ASSERT_CL(api_.finalize(commandBuffer));
  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  Event ran;
  ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 1, gate.ptr(), ran.out()));
  ASSERT_CL(clSetUserEventStatus(gate, -1));
  EXPECT_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, ran.ptr()));
  EXPECT_EQ(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, eventStatus(ran));
  // The command buffer runs again after the failed enqueue.
  auto values = sequence(kCount, 4);
  write(input_, values);
  ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, nullptr));
  EXPECT_EQ(scaleAdd(values, 1, 1), read<cl_int>(output_, kCount));
}

TEST_P(CommandBufferExecution, StatesAndInvalidOperations) {
  CommandBuffer commandBuffer = create();
  ASSERT_TRUE(commandBuffer);
  EXPECT_EQ(cl_command_buffer_state_khr(CL_COMMAND_BUFFER_STATE_RECORDING_KHR), state(commandBuffer));
  // Not finalized yet.
  EXPECT_CL_ERR(CL_INVALID_OPERATION, api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, nullptr));
  recordPipeline(commandBuffer, 2, 3);
  ASSERT_CL(api_.finalize(commandBuffer));
  EXPECT_EQ(cl_command_buffer_state_khr(CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR), state(commandBuffer));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, api_.finalize(commandBuffer));
  const size_t bytes = kCount * sizeof(cl_int);
  EXPECT_CL_ERR(CL_INVALID_OPERATION,
                api_.copy(commandBuffer, nullptr, nullptr, input_, work_, 0, 0, bytes, 0, nullptr, nullptr, nullptr));
  const size_t global = kCount;
  EXPECT_CL_ERR(CL_INVALID_OPERATION, api_.ndrange(commandBuffer, nullptr, nullptr, kernel_, 1, nullptr, &global,
                                                   nullptr, 0, nullptr, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, api_.barrier(commandBuffer, nullptr, nullptr, 0, nullptr, nullptr, nullptr));
}

// Revision 0.9.8: a command buffer may be enqueued again while an earlier
// enqueue has not run yet. The one enqueued second, on another queue, runs
// first; both produce their results.
TEST_P(CommandBufferExecution, SimultaneousEnqueues) {
  CommandBuffer commandBuffer = create();
  ASSERT_TRUE(commandBuffer);
  recordPipeline(commandBuffer, 7, -2);
  ASSERT_CL(api_.finalize(commandBuffer));
  const auto values = sequence(kCount, 11);
  write(input_, values);
  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  Queue other = makeQueue(0);
  ASSERT_TRUE(other);
  Event gated, ran;
  ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 1, gate.ptr(), gated.out()));
  ASSERT_CL(clFlush(queue_));
  cl_command_queue queues[] = {other.get()};
  ASSERT_CL(api_.enqueue(1, queues, commandBuffer, 0, nullptr, ran.out()));
  ASSERT_CL(clWaitForEvents(1, ran.ptr()));
  EXPECT_GT(eventStatus(gated), CL_COMPLETE);
  // queue_ is blocked behind the gate: read through the other queue.
  std::vector<cl_int> early(kCount);
  ASSERT_CL(
      clEnqueueReadBuffer(other, output_, CL_TRUE, 0, kCount * sizeof(cl_int), early.data(), 0, nullptr, nullptr));
  EXPECT_EQ(scaleAdd(values, 7, -2), early);
  // The first enqueue's output is wiped, then recomputed when it runs.
  const cl_int wipe = 0x5a5a5a5a;
  ASSERT_CL(clEnqueueFillBuffer(other, output_, &wipe, sizeof wipe, 0, kCount * sizeof(cl_int), 0, nullptr, nullptr));
  ASSERT_CL(clFinish(other));
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, gated.ptr()));
  EXPECT_EQ(CL_COMPLETE, eventStatus(gated));
  EXPECT_EQ(scaleAdd(values, 7, -2), read<cl_int>(output_, kCount));
  // Many enqueues in flight at once, each its own copy of the commands;
  // then the copies left over are reused (and the surplus freed).
  for (int burst = 0; burst < 2; ++burst) {
    const auto more = sequence(kCount, 20 + burst);
    write(input_, more);
    for (int round = 0; round < 6; ++round)
      ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queue_));
    EXPECT_EQ(scaleAdd(more, 7, -2), read<cl_int>(output_, kCount)) << "burst " << burst;
  }
}

TEST_P(CommandBufferExecution, ReleaseWhilePending) {
  CommandBuffer commandBuffer = create();
  ASSERT_TRUE(commandBuffer);
  recordPipeline(commandBuffer, -4, 9);
  ASSERT_CL(api_.finalize(commandBuffer));
  auto values = sequence(kCount, 8);
  write(input_, values);
  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  Event ran;
  ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 1, gate.ptr(), ran.out()));
  ASSERT_CL(api_.release(commandBuffer.release()));
  // The kernel and buffers the commands use may go too.
  kernel_.reset();
  program_.reset();
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clWaitForEvents(1, ran.ptr()));
  EXPECT_EQ(scaleAdd(values, -4, 9), read<cl_int>(output_, kCount));
}

TEST_P(CommandBufferExecution, OutOfOrderAndProfilingQueues) {
  if (!(deviceInfo<cl_command_queue_properties>(device(), CL_DEVICE_QUEUE_ON_HOST_PROPERTIES) &
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
    GTEST_SKIP() << "no out-of-order queues";
  Queue queue = makeQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  ASSERT_TRUE(queue);
  CommandBuffer commandBuffer = create(nullptr, queue);
  ASSERT_TRUE(commandBuffer);
  // Sync points order the three commands even on an out-of-order queue.
  recordPipeline(commandBuffer, 6, -1);
  ASSERT_CL(api_.finalize(commandBuffer));
  auto values = sequence(kCount, 5);
  write(input_, values);
  Event ran;
  ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, ran.out()));
  ASSERT_CL(clWaitForEvents(1, ran.ptr()));
  EXPECT_EQ(scaleAdd(values, 6, -1), read<cl_int>(output_, kCount));
  cl_ulong queued = 0, submit = 0, start = 0, end = 0;
  ASSERT_CL(clGetEventProfilingInfo(ran, CL_PROFILING_COMMAND_QUEUED, sizeof queued, &queued, nullptr));
  ASSERT_CL(clGetEventProfilingInfo(ran, CL_PROFILING_COMMAND_SUBMIT, sizeof submit, &submit, nullptr));
  ASSERT_CL(clGetEventProfilingInfo(ran, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr));
  ASSERT_CL(clGetEventProfilingInfo(ran, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr));
  EXPECT_LE(queued, submit);
  EXPECT_LE(submit, start);
  EXPECT_LE(start, end);
  EXPECT_GT(end, 0u);
}

TEST_P(CommandBufferExecution, SubstituteQueueOfTheSameDevice) {
  CommandBuffer commandBuffer = create();
  ASSERT_TRUE(commandBuffer);
  recordPipeline(commandBuffer, 7, 0);
  ASSERT_CL(api_.finalize(commandBuffer));
  Queue other = makeQueue(0);
  ASSERT_TRUE(other);
  auto values = sequence(kCount, 6);
  write(input_, values);
  cl_command_queue queues[] = {other.get()};
  ASSERT_CL(api_.enqueue(1, queues, commandBuffer, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(other));
  EXPECT_EQ(scaleAdd(values, 7, 0), read<cl_int>(output_, kCount));
  // Since revision 0.9.8 a queue with other (supported) properties can
  // stand in too: profiling, and out-of-order where the device has it.
  std::vector<cl_command_queue_properties> others = {CL_QUEUE_PROFILING_ENABLE};
  if (deviceInfo<cl_command_queue_properties>(device(), CL_DEVICE_QUEUE_ON_HOST_PROPERTIES) &
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
    others.push_back(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  for (cl_command_queue_properties properties : others) {
    Queue substitute = makeQueue(properties);
    ASSERT_TRUE(substitute);
    values = sequence(kCount, static_cast<cl_int>(properties));
    write(input_, values);
    queues[0] = substitute.get();
    Event ran;
    ASSERT_CL(api_.enqueue(1, queues, commandBuffer, 0, nullptr, ran.out()));
    ASSERT_CL(clWaitForEvents(1, ran.ptr()));
    EXPECT_EQ(scaleAdd(values, 7, 0), read<cl_int>(output_, kCount)) << "queue properties " << properties;
    if (properties == CL_QUEUE_PROFILING_ENABLE) {
      cl_ulong start = 0, end = 0;
      ASSERT_CL(clGetEventProfilingInfo(ran, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr));
      ASSERT_CL(clGetEventProfilingInfo(ran, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr));
      EXPECT_LE(start, end);
    }
  }
  // Neither can something that is not a queue.
  queues[0] = reinterpret_cast<cl_command_queue>(input_.get());
  EXPECT_CL_ERR(CL_INVALID_COMMAND_QUEUE, api_.enqueue(1, queues, commandBuffer, 0, nullptr, nullptr));
}

TEST_P(CommandBufferExecution, InfoQueries) {
  CommandBuffer plain = create();
  ASSERT_TRUE(plain);
  cl_command_queue queue = nullptr;
  ASSERT_CL(api_.info(plain, CL_COMMAND_BUFFER_QUEUES_KHR, sizeof queue, &queue, nullptr));
  EXPECT_EQ(queue_.get(), queue);
  cl_context context = nullptr;
  ASSERT_CL(api_.info(plain, 0x1299 /* CL_COMMAND_BUFFER_CONTEXT_KHR, 0.9.2 */, sizeof context, &context, nullptr));
  EXPECT_EQ(context_.get(), context);
  cl_uint count = 0;
  ASSERT_CL(api_.info(plain, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, sizeof count, &count, nullptr));
  EXPECT_EQ(1u, count);
  ASSERT_CL(api_.retain(plain));
  ASSERT_CL(api_.info(plain, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR, sizeof count, &count, nullptr));
  EXPECT_EQ(2u, count);
  ASSERT_CL(api_.release(plain));
  size_t size = 99;
  ASSERT_CL(api_.info(plain, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, 0, nullptr, &size));
  EXPECT_EQ(0u, size);
  EXPECT_CL_ERR(CL_INVALID_VALUE, api_.info(plain, 0x7fff, sizeof count, &count, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, api_.info(plain, CL_COMMAND_BUFFER_NUM_QUEUES_KHR, 1, &count, nullptr));

  const cl_command_buffer_properties_khr properties[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0};
  CommandBuffer withProperties = create(properties);
  ASSERT_TRUE(withProperties);
  std::array<cl_command_buffer_properties_khr, 3> array{};
  ASSERT_CL(api_.info(withProperties, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, sizeof array, array.data(), &size));
  EXPECT_EQ(sizeof array, size);
  EXPECT_EQ(CL_COMMAND_BUFFER_FLAGS_KHR, array[0]);
  EXPECT_EQ(0u, array[1]);
  EXPECT_EQ(0u, array[2]);
}

TEST_P(CommandBufferExecution, ErrorsForBadInput) {
  cl_int err = CL_SUCCESS;
  cl_command_queue queues[] = {queue_.get(), queue_.get()};
  EXPECT_EQ(nullptr, api_.create(0, queues, nullptr, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  EXPECT_EQ(nullptr, api_.create(2, queues, nullptr, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  EXPECT_EQ(nullptr, api_.create(1, nullptr, nullptr, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  cl_command_queue bogusQueue[] = {reinterpret_cast<cl_command_queue>(input_.get())};
  EXPECT_EQ(nullptr, api_.create(1, bogusQueue, nullptr, &err));
  EXPECT_CL_ERR(CL_INVALID_COMMAND_QUEUE, err);
  const cl_command_buffer_properties_khr unknown[] = {0x7777, 0, 0};
  EXPECT_EQ(nullptr, api_.create(1, queues, unknown, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  const cl_command_buffer_properties_khr twice[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 0, CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0};
  EXPECT_EQ(nullptr, api_.create(1, queues, twice, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  const cl_command_buffer_properties_khr simultaneous[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                                           CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0};
  // Simultaneous use, a flag of mutable dispatch 0.9.5, is every enqueue's.
  CommandBuffer simultaneousUse = create(simultaneous);
  EXPECT_TRUE(simultaneousUse);
  const cl_command_buffer_properties_khr unknownFlag[] = {CL_COMMAND_BUFFER_FLAGS_KHR, 1 << 5, 0};
  EXPECT_EQ(nullptr, api_.create(1, queues, unknownFlag, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);

  auto bogus = reinterpret_cast<cl_command_buffer_khr>(input_.get());
  EXPECT_CL_ERR(CL_INVALID_COMMAND_BUFFER_KHR, api_.finalize(nullptr));
  EXPECT_CL_ERR(CL_INVALID_COMMAND_BUFFER_KHR, api_.finalize(bogus));
  EXPECT_CL_ERR(CL_INVALID_COMMAND_BUFFER_KHR, api_.retain(bogus));
  EXPECT_CL_ERR(CL_INVALID_COMMAND_BUFFER_KHR, api_.release(nullptr));
  EXPECT_CL_ERR(CL_INVALID_COMMAND_BUFFER_KHR, api_.enqueue(0, nullptr, bogus, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_COMMAND_BUFFER_KHR, api_.info(bogus, CL_COMMAND_BUFFER_STATE_KHR, 0, nullptr, nullptr));
  const size_t bytes = kCount * sizeof(cl_int);
  EXPECT_CL_ERR(CL_INVALID_COMMAND_BUFFER_KHR,
                api_.copy(bogus, nullptr, nullptr, input_, work_, 0, 0, bytes, 0, nullptr, nullptr, nullptr));

  CommandBuffer commandBuffer = create();
  ASSERT_TRUE(commandBuffer);
  cl_sync_point_khr first = 0;
  ASSERT_CL(api_.copy(commandBuffer, nullptr, nullptr, input_, work_, 0, 0, bytes, 0, nullptr, &first, nullptr));
  // Sync-point wait lists: a count without a list, a list without a count,
  // and sync points no command returned.
  EXPECT_CL_ERR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                api_.copy(commandBuffer, nullptr, nullptr, input_, work_, 0, 0, bytes, 1, nullptr, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                api_.copy(commandBuffer, nullptr, nullptr, input_, work_, 0, 0, bytes, 0, &first, nullptr, nullptr));
  const cl_sync_point_khr zero = 0, future = first + 5;
  EXPECT_CL_ERR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                api_.barrier(commandBuffer, nullptr, nullptr, 1, &zero, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                api_.barrier(commandBuffer, nullptr, nullptr, 1, &future, nullptr, nullptr));
  // The command queue must be NULL (no cl_khr_command_buffer_multi_device).
  EXPECT_CL_ERR(CL_INVALID_COMMAND_QUEUE,
                api_.copy(commandBuffer, queue_, nullptr, input_, work_, 0, 0, bytes, 0, nullptr, nullptr, nullptr));
  // Only kernel commands have properties (none yet for the others).
  const cl_command_properties_khr copyProperties[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, 0, 0};
  EXPECT_CL_ERR(CL_INVALID_VALUE, api_.copy(commandBuffer, nullptr, copyProperties, input_, work_, 0, 0, bytes, 0,
                                            nullptr, nullptr, nullptr));
  // Only kernel commands can be mutable.
  cl_mutable_command_khr handle = nullptr;
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                api_.copy(commandBuffer, nullptr, nullptr, input_, work_, 0, 0, bytes, 0, nullptr, nullptr, &handle));
  // clEnqueue*'s own checks.
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                api_.copy(commandBuffer, nullptr, nullptr, input_, work_, 4, 0, bytes, 0, nullptr, nullptr, nullptr));
  EXPECT_CL_ERR(CL_MEM_COPY_OVERLAP,
                api_.copy(commandBuffer, nullptr, nullptr, input_, input_, 0, 16, 64, 0, nullptr, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT,
                api_.copy(commandBuffer, nullptr, nullptr, nullptr, work_, 0, 0, 64, 0, nullptr, nullptr, nullptr));
  const cl_int pattern = 1;
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                api_.fill(commandBuffer, nullptr, nullptr, work_, &pattern, 3, 0, 12, 0, nullptr, nullptr, nullptr));
  const size_t origin[3] = {0, 0, 0}, tooBig[3] = {bytes, 2, 1};
  EXPECT_CL_ERR(CL_INVALID_VALUE, api_.copyRect(commandBuffer, nullptr, nullptr, input_, work_, origin, origin, tooBig,
                                                0, 0, 0, 0, 0, nullptr, nullptr, nullptr));
  Kernel unset = kernel(program_, "scale_add");
  const size_t global = kCount;
  EXPECT_CL_ERR(CL_INVALID_KERNEL_ARGS, api_.ndrange(commandBuffer, nullptr, nullptr, unset, 1, nullptr, &global,
                                                     nullptr, 0, nullptr, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_WORK_DIMENSION, api_.ndrange(commandBuffer, nullptr, nullptr, unset, 4, nullptr, &global,
                                                        nullptr, 0, nullptr, nullptr, nullptr));
  const cl_command_properties_khr badProperties[] = {0x7777, 0, 0};
  setArgs(kernel_.get(), work_.get(), cl_int{1}, cl_int{1});
  EXPECT_CL_ERR(CL_INVALID_VALUE, api_.ndrange(commandBuffer, nullptr, badProperties, kernel_, 1, nullptr, &global,
                                               nullptr, 0, nullptr, nullptr, nullptr));
  // A buffer of another context.
  Context other(clCreateContext(nullptr, 1, std::array{device()}.data(), nullptr, nullptr, &err));
  ASSERT_CL(err);
  Mem foreign(clCreateBuffer(other, CL_MEM_READ_WRITE, 64, nullptr, &err));
  ASSERT_CL(err);
  EXPECT_CL_ERR(CL_INVALID_CONTEXT,
                api_.copy(commandBuffer, nullptr, nullptr, foreign, work_, 0, 0, 64, 0, nullptr, nullptr, nullptr));
  // Failed recordings left no command behind: the next sync point follows
  // the first.
  // An empty property list is no property.
  cl_sync_point_khr second = 0;
  const cl_command_properties_khr noProperties[] = {0};
  ASSERT_CL(api_.barrier(commandBuffer, nullptr, noProperties, 1, &first, &second, nullptr));
  EXPECT_EQ(first + 1, second);
  ASSERT_CL(api_.finalize(commandBuffer));
  EXPECT_CL_ERR(CL_INVALID_VALUE, api_.enqueue(1, nullptr, commandBuffer, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, api_.enqueue(0, queues, commandBuffer, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_EVENT_WAIT_LIST, api_.enqueue(0, nullptr, commandBuffer, 1, nullptr, nullptr));
}

TEST_P(CommandBufferExecution, FaultingKernelFailsTheEnqueue) {
  // A kernel that faults, then a copy that succeeds: the enqueue's event
  // fails with the kernel's failure, and the command buffer and the queue
  // stay usable.
  Kernel bad = kernel(program_, "bad_pointer");
  ASSERT_TRUE(bad);
  setArgs(bad.get(), work_.get(), cl_ulong{0x10}, cl_uint{16});
  CommandBuffer commandBuffer = create();
  ASSERT_TRUE(commandBuffer);
  const size_t global = 64, bytes = kCount * sizeof(cl_int);
  cl_sync_point_khr faulted = 0;
  ASSERT_CL(
      api_.ndrange(commandBuffer, nullptr, nullptr, bad, 1, nullptr, &global, nullptr, 0, nullptr, &faulted, nullptr));
  ASSERT_CL(api_.copy(commandBuffer, nullptr, nullptr, input_, output_, 0, 0, bytes, 1, &faulted, nullptr, nullptr));
  ASSERT_CL(api_.finalize(commandBuffer));
  for (int round = 0; round < 2; ++round) {
    Event ran;
    ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, ran.out()));
    EXPECT_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, ran.ptr()));
    EXPECT_EQ(CL_OUT_OF_RESOURCES, eventStatus(ran)) << "round " << round;
    ASSERT_CL(clFinish(queue_));
    EXPECT_EQ(cl_command_buffer_state_khr(CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR), state(commandBuffer));
  }
  // The queue runs the next command buffer normally.
  CommandBuffer good = create();
  ASSERT_TRUE(good);
  recordPipeline(good, 3, 3);
  ASSERT_CL(api_.finalize(good));
  auto values = sequence(kCount, 2);
  write(input_, values);
  ASSERT_CL(api_.enqueue(0, nullptr, good, 0, nullptr, nullptr));
  EXPECT_EQ(scaleAdd(values, 3, 3), read<cl_int>(output_, kCount));
}

TEST_P(CommandBufferExecution, ManyCommandsInOneBuffer) {
  // More commands than a queue batches at once, each depending on the last.
  CommandBuffer commandBuffer = create();
  ASSERT_TRUE(commandBuffer);
  setArgs(kernel_.get(), work_.get(), cl_int{1}, cl_int{1});
  const size_t global = kCount;
  cl_sync_point_khr last = 0;
  constexpr int kLaunches = 300;
  for (int i = 0; i < kLaunches; ++i)
    ASSERT_CL(api_.ndrange(commandBuffer, nullptr, nullptr, kernel_, 1, nullptr, &global, nullptr, last ? 1 : 0,
                           last ? &last : nullptr, &last, nullptr));
  ASSERT_CL(api_.finalize(commandBuffer));
  auto values = sequence(kCount, 1);
  write(work_, values);
  for (int round = 0; round < 2; ++round) {
    ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queue_));
  }
  for (auto &value : values)
    value += 2 * kLaunches;
  EXPECT_EQ(values, read<cl_int>(work_, kCount));
}

TEST_P(CommandBufferTest, KernelPrintfEveryEnqueue) {
  // Reported as CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR: a recorded
  // kernel prints on every enqueue, with its record-time arguments.
  EXPECT_TRUE(
      deviceInfo<cl_device_command_buffer_capabilities_khr>(device(), CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR) &
      CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR);
  Program program = build("kernel void hello(int tag) { printf(\"tag %d item %d\\n\", tag, (int)get_global_id(0)); }");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "hello");
  ASSERT_TRUE(k);
  ASSERT_CL(setArg(k.get(), 0, cl_int{42}));
  CommandBuffer commandBuffer = create();
  ASSERT_TRUE(commandBuffer);
  const size_t global = 4;
  ASSERT_CL(
      api_.ndrange(commandBuffer, nullptr, nullptr, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr, nullptr));
  ASSERT_CL(api_.finalize(commandBuffer));
  ASSERT_CL(setArg(k.get(), 0, cl_int{7}));
  for (int round = 0; round < 3; ++round) {
    StdoutCapture capture;
    ASSERT_TRUE(capture.begin());
    cl_int enqueued = api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, nullptr);
    cl_int finished = clFinish(queue_);
    std::string text = capture.end();
    ASSERT_CL(enqueued);
    ASSERT_CL(finished);
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      lines.push_back(line);
    std::sort(lines.begin(), lines.end());
    EXPECT_EQ((std::vector<std::string>{"tag 42 item 0", "tag 42 item 1", "tag 42 item 2", "tag 42 item 3"}), lines)
        << "round " << round;
  }
}

CLTEST_INSTANTIATE(CommandBufferTest);
CLTEST_INSTANTIATE(CommandBufferExecution);
