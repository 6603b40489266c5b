// Rectangular buffer transfers checked against a host implementation of the
// same 3-D strided copy.
#include "cl_test.h"

#include <array>
#include <cstring>

using namespace cltest;

namespace {

using Triple = std::array<size_t, 3>;

struct Layout {
  size_t rowPitch;
  size_t slicePitch;
  size_t offset(const Triple &origin) const { return origin[2] * slicePitch + origin[1] * rowPitch + origin[0]; }
};

// The reference: copies `region` (bytes, rows, slices) between two strided
// byte arrays.
void referenceRectCopy(const uint8_t *src, const Triple &srcOrigin, Layout srcLayout, uint8_t *dst,
                       const Triple &dstOrigin, Layout dstLayout, const Triple &region) {
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y) {
      Triple s = {srcOrigin[0], srcOrigin[1] + y, srcOrigin[2] + z};
      Triple d = {dstOrigin[0], dstOrigin[1] + y, dstOrigin[2] + z};
      std::memcpy(dst + dstLayout.offset(d), src + srcLayout.offset(s), region[0]);
    }
}

std::vector<uint8_t> bytes(size_t size, unsigned seed) {
  std::vector<uint8_t> v(size);
  for (size_t i = 0; i < size; ++i)
    v[i] = static_cast<uint8_t>((i * 131 + seed * 17) ^ (i >> 7));
  return v;
}

class BufferRectTest : public DeviceTest {
protected:
  // The device buffer is a 3-D block of 40 x 6 x 5 bytes.
  static constexpr Layout kBufferLayout{40, 240};
  static constexpr size_t kBufferSize = 240 * 5;
  // The host block uses different pitches: 50 x 7 x 4.
  static constexpr Layout kHostLayout{50, 350};
  static constexpr size_t kHostSize = 350 * 4;
};

} // namespace

TEST_P(BufferRectTest, WriteRect) {
  const auto initial = bytes(kBufferSize, 1);
  const auto host = bytes(kHostSize, 2);
  Mem mem = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBufferSize, const_cast<uint8_t *>(initial.data()));
  ASSERT_TRUE(mem);
  Triple bufferOrigin = {3, 1, 2}, hostOrigin = {5, 2, 1}, region = {30, 4, 3};
  ASSERT_CL(clEnqueueWriteBufferRect(queue_, mem, CL_TRUE, bufferOrigin.data(), hostOrigin.data(), region.data(),
                                     kBufferLayout.rowPitch, kBufferLayout.slicePitch, kHostLayout.rowPitch,
                                     kHostLayout.slicePitch, host.data(), 0, nullptr, nullptr));
  auto expected = initial;
  referenceRectCopy(host.data(), hostOrigin, kHostLayout, expected.data(), bufferOrigin, kBufferLayout, region);
  EXPECT_EQ(read<uint8_t>(mem, kBufferSize), expected);
}

TEST_P(BufferRectTest, ReadRect) {
  const auto contents = bytes(kBufferSize, 3);
  Mem mem = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBufferSize, const_cast<uint8_t *>(contents.data()));
  ASSERT_TRUE(mem);
  std::vector<uint8_t> host(kHostSize, 0xaa);
  Triple bufferOrigin = {0, 2, 1}, hostOrigin = {7, 0, 0}, region = {40, 4, 4};
  ASSERT_CL(clEnqueueReadBufferRect(queue_, mem, CL_TRUE, bufferOrigin.data(), hostOrigin.data(), region.data(),
                                    kBufferLayout.rowPitch, kBufferLayout.slicePitch, kHostLayout.rowPitch,
                                    kHostLayout.slicePitch, host.data(), 0, nullptr, nullptr));
  std::vector<uint8_t> expected(kHostSize, 0xaa);
  referenceRectCopy(contents.data(), bufferOrigin, kBufferLayout, expected.data(), hostOrigin, kHostLayout, region);
  EXPECT_EQ(host, expected);
}

TEST_P(BufferRectTest, ZeroPitchesMeanTightlyPacked) {
  const auto contents = bytes(kBufferSize, 4);
  Mem mem = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBufferSize, const_cast<uint8_t *>(contents.data()));
  ASSERT_TRUE(mem);
  // Region 12 x 3 x 2: zero pitches mean row pitch 12, slice pitch 36 on
  // both sides.
  Triple origin = {0, 0, 0}, region = {12, 3, 2};
  std::vector<uint8_t> host(12 * 3 * 2, 0);
  ASSERT_CL(clEnqueueReadBufferRect(queue_, mem, CL_TRUE, origin.data(), origin.data(), region.data(), 0, 0, 0, 0,
                                    host.data(), 0, nullptr, nullptr));
  std::vector<uint8_t> expected(host.size(), 0);
  referenceRectCopy(contents.data(), origin, Layout{12, 36}, expected.data(), origin, Layout{12, 36}, region);
  EXPECT_EQ(host, expected);
}

