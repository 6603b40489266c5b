// cl_khr_command_buffer_mutable_dispatch: kernel launches recorded into a
// command buffer changed between enqueues (arguments, global offset and
// size, local size), on every device, checked against host references.
#include "command_buffer_api.h"
#include "test_kernels.h"

#include <array>
#include <cstring>

using namespace cltest;

namespace {

constexpr size_t kCount = 256;

class MutableDispatchTest : public CommandBufferTest {
protected:
  void SetUp() override {
    CommandBufferTest::SetUp();
    if (HasFatalFailure())
      return;
    ASSERT_TRUE(deviceHasExtension(device(), "cl_khr_command_buffer_mutable_dispatch"));
    ASSERT_TRUE(api_.update && api_.mutableInfo);
    program_ = build(kernels::command_buffer);
    ASSERT_TRUE(program_);
    scaleAdd_ = kernel(program_, "scale_add");
    ids_ = kernel(program_, "ids");
    ASSERT_TRUE(scaleAdd_ && ids_);
  }

  CommandBuffer createMutable() {
    const cl_command_buffer_properties_khr properties[] = {CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_MUTABLE_KHR,
                                                           0};
    return create(properties);
  }

  cl_int update(cl_command_buffer_khr commandBuffer, const cl_mutable_dispatch_config_khr &dispatch) {
    const cl_command_buffer_update_type_khr types[] = {CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR};
    const void *configs[] = {&dispatch};
    return api_.update(commandBuffer, 1, types, configs);
  }

  static cl_mutable_dispatch_config_khr dispatchConfig(cl_mutable_command_khr command) {
    cl_mutable_dispatch_config_khr config{};
    config.command = command;
    return config;
  }

  static std::vector<cl_int> scaleAdd(const std::vector<cl_int> &in, cl_int factor, cl_int addend) {
    std::vector<cl_int> out(in.size());
    for (size_t i = 0; i < in.size(); ++i)
      out[i] = in[i] * factor + addend;
    return out;
  }

  void fillWith(cl_mem mem, const std::vector<cl_int> &values) {
    ASSERT_CL(clEnqueueWriteBuffer(queue_, mem, CL_TRUE, 0, values.size() * sizeof(cl_int), values.data(), 0, nullptr,
                                   nullptr));
  }

  void run(cl_command_buffer_khr commandBuffer) {
    ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queue_));
  }

  /// The `ids` kernel's output for work-item i in a launch of local size
  /// `local` starting at `offset` (group ids do not include the offset).
  static cl_int idValue(size_t i, size_t local, size_t offset) {
    return static_cast<cl_int>(i * 1000 + local * 10 + (i - offset) / local % 10);
  }

  Program program_;
  Kernel scaleAdd_, ids_;
};

std::vector<cl_int> ramp(size_t count, cl_int start) {
  std::vector<cl_int> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = start + static_cast<cl_int>(i) * 3;
  return values;
}

} // namespace

TEST_P(MutableDispatchTest, DeviceQueries) {
  bool found = false;
  for (const cl_name_version &extension : deviceArray<cl_name_version>(device(), CL_DEVICE_EXTENSIONS_WITH_VERSION))
    if (std::strcmp(extension.name, "cl_khr_command_buffer_mutable_dispatch") == 0) {
      found = true;
      EXPECT_EQ(CL_MAKE_VERSION(0, 9, 5), extension.version);
    }
  EXPECT_TRUE(found);
  // Exec info (whose parameters are all SVM's) only with SVM.
  const bool svm = deviceInfo<cl_device_svm_capabilities>(device(), CL_DEVICE_SVM_CAPABILITIES) != 0;
  EXPECT_EQ(cl_mutable_dispatch_fields_khr(CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR | CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR |
                                           CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR | CL_MUTABLE_DISPATCH_ARGUMENTS_KHR |
                                           (svm ? CL_MUTABLE_DISPATCH_EXEC_INFO_KHR : 0)),
            deviceInfo<cl_mutable_dispatch_fields_khr>(device(), CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR));
}

