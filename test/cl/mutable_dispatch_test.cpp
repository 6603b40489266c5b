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
    cl_mutable_base_config_khr base{CL_STRUCTURE_TYPE_MUTABLE_BASE_CONFIG_KHR, nullptr, 1, &dispatch};
    return api_.update(commandBuffer, &base);
  }

  static cl_mutable_dispatch_config_khr dispatchConfig(cl_mutable_command_khr command) {
    cl_mutable_dispatch_config_khr config{};
    config.type = CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR;
    config.command = command;
    return config;
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
      EXPECT_EQ(CL_MAKE_VERSION(0, 9, 0), extension.version);
    }
  EXPECT_TRUE(found);
  EXPECT_EQ(cl_mutable_dispatch_fields_khr(CL_MUTABLE_DISPATCH_GLOBAL_OFFSET_KHR | CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR |
                                           CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR | CL_MUTABLE_DISPATCH_ARGUMENTS_KHR),
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
  ASSERT_CL(api_.copy(commandBuffer, nullptr, in, work, 0, 0, bytes, 0, nullptr, &copied, nullptr));
  ASSERT_CL(api_.ndrange(commandBuffer, nullptr, nullptr, scaleAdd_, 1, nullptr, &global, nullptr, 1, &copied, &scaled,
                         &command));
  ASSERT_CL(api_.copy(commandBuffer, nullptr, work, out, 0, 0, bytes, 1, &scaled, nullptr, nullptr));
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
  const cl_ndrange_kernel_command_properties_khr properties[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
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
  std::array<cl_ndrange_kernel_command_properties_khr, 3> array{};
  ASSERT_CL(api_.mutableInfo(command, CL_MUTABLE_DISPATCH_PROPERTIES_ARRAY_KHR, sizeof array, array.data(), &size));
  EXPECT_EQ(sizeof array, size);
  EXPECT_EQ(CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR, array[0]);
  EXPECT_EQ(cl_ndrange_kernel_command_properties_khr(CL_MUTABLE_DISPATCH_ARGUMENTS_KHR), array[1]);
  EXPECT_CL_ERR(CL_INVALID_VALUE, api_.mutableInfo(command, 0x7fff, sizeof dims, &dims, nullptr));
  EXPECT_CL_ERR(CL_INVALID_MUTABLE_COMMAND_KHR,
                api_.mutableInfo(reinterpret_cast<cl_mutable_command_khr>(out.get()),
                                 CL_MUTABLE_DISPATCH_DIMENSIONS_KHR, sizeof dims, &dims, nullptr));
}

TEST_P(MutableDispatchTest, ErrorsLeaveTheCommandUnchanged) {
  Mem data = buffer(CL_MEM_READ_WRITE, kCount * sizeof(cl_int));
  ASSERT_TRUE(data);
  setArgs(scaleAdd_.get(), data.get(), cl_int{4}, cl_int{1});
  const cl_ndrange_kernel_command_properties_khr onlyArguments[] = {CL_MUTABLE_DISPATCH_UPDATABLE_FIELDS_KHR,
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
  EXPECT_CL_ERR(CL_INVALID_VALUE, api_.update(commandBuffer, nullptr));
  cl_mutable_base_config_khr badBase{CL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG_KHR, nullptr, 0, nullptr};
  EXPECT_CL_ERR(CL_INVALID_VALUE, api_.update(commandBuffer, &badBase));
  auto badType = dispatchConfig(command);
  badType.type = CL_STRUCTURE_TYPE_MUTABLE_BASE_CONFIG_KHR;
  EXPECT_CL_ERR(CL_INVALID_VALUE, update(commandBuffer, badType));
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

  // While pending, the command cannot change.
  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 1, gate.ptr(), nullptr));
  const cl_mutable_dispatch_arg_khr good[] = {{1, sizeof(cl_int), &factor}};
  args.arg_list = good;
  EXPECT_CL_ERR(CL_INVALID_OPERATION, update(commandBuffer, args));
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clFinish(queue_));
  ASSERT_CL(update(commandBuffer, args));
}

CLTEST_INSTANTIATE(MutableDispatchTest);