TEST_P(BufferRectTest, CopyRect) {
  const auto a = bytes(kBufferSize, 5);
  const auto b = bytes(kHostSize, 6);
  Mem src = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBufferSize, const_cast<uint8_t *>(a.data()));
  Mem dst = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kHostSize, const_cast<uint8_t *>(b.data()));
  ASSERT_TRUE(src && dst);
  Triple srcOrigin = {1, 1, 1}, dstOrigin = {9, 3, 0}, region = {25, 4, 4};
  ASSERT_CL(clEnqueueCopyBufferRect(queue_, src, dst, srcOrigin.data(), dstOrigin.data(), region.data(),
                                    kBufferLayout.rowPitch, kBufferLayout.slicePitch, kHostLayout.rowPitch,
                                    kHostLayout.slicePitch, 0, nullptr, nullptr));
  auto expected = b;
  referenceRectCopy(a.data(), srcOrigin, kBufferLayout, expected.data(), dstOrigin, kHostLayout, region);
  EXPECT_EQ(read<uint8_t>(dst, kHostSize), expected);

  // Within one buffer, disjoint rectangles with the same pitches.
  Triple left = {0, 0, 0}, right = {20, 0, 0}, half = {20, 6, 5};
  ASSERT_CL(clEnqueueCopyBufferRect(queue_, src, src, left.data(), right.data(), half.data(), 40, 240, 40, 240, 0,
                                    nullptr, nullptr));
  auto self = a;
  referenceRectCopy(a.data(), left, kBufferLayout, self.data(), right, kBufferLayout, half);
  EXPECT_EQ(read<uint8_t>(src, kBufferSize), self);
}

TEST_P(BufferRectTest, Errors) {
  Mem mem = buffer(CL_MEM_READ_WRITE, kBufferSize);
  Mem other = buffer(CL_MEM_READ_WRITE, kBufferSize);
  std::vector<uint8_t> host(kHostSize);
  Triple zero = {0, 0, 0};
  auto readRect = [&](Triple origin, Triple region, size_t rowPitch, size_t slicePitch) {
    return clEnqueueReadBufferRect(queue_, mem, CL_TRUE, origin.data(), zero.data(), region.data(), rowPitch,
                                   slicePitch, 0, 0, host.data(), 0, nullptr, nullptr);
  };
  EXPECT_CL_ERR(CL_INVALID_VALUE, readRect(zero, {0, 1, 1}, 0, 0)) << "zero region";
  EXPECT_CL_ERR(CL_INVALID_VALUE, readRect(zero, {8, 1, 0}, 0, 0)) << "zero region";
  EXPECT_CL_ERR(CL_INVALID_VALUE, readRect(zero, {41, 1, 1}, 40, 240)) << "row pitch < region width";
  EXPECT_CL_ERR(CL_INVALID_VALUE, readRect(zero, {8, 7, 1}, 40, 240)) << "slice pitch < rows * row pitch";
  EXPECT_CL_ERR(CL_INVALID_VALUE, readRect({0, 0, 4}, {8, 6, 2}, 40, 240)) << "past the end of the buffer";
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueReadBufferRect(queue_, mem, CL_TRUE, zero.data(), zero.data(), nullptr, 0, 0,
                                                          0, 0, host.data(), 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                clEnqueueWriteBufferRect(queue_, mem, CL_TRUE, zero.data(), zero.data(), Triple{8, 1, 1}.data(), 0, 0,
                                         0, 0, nullptr, 0, nullptr, nullptr));
  // Copies within one buffer: overlap, and differing pitches.
  Triple a = {0, 0, 0}, b = {8, 1, 0}, region = {16, 2, 2};
  EXPECT_CL_ERR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBufferRect(queue_, mem, mem, a.data(), b.data(), region.data(), 40,
                                                             240, 40, 240, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueCopyBufferRect(queue_, mem, mem, a.data(), Triple{0, 0, 3}.data(),
                                                          region.data(), 40, 240, 20, 120, 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueCopyBufferRect(queue_, mem, other, a.data(), Triple{0, 0, 4}.data(),
                                                          region.data(), 40, 240, 40, 240, 0, nullptr, nullptr))
      << "destination out of bounds";
}

CLTEST_INSTANTIATE(BufferRectTest);
