// cl_khr_command_buffer's image commands on devices with images: fill, copy
// between images and to and from buffers, recorded once and run twice.
#include "command_buffer_api.h"

#include <array>

using namespace cltest;

namespace {

class ImageCommandBufferTest : public CommandBufferTest {
protected:
  void SetUp() override {
    CommandBufferTest::SetUp();
    if (IsSkipped())
      return;
    if (!deviceInfo<cl_bool>(device(), CL_DEVICE_IMAGE_SUPPORT))
      GTEST_SKIP() << "the device has no images";
  }
};

} // namespace

TEST_P(ImageCommandBufferTest, FillCopyAndCopyToBuffer) {
  auto fillImage = extensionFunction<clCommandFillImageKHR_fn>("clCommandFillImageKHR");
  auto copyImage = extensionFunction<clCommandCopyImageKHR_fn>("clCommandCopyImageKHR");
  auto toBuffer = extensionFunction<clCommandCopyImageToBufferKHR_fn>("clCommandCopyImageToBufferKHR");
  auto fromBuffer = extensionFunction<clCommandCopyBufferToImageKHR_fn>("clCommandCopyBufferToImageKHR");
  ASSERT_TRUE(fillImage && copyImage && toBuffer && fromBuffer);
  const cl_image_format format{CL_R, CL_UNSIGNED_INT32};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 4;
  desc.image_height = 3;
  cl_int err = CL_SUCCESS;
  Mem a(clCreateImage(context_, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err));
  ASSERT_CL(err);
  Mem b(clCreateImage(context_, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err));
  ASSERT_CL(err);
  std::vector<uint32_t> seed(12);
  for (size_t i = 0; i < seed.size(); ++i)
    seed[i] = uint32_t(100 + i);
  Mem in = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 48, seed.data());
  Mem out = buffer(CL_MEM_READ_WRITE, 48);

  CommandBuffer commandBuffer = create();
  ASSERT_TRUE(commandBuffer);
  const std::array<size_t, 3> zero = {0, 0, 0}, all = {4, 3, 1}, corner = {1, 1, 0}, part = {2, 2, 1};
  const cl_uint4 color = {{7, 0, 0, 0}};
  cl_sync_point_khr points[3];
  ASSERT_CL(
      fromBuffer(commandBuffer, nullptr, nullptr, in, a, 0, zero.data(), all.data(), 0, nullptr, &points[0], nullptr));
  ASSERT_CL(fillImage(commandBuffer, nullptr, nullptr, a, &color, corner.data(), part.data(), 1, &points[0], &points[1],
                      nullptr));
  ASSERT_CL(copyImage(commandBuffer, nullptr, nullptr, a, b, zero.data(), zero.data(), all.data(), 1, &points[1],
                      &points[2], nullptr));
  ASSERT_CL(
      toBuffer(commandBuffer, nullptr, nullptr, b, out, zero.data(), all.data(), 0, 1, &points[2], nullptr, nullptr));
  ASSERT_CL(api_.finalize(commandBuffer));
  for (int run = 0; run < 2; ++run) {
    ASSERT_CL(api_.enqueue(0, nullptr, commandBuffer, 0, nullptr, nullptr));
    auto got = read<uint32_t>(out, 12);
    for (size_t y = 0; y < 3; ++y)
      for (size_t x = 0; x < 4; ++x) {
        const bool filled = x >= 1 && x < 3 && y >= 1 && y < 3;
        EXPECT_EQ(filled ? 7u : seed[y * 4 + x], got[y * 4 + x]) << x << "," << y << " run " << run;
      }
  }
}

CLTEST_INSTANTIATE(ImageCommandBufferTest);