TEST_P(MutableDispatchTest, UpdateArguments) {
  Mem first = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
  Mem second = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
  ASSERT_TRUE(first && second);
  CommandBuffer commandBuffer = createMutable();
  ASSERT_TRUE(commandBuffer);
  setArgs(scaleAdd_.get(), first.get(), cl_int{2}, cl_int{3});
  const size_t global = kCount;
  cl_mutable_command_khr command = nullptr;
  ASSERT_CL(api_.ndrange(commandBuffer, nullptr, nullptr, scaleAdd_, 1, nullptr, &global, nullptr, 0, nullptr, nullptr,
                         &command));
  ASSERT_NE(nullptr, command);
  ASSERT_CL(api_.finalize(commandBuffer));

  const auto a = ramp(kCount, -100), b = ramp(kCount, 7);
  fillWith(first, a);
  fillWith(second, b);
  run(commandBuffer);
  std::vector<cl_int> expectedA(kCount), expectedB = b;
  for (size_t i = 0; i < kCount; ++i)
    expectedA[i] = a[i] * 2 + 3;
  EXPECT_EQ(expectedA, read<cl_int>(first, kCount));

  // Point the launch at the second buffer with a new factor; the addend
  // keeps its recorded value even though the kernel's own changed since.
  ASSERT_CL(setArg(scaleAdd_.get(), 2, cl_int{1000}));
  const cl_mem secondHandle = second.get();
  const cl_int factor = -5;
  const cl_mutable_dispatch_arg_khr args[] = {{0, sizeof(cl_mem), &secondHandle}, {1, sizeof(cl_int), &factor}};
  auto config = dispatchConfig(command);
  config.num_args = 2;
  config.arg_list = args;
  ASSERT_CL(update(commandBuffer, config));
  run(commandBuffer);
  for (size_t i = 0; i < kCount; ++i)
    expectedB[i] = b[i] * -5 + 3;
  EXPECT_EQ(expectedA, read<cl_int>(first, kCount));
  EXPECT_EQ(expectedB, read<cl_int>(second, kCount));

  // Updates accumulate: a second update of only the addend keeps the rest.
  const cl_int addend = 11;
  const cl_mutable_dispatch_arg_khr addendArg[] = {{2, sizeof(cl_int), &addend}};
  config.num_args = 1;
  config.arg_list = addendArg;
  ASSERT_CL(update(commandBuffer, config));
  run(commandBuffer);
  for (auto &value : expectedB)
    value = value * -5 + 11;
  EXPECT_EQ(expectedB, read<cl_int>(second, kCount));
  EXPECT_EQ(expectedA, read<cl_int>(first, kCount));
}

TEST_P(MutableDispatchTest, UpdateGlobalOffsetSizeAndLocalSize) {
  Mem out = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
  ASSERT_TRUE(out);
  setArgs(ids_.get(), out.get());
  CommandBuffer commandBuffer = createMutable();
  ASSERT_TRUE(commandBuffer);
  const size_t offset = 0, global = 64, local = 8;
  cl_mutable_command_khr command = nullptr;
  ASSERT_CL(
      api_.ndrange(commandBuffer, nullptr, nullptr, ids_, 1, &offset, &global, &local, 0, nullptr, nullptr, &command));
  ASSERT_CL(api_.finalize(commandBuffer));
  const std::vector<cl_int> untouched(kCount, -1);
  fillWith(out, untouched);
  run(commandBuffer);
  auto expected = untouched;
  for (size_t i = 0; i < 64; ++i)
    expected[i] = idValue(i, 8, 0);
  EXPECT_EQ(expected, read<cl_int>(out, kCount));

  const size_t newOffset = 64, newGlobal = 128, newLocal = 16;
  auto config = dispatchConfig(command);
  config.work_dim = 1;
  config.global_work_offset = &newOffset;
  config.global_work_size = &newGlobal;
  config.local_work_size = &newLocal;
  ASSERT_CL(update(commandBuffer, config));
  fillWith(out, untouched);
  run(commandBuffer);
  expected = untouched;
  for (size_t i = 64; i < 192; ++i)
    expected[i] = idValue(i, 16, 64);
  EXPECT_EQ(expected, read<cl_int>(out, kCount));

  size_t value[3] = {};
  ASSERT_CL(api_.mutableInfo(command, CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR, sizeof(size_t), value, nullptr));
  EXPECT_EQ(newOffset, value[0]);
  ASSERT_CL(api_.mutableInfo(command, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR, sizeof(size_t), value, nullptr));
  EXPECT_EQ(newGlobal, value[0]);
  ASSERT_CL(api_.mutableInfo(command, CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR, sizeof(size_t), value, nullptr));
  EXPECT_EQ(newLocal, value[0]);
}

