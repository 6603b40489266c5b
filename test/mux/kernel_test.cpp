// Kernel execution through the HAL: compile with the device's compiler,
// load the binary, run a non-uniform 2-D range with offsets.
#include "mux_test.h"

#include <cstring>

namespace muxtest {
namespace {

using KernelTest = MuxTest;

constexpr const char *kSource = R"(
kernel void index_space(global int *ids, global int *shape, int scale, local int *scratch) {
  size_t lx = get_local_id(0), ly = get_local_id(1);
  size_t slot = ly * get_local_size(0) + lx;
  size_t x = get_global_id(0) - get_global_offset(0);
  size_t y = get_global_id(1) - get_global_offset(1);
  size_t index = y * get_global_size(0) + x;
  scratch[slot] = (int)(get_global_id(0) * 1000 + get_global_id(1));
  ids[index] = scratch[slot] * scale;
  shape[index] = (int)(get_local_size(0) + 10 * get_local_size(1) + 100 * get_group_id(0) +
                       10000 * get_group_id(1) + 1000000 * get_enqueued_local_size(0));
}
)";

TEST_P(KernelTest, NonUniformTwoDimensionalRangeWithOffsets) {
  MUX_COMPILE_OR_SKIP(compiled, kSource, "index_space");
  mux::Kernel *kernel = compiled->kernel.get();
  EXPECT_EQ(kernel->name(), "index_space");
  EXPECT_GE(kernel->maxWorkGroupSize(), 12u);

  mux::NDRange range;
  range.dimensions = 2;
  range.globalOffset = {5, 2, 0};
  range.globalSize = {13, 7, 1};
  range.localSize = {4, 3, 1};
  const size_t count = 13 * 7;
  BoundBuffer ids = makeBuffer(count * 4 + 64), shape = makeBuffer(count * 4);
  ASSERT_TRUE(ids.buffer && shape.buffer);
  std::vector<mux::KernelArg> args = {bufferArg(ids.buffer.get(), 64), bufferArg(shape.buffer.get()),
                                      valueArg<int32_t>(3), localArg(12 * sizeof(int32_t))};
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->ndrange(*kernel, args, range));
  std::vector<int32_t> idResult(count), shapeResult(count);
  recordRead(*commandBuffer, *ids.buffer, 64, idResult.data(), count * 4);
  recordRead(*commandBuffer, *shape.buffer, 0, shapeResult.data(), count * 4);
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  finishReads();

  for (size_t y = 0; y < 7; ++y) {
    for (size_t x = 0; x < 13; ++x) {
      size_t index = y * 13 + x;
      size_t gx = x + 5, gy = y + 2;
      EXPECT_EQ(idResult[index], int32_t((gx * 1000 + gy) * 3)) << x << "," << y;
      size_t groupX = x / 4, groupY = y / 3;
      size_t localX = std::min<size_t>(4, 13 - groupX * 4), localY = std::min<size_t>(3, 7 - groupY * 3);
      EXPECT_EQ(shapeResult[index], int32_t(localX + 10 * localY + 100 * groupX + 10000 * groupY + 4000000))
          << x << "," << y;
    }
  }
}

TEST_P(KernelTest, EmptyRangeRunsNothing) {
  MUX_COMPILE_OR_SKIP(compiled, kSource, "index_space");
  mux::Kernel *kernel = compiled->kernel.get();
  BoundBuffer ids = makeBuffer(64), shape = makeBuffer(64);
  ASSERT_TRUE(ids.buffer && shape.buffer);
  upload(*ids.buffer, 0, std::vector<uint8_t>(64, 0x77));
  std::vector<mux::KernelArg> args = {bufferArg(ids.buffer.get()), bufferArg(shape.buffer.get()), valueArg<int32_t>(1),
                                      localArg(64)};
  mux::NDRange range;
  range.dimensions = 1;
  range.globalSize = {0, 1, 1};
  range.localSize = {1, 1, 1};
  auto commandBuffer = makeCommandBuffer();
  MUX_ASSERT_OK(commandBuffer->ndrange(*kernel, args, range));
  ASSERT_EQ(runAndWait(*commandBuffer), mux::Status::Success);
  EXPECT_EQ(download(*ids.buffer, 0, 64), std::vector<uint8_t>(64, 0x77));
}

TEST_P(KernelTest, BadLaunchesAreRejected) {
  MUX_COMPILE_OR_SKIP(compiled, kSource, "index_space");
  mux::Kernel *kernel = compiled->kernel.get();
  BoundBuffer ids = makeBuffer(64);
  ASSERT_TRUE(ids.buffer);
  std::vector<mux::KernelArg> args = {bufferArg(ids.buffer.get()), bufferArg(ids.buffer.get()), valueArg<int32_t>(1),
                                      localArg(64)};
  auto commandBuffer = makeCommandBuffer();
  mux::NDRange range;
  range.dimensions = 4;
  EXPECT_EQ(statusOf(commandBuffer->ndrange(*kernel, args, range)), mux::Status::InvalidArgument);
  range.dimensions = 1;
  range.localSize = {0, 1, 1};
  EXPECT_EQ(statusOf(commandBuffer->ndrange(*kernel, args, range)), mux::Status::InvalidArgument);
  range.localSize = {kernel->maxWorkGroupSize() + 1, 1, 1};
  range.globalSize = {kernel->maxWorkGroupSize() + 1, 1, 1};
  EXPECT_EQ(statusOf(commandBuffer->ndrange(*kernel, args, range)), mux::Status::InvalidArgument);
  range.localSize = {1, 1, 1};
  args[3] = localArg(info().localMemSize + 1);
  EXPECT_EQ(statusOf(commandBuffer->ndrange(*kernel, args, range)), mux::Status::OutOfResources);
  args[3] = localArg(64);
  args[0] = bufferArg(ids.buffer.get(), 65);
  EXPECT_EQ(statusOf(commandBuffer->ndrange(*kernel, args, range)), mux::Status::InvalidArgument);
}

INSTANTIATE_MUX_TEST(KernelTest);

} // namespace
} // namespace muxtest