TEST_P(MutableDispatchTest, OnlyTheUpdatedCommandChanges) {
  // copy → mutable kernel → copy, each in order; the copies stay.
  Mem in = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
  Mem work = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
  Mem out = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
  ASSERT_TRUE(in && work && out);
  CommandBuffer commandBuffer = createMutable();
  ASSERT_TRUE(commandBuffer);
  const size_t bytes = kCount * sizeof(cl_int), global = kCount;
  setArgs(scaleAdd_.get(), work.get(), cl_int{3}, cl_int{0});
  cl_sync_point_khr copied = 0, scaled = 0;
  cl_mutable_command_khr command = nullptr;
  ASSERT_CL(api_.copy(commandBuffer, nullptr, nullptr, in, work, 0, 0, bytes, 0, nullptr, &copied, nullptr));
  ASSERT_CL(api_.ndrange(commandBuffer, nullptr, nullptr, scaleAdd_, 1, nullptr, &global, nullptr, 1, &copied, &scaled,
                         &command));
  ASSERT_CL(api_.copy(commandBuffer, nullptr, nullptr, work, out, 0, 0, bytes, 1, &scaled, nullptr, nullptr));
  ASSERT_CL(api_.finalize(commandBuffer));
  const auto values = ramp(kCount, 40);
  fillWith(in, values);
  for (cl_int factor : {3, 7, -2}) {
    if (factor != 3) {
      auto config = dispatchConfig(command);
      const cl_mutable_dispatch_arg_khr arg{1, sizeof(cl_int), &factor};
      config.num_args = 1;
      config.arg_list = &arg;
      ASSERT_CL(update(commandBuffer, config));
    }
    run(commandBuffer);
    std::vector<cl_int> expected(kCount);
    for (size_t i = 0; i < kCount; ++i)
      expected[i] = values[i] * factor;
    EXPECT_EQ(expected, read<cl_int>(out, kCount)) << "factor " << factor;
  }
}

TEST_P(MutableDispatchTest, InfoQueries) {
  Mem out = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
  ASSERT_TRUE(out);
  setArgs(ids_.get(), out.get());
  CommandBuffer commandBuffer = createMutable();
  ASSERT_TRUE(commandBuffer);
  const cl_command_properties_khr properties[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                                  CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, 0};
  const size_t offset[2] = {1, 2}, global[2] = {8, 4}, local[2] = {4, 2};
  cl_mutable_command_khr command = nullptr;
  ASSERT_CL(
      api_.ndrange(commandBuffer, nullptr, properties, ids_, 2, offset, global, local, 0, nullptr, nullptr, &command));
  cl_command_queue queue = nullptr;
  ASSERT_CL(api_.mutableInfo(command, CL_MUTABLE_COMMAND_COMMAND_QUEUE_KHR, sizeof queue, &queue, nullptr));
  EXPECT_EQ(queue_.get(), queue);
  cl_command_buffer_khr owner = nullptr;
  ASSERT_CL(api_.mutableInfo(command, CL_MUTABLE_COMMAND_COMMAND_BUFFER_KHR, sizeof owner, &owner, nullptr));
  EXPECT_EQ(commandBuffer.get(), owner);
  cl_command_type type = 0;
  ASSERT_CL(api_.mutableInfo(command, CL_MUTABLE_COMMAND_COMMAND_TYPE_KHR, sizeof type, &type, nullptr));
  EXPECT_EQ(cl_command_type(CL_COMMAND_NDRANGE_KERNEL), type);
  cl_kernel kernelHandle = nullptr;
  ASSERT_CL(api_.mutableInfo(command, CL_MUTABLE_DISPATCH_KERNEL_KHR, sizeof kernelHandle, &kernelHandle, nullptr));
  EXPECT_EQ(ids_.get(), kernelHandle);
  cl_uint dims = 0;
  ASSERT_CL(api_.mutableInfo(command, CL_MUTABLE_DISPATCH_DIMENSIONS_KHR, sizeof dims, &dims, nullptr));
  EXPECT_EQ(2u, dims);
  std::array<size_t, 2> sizes{};
  size_t size = 0;
  ASSERT_CL(api_.mutableInfo(command, CL_MUTABLE_DISPATCH_GLOBAL_WORK_SIZE_KHR, sizeof sizes, sizes.data(), &size));
  EXPECT_EQ(sizeof sizes, size);
  EXPECT_EQ((std::array<size_t, 2>{8, 4}), sizes);
  ASSERT_CL(api_.mutableInfo(command, CL_MUTABLE_DISPATCH_GLOBAL_WORK_OFFSET_KHR, sizeof sizes, sizes.data(), nullptr));
  EXPECT_EQ((std::array<size_t, 2>{1, 2}), sizes);
  ASSERT_CL(api_.mutableInfo(command, CL_MUTABLE_DISPATCH_LOCAL_WORK_SIZE_KHR, sizeof sizes, sizes.data(), nullptr));
  EXPECT_EQ((std::array<size_t, 2>{4, 2}), sizes);
  std::array<cl_command_properties_khr, 3> array{};
  ASSERT_CL(api_.mutableInfo(command, CL_MUTABLE_COMMAND_PROPERTIES_ARRAY_KHR, sizeof array, array.data(), &size));
  EXPECT_EQ(sizeof array, size);
  EXPECT_EQ(CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, array[0]);
  EXPECT_EQ(cl_command_properties_khr(CL_MUTABLE_DISPATCH_ARGUMENTS_KHR), array[1]);
  EXPECT_CL_ERR(CL_INVALID_VALUE, api_.mutableInfo(command, 0x7fff, sizeof dims, &dims, nullptr));
  EXPECT_CL_ERR(CL_INVALID_MUTABLE_COMMAND_KHR,
                api_.mutableInfo(reinterpret_cast<cl_mutable_command_khr>(out.get()),
                                 CL_MUTABLE_DISPATCH_DIMENSIONS_KHR, sizeof dims, &dims, nullptr));
}

TEST_P(MutableDispatchTest, ErrorsLeaveTheCommandUnchanged) {
  Mem data = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
  ASSERT_TRUE(data);
  setArgs(scaleAdd_.get(), data.get(), cl_int{4}, cl_int{1});
  const cl_command_properties_khr onlyArguments[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                                     CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, 0};
  const size_t global = kCount;
  cl_mutable_command_khr command = nullptr;

  // Not mutable: a handle is returned, but updates are refused.
  CommandBuffer plain = create();
  ASSERT_TRUE(plain);
  ASSERT_CL(
      api_.ndrange(plain, nullptr, nullptr, scaleAdd_, 1, nullptr, &global, nullptr, 0, nullptr, nullptr, &command));
  ASSERT_CL(api_.finalize(plain));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, update(plain, dispatchConfig(command)));

  CommandBuffer commandBuffer = createMutable();
  ASSERT_TRUE(commandBuffer);
  ASSERT_CL(api_.ndrange(commandBuffer, nullptr, onlyArguments, scaleAdd_, 1, nullptr, &global, nullptr, 0, nullptr,
                         nullptr, &command));
  // Not finalized yet.
  EXPECT_CL_ERR(CL_INVALID_OPERATION, update(commandBuffer, dispatchConfig(command)));
  ASSERT_CL(api_.finalize(commandBuffer));
  // A command of another command buffer, and no command at all.
  cl_mutable_command_khr foreign = nullptr;
  CommandBuffer other = createMutable();
  ASSERT_CL(
      api_.ndrange(other, nullptr, nullptr, scaleAdd_, 1, nullptr, &global, nullptr, 0, nullptr, nullptr, &foreign));
  EXPECT_CL_ERR(CL_INVALID_MUTABLE_COMMAND_KHR, update(commandBuffer, dispatchConfig(foreign)));
  EXPECT_CL_ERR(CL_INVALID_MUTABLE_COMMAND_KHR, update(commandBuffer, dispatchConfig(nullptr)));
  EXPECT_CL_ERR(CL_INVALID_COMMAND_BUFFER_KHR, update(nullptr, dispatchConfig(command)));
  // The arrays of configs and their types: empty, missing, an unknown type,
  // a missing config.
  const auto valid = dispatchConfig(command);
  const cl_command_buffer_update_type_khr types[] = {CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR};
  const cl_command_buffer_update_type_khr unknownTypes[] = {0x7777};
  const void *configs[] = {&valid};
  const void *noConfigs[] = {nullptr};
  EXPECT_CL_ERR(CL_INVALID_VALUE, api_.update(commandBuffer, 0, types, configs));
  EXPECT_CL_ERR(CL_INVALID_VALUE, api_.update(commandBuffer, 1, nullptr, configs));
  EXPECT_CL_ERR(CL_INVALID_VALUE, api_.update(commandBuffer, 1, types, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, api_.update(commandBuffer, 1, unknownTypes, configs));
  EXPECT_CL_ERR(CL_INVALID_VALUE, api_.update(commandBuffer, 1, types, noConfigs));
  EXPECT_CL(api_.update(commandBuffer, 1, types, configs)); // changes nothing
  // A field the command was not recorded as updatable.
  auto sizes = dispatchConfig(command);
  const size_t half = kCount / 2;
  sizes.global_work_size = &half;
  EXPECT_CL_ERR(CL_INVALID_OPERATION, update(commandBuffer, sizes));
  // Arguments with clSetKernelArg's checks; a bad one fails the whole
  // update, so the good one before it is not applied either.
  const cl_int factor = 9;
  const cl_mutable_dispatch_arg_khr badIndex[] = {{1, sizeof(cl_int), &factor}, {7, sizeof(cl_int), &factor}};
  auto args = dispatchConfig(command);
  args.num_args = 2;
  args.arg_list = badIndex;
  EXPECT_CL_ERR(CL_INVALID_ARG_INDEX, update(commandBuffer, args));
  const cl_mutable_dispatch_arg_khr badSize[] = {{1, 2, &factor}};
  args.num_args = 1;
  args.arg_list = badSize;
  EXPECT_CL_ERR(CL_INVALID_ARG_SIZE, update(commandBuffer, args));
  args.arg_list = nullptr;
  EXPECT_CL_ERR(CL_INVALID_VALUE, update(commandBuffer, args));
  auto dims = dispatchConfig(command);
  dims.work_dim = 2;
  EXPECT_CL_ERR(CL_INVALID_VALUE, update(commandBuffer, dims));

  const auto values = ramp(kCount, 5);
  fillWith(data, values);
  run(commandBuffer);
  std::vector<cl_int> expected(kCount);
  for (size_t i = 0; i < kCount; ++i)
    expected[i] = values[i] * 4 + 1;
  EXPECT_EQ(expected, read<cl_int>(data, kCount));
}

// SVM pointer arguments are updated through arg_svm_list, with
// clSetKernelArgSVMPointer's checks, on devices with SVM.
TEST_P(MutableDispatchTest, UpdateSvmArgument) {
  if (deviceInfo<cl_device_svm_capabilities>(device(), CL_DEVICE_SVM_CAPABILITIES) == 0)
    GTEST_SKIP() << "no SVM";
  const size_t bytes = kCount * sizeof(cl_int);
  auto *a = static_cast<cl_int *>(clSVMAlloc(context_, CL_MEM_READ_WRITE, bytes, 0));
  auto *b = static_cast<cl_int *>(clSVMAlloc(context_, CL_MEM_READ_WRITE, bytes, 0));
  ASSERT_TRUE(a && b);
  const auto first = ramp(kCount, 3), second = ramp(kCount, -70);
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_TRUE, a, first.data(), bytes, 0, nullptr, nullptr));
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_TRUE, b, second.data(), bytes, 0, nullptr, nullptr));
  ASSERT_CL(clSetKernelArgSVMPointer(scaleAdd_, 0, a));
  ASSERT_CL(setArg(scaleAdd_.get(), 1, cl_int{3}));
  ASSERT_CL(setArg(scaleAdd_.get(), 2, cl_int{-1}));
  CommandBuffer commandBuffer = createMutable();
  ASSERT_TRUE(commandBuffer);
  const size_t global = kCount;
  cl_mutable_command_khr command = nullptr;
  ASSERT_CL(api_.ndrange(commandBuffer, nullptr, nullptr, scaleAdd_, 1, nullptr, &global, nullptr, 0, nullptr, nullptr,
                         &command));
  ASSERT_CL(api_.finalize(commandBuffer));
  const cl_mutable_dispatch_arg_khr toB{0, 0, b};
  auto config = dispatchConfig(command);
  config.num_svm_args = 1;
  config.arg_svm_list = &toB;
  ASSERT_CL(update(commandBuffer, config));
  // Argument 1 is an int: not an SVM pointer argument.
  const cl_mutable_dispatch_arg_khr notPointer{1, 0, b};
  config.arg_svm_list = &notPointer;
  EXPECT_NE(CL_SUCCESS, update(commandBuffer, config));
  // Exec info, with clSetKernelExecInfo's checks.
  const void *pointers[] = {a};
  const cl_mutable_dispatch_exec_info_khr svmPointers{CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof pointers, pointers};
  const cl_mutable_dispatch_exec_info_khr unknown{0x7777, sizeof pointers, pointers};
  auto execInfo = dispatchConfig(command);
  execInfo.num_exec_infos = 1;
  execInfo.exec_info_list = &svmPointers;
  ASSERT_CL(update(commandBuffer, execInfo));
  execInfo.exec_info_list = &unknown;
  EXPECT_CL_ERR(CL_INVALID_VALUE, update(commandBuffer, execInfo));
  run(commandBuffer);
  std::vector<cl_int> gotA(kCount), gotB(kCount);
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_TRUE, gotA.data(), a, bytes, 0, nullptr, nullptr));
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_TRUE, gotB.data(), b, bytes, 0, nullptr, nullptr));
  EXPECT_EQ(first, gotA);
  EXPECT_EQ(scaleAdd(second, 3, -1), gotB);
  clSVMFree(context_, a);
  clSVMFree(context_, b);
}

// Revision 0.9.5: an update while an enqueue has not run yet changes the
// later enqueues only.
TEST_P(MutableDispatchTest, UpdateWhileEnqueued) {
  Mem data = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
  ASSERT_TRUE(data);
  setArgs(scaleAdd_.get(), data.get(), cl_int{4}, cl_int{1});
  CommandBuffer commandBuffer = createMutable();
  ASSERT_TRUE(commandBuffer);
  const size_t global = kCount;
  cl_mutable_command_khr command = nullptr;
  ASSERT_CL(api_.ndrange(commandBuffer, nullptr, nullptr, scaleAdd_, 1, nullptr, &global, nullptr, 0, nullptr, nullptr,
                         &command));
  ASSERT_CL(api_.finalize(commandBuffer));
  const auto values = ramp(kCount, -9);
  fillWith(data, values);

  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 1, gate.ptr(), nullptr));
  ASSERT_CL(clFlush(queue_));
  const cl_int factor = 9;
  const cl_mutable_dispatch_arg_khr arg{1, sizeof(cl_int), &factor};
  auto config = dispatchConfig(command);
  config.num_args = 1;
  config.arg_list = &arg;
  ASSERT_CL(update(commandBuffer, config));
  // In order after the first: data * 4 + 1, then * 9 + 1.
  ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, nullptr));
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(scaleAdd(scaleAdd(values, 4, 1), 9, 1), read<cl_int>(data, kCount));
}

// Simultaneous use: an enqueue waiting on one queue, an update, and an
// enqueue that runs at once on another queue; each has its own arguments.
TEST_P(MutableDispatchTest, SimultaneousUseKeepsEachEnqueuesArguments) {
  Mem first = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
  Mem second = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
  ASSERT_TRUE(first && second);
  setArgs(scaleAdd_.get(), first.get(), cl_int{2}, cl_int{3});
  const cl_command_buffer_properties_khr properties[] = {
      CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_MUTABLE_KHR | CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0};
  CommandBuffer commandBuffer = create(properties);
  ASSERT_TRUE(commandBuffer);
  const size_t global = kCount;
  cl_mutable_command_khr command = nullptr;
  ASSERT_CL(api_.ndrange(commandBuffer, nullptr, nullptr, scaleAdd_, 1, nullptr, &global, nullptr, 0, nullptr, nullptr,
                         &command));
  ASSERT_CL(api_.finalize(commandBuffer));
  const auto a = ramp(kCount, 100), b = ramp(kCount, -50);
  fillWith(first, a);
  fillWith(second, b);

  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  Queue other = makeQueue(0);
  ASSERT_TRUE(other);
  Event gated;
  ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 1, gate.ptr(), gated.out()));
  ASSERT_CL(clFlush(queue_));
  const cl_mem secondHandle = second.get();
  const cl_int factor = -5;
  const cl_mutable_dispatch_arg_khr args[] = {{0, sizeof(cl_mem), &secondHandle}, {1, sizeof(cl_int), &factor}};
  auto config = dispatchConfig(command);
  config.num_args = 2;
  config.arg_list = args;
  ASSERT_CL(update(commandBuffer, config));
  cl_command_queue queues[] = {other.get()};
  ASSERT_CL(api_.enqueue(1, queues, commandBuffer, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(other));
  EXPECT_GT(eventStatus(gated), CL_COMPLETE);
  std::vector<cl_int> got(kCount);
  ASSERT_CL(clEnqueueReadBuffer(other, second, CL_TRUE, 0, kCount * sizeof(cl_int), got.data(), 0, nullptr, nullptr));
  EXPECT_EQ(scaleAdd(b, -5, 3), got);
  ASSERT_CL(clEnqueueReadBuffer(other, first, CL_TRUE, 0, kCount * sizeof(cl_int), got.data(), 0, nullptr, nullptr));
  EXPECT_EQ(a, got); // the gated enqueue has not run
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(scaleAdd(a, 2, 3), read<cl_int>(first, kCount));
  EXPECT_EQ(scaleAdd(b, -5, 3), read<cl_int>(second, kCount));
}

// Two commands updated by one call, one config each.
TEST_P(MutableDispatchTest, SeveralConfigsInOneUpdate) {
  Mem first = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
  Mem second = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
  ASSERT_TRUE(first && second);
  CommandBuffer commandBuffer = createMutable();
  ASSERT_TRUE(commandBuffer);
  const size_t global = kCount;
  cl_mutable_command_khr commands[2] = {nullptr, nullptr};
  setArgs(scaleAdd_.get(), first.get(), cl_int{1}, cl_int{1});
  ASSERT_CL(api_.ndrange(commandBuffer, nullptr, nullptr, scaleAdd_, 1, nullptr, &global, nullptr, 0, nullptr, nullptr,
                         &commands[0]));
  setArgs(scaleAdd_.get(), second.get(), cl_int{1}, cl_int{2});
  ASSERT_CL(api_.ndrange(commandBuffer, nullptr, nullptr, scaleAdd_, 1, nullptr, &global, nullptr, 0, nullptr, nullptr,
                         &commands[1]));
  ASSERT_CL(api_.finalize(commandBuffer));
  const cl_int three = 3, seven = 7;
  const cl_mutable_dispatch_arg_khr firstArg{1, sizeof(cl_int), &three}, secondArg{1, sizeof(cl_int), &seven};
  auto firstConfig = dispatchConfig(commands[0]), secondConfig = dispatchConfig(commands[1]);
  firstConfig.num_args = secondConfig.num_args = 1;
  firstConfig.arg_list = &firstArg;
  secondConfig.arg_list = &secondArg;
  const cl_command_buffer_update_type_khr types[] = {CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR,
                                                     CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR};
  const void *configs[] = {&firstConfig, &secondConfig};
  ASSERT_CL(api_.update(commandBuffer, 2, types, configs));
  const auto a = ramp(kCount, 1), b = ramp(kCount, 2);
  fillWith(first, a);
  fillWith(second, b);
  run(commandBuffer);
  EXPECT_EQ(scaleAdd(a, 3, 1), read<cl_int>(first, kCount));
  EXPECT_EQ(scaleAdd(b, 7, 2), read<cl_int>(second, kCount));
}

// Revision 0.9.5: a launch whose arguments an update may set can be recorded
// before they are all set; the command buffer is Finalized, not Executable,
// until an update sets them.
TEST_P(MutableDispatchTest, DeferredArguments) {
  Mem data = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
  ASSERT_TRUE(data);
  Kernel fresh = kernel(program_, "scale_add");
  ASSERT_TRUE(fresh);
  ASSERT_CL(setArg(fresh.get(), 1, cl_int{6})); // arguments 0 and 2 unset
  const size_t global = kCount;
  cl_mutable_command_khr command = nullptr;
  // Without CL_MUTABLE_DISPATCH_ARGUMENTS_KHR, they must be set.
  const cl_command_properties_khr onlySizes[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
                                                 CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR, 0};
  CommandBuffer commandBuffer = createMutable();
  ASSERT_TRUE(commandBuffer);
  EXPECT_CL_ERR(CL_INVALID_KERNEL_ARGS, api_.ndrange(commandBuffer, nullptr, onlySizes, fresh, 1, nullptr, &global,
                                                     nullptr, 0, nullptr, nullptr, &command));
  // Nor without a mutable handle.
  EXPECT_CL_ERR(CL_INVALID_KERNEL_ARGS, api_.ndrange(commandBuffer, nullptr, nullptr, fresh, 1, nullptr, &global,
                                                     nullptr, 0, nullptr, nullptr, nullptr));
  ASSERT_CL(api_.ndrange(commandBuffer, nullptr, nullptr, fresh, 1, nullptr, &global, nullptr, 0, nullptr, nullptr,
                         &command));
  ASSERT_CL(api_.finalize(commandBuffer));
  EXPECT_EQ(cl_command_buffer_state_khr(CL_COMMAND_BUFFER_STATE_FINALIZED_KHR), state(commandBuffer));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, nullptr));
  // One of the two: still Finalized.
  const cl_mem dataHandle = data.get();
  const cl_int addend = -4;
  const cl_mutable_dispatch_arg_khr setData{0, sizeof(cl_mem), &dataHandle}, setAddend{2, sizeof(cl_int), &addend};
  auto config = dispatchConfig(command);
  config.num_args = 1;
  config.arg_list = &setData;
  ASSERT_CL(update(commandBuffer, config));
  EXPECT_EQ(cl_command_buffer_state_khr(CL_COMMAND_BUFFER_STATE_FINALIZED_KHR), state(commandBuffer));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, nullptr));
  config.arg_list = &setAddend;
  ASSERT_CL(update(commandBuffer, config));
  EXPECT_EQ(cl_command_buffer_state_khr(CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR), state(commandBuffer));
  const auto values = ramp(kCount, 33);
  fillWith(data, values);
  run(commandBuffer);
  EXPECT_EQ(scaleAdd(values, 6, -4), read<cl_int>(data, kCount));
}

// CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR, asserted by the
// command or by its command buffer: an update may make fewer work-groups,
// not more.
TEST_P(MutableDispatchTest, NoAdditionalWorkGroupsAssertion) {
  const cl_command_buffer_properties_khr bufferAssert[] = {CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_MUTABLE_KHR,
                                                           CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR,
                                                           CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR, 0};
  const cl_command_buffer_properties_khr badAssert[] = {CL_COMMAND_BUFFER_MUTABLE_DISPATCH_ASSERTS_KHR, 1 << 4, 0};
  cl_int err = CL_SUCCESS;
  cl_command_queue queues[] = {queue_.get()};
  EXPECT_EQ(nullptr, api_.create(1, queues, badAssert, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  const cl_command_properties_khr badCommandAssert[] = {CL_MUTABLE_DISPATCH_ASSERTS_KHR, 1 << 4, 0};
  const cl_command_properties_khr commandAssert[] = {
      CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR, CL_MUTABLE_DISPATCH_ASSERTS_KHR,
      CL_MUTABLE_DISPATCH_ASSERT_NO_ADDITIONAL_WORK_GROUPS_KHR, 0};
  Mem data = buffer(CL_MEM_READ_WRITE, 2 * kCount * sizeof(cl_int));
  ASSERT_TRUE(data);
  setArgs(scaleAdd_.get(), data.get(), cl_int{2}, cl_int{0});
  const size_t global = kCount, local = 16;

  for (bool byCommandBuffer : {false, true}) {
    CommandBuffer commandBuffer = byCommandBuffer ? create(bufferAssert) : createMutable();
    ASSERT_TRUE(commandBuffer);
    cl_mutable_command_khr command = nullptr;
    EXPECT_CL_ERR(CL_INVALID_VALUE, api_.ndrange(commandBuffer, nullptr, badCommandAssert, scaleAdd_, 1, nullptr,
                                                 &global, &local, 0, nullptr, nullptr, &command));
    ASSERT_CL(api_.ndrange(commandBuffer, nullptr, byCommandBuffer ? nullptr : commandAssert, scaleAdd_, 1, nullptr,
                           &global, &local, 0, nullptr, nullptr, &command));
    ASSERT_CL(api_.finalize(commandBuffer));
    // One work-group more than recorded: refused, nothing changes.
    const size_t more = kCount + local;
    auto config = dispatchConfig(command);
    config.global_work_size = &more;
    EXPECT_CL_ERR(CL_INVALID_WORK_GROUP_SIZE, update(commandBuffer, config));
    // Half the work-groups: accepted.
    const size_t half = kCount / 2;
    config.global_work_size = &half;
    ASSERT_CL(update(commandBuffer, config));
    const auto values = ramp(2 * kCount, 8);
    fillWith(data, values);
    run(commandBuffer);
    auto expected = values;
    for (size_t i = 0; i < half; ++i)
      expected[i] = values[i] * 2;
    EXPECT_EQ(expected, read<cl_int>(data, 2 * kCount)) << "asserted by the command buffer: " << byCommandBuffer;
  }
}

CLTEST_INSTANTIATE(MutableDispatchTest);
