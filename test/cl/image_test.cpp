// Images: creation, queries, host transfers, fills, copies and maps, checked
// byte for byte against what the host expects; devices without image
// support must refuse images and samplers.
#include "cl_test.h"

#include <array>
#include <cstring>

using namespace cltest;

namespace {

using Triple = std::array<size_t, 3>;

std::vector<uint8_t> pattern(size_t size, unsigned seed) {
  std::vector<uint8_t> v(size);
  for (size_t i = 0; i < size; ++i)
    v[i] = static_cast<uint8_t>((i * 97 + seed * 31) ^ (i >> 5));
  return v;
}

class ImageTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!deviceInfo<cl_bool>(device(), CL_DEVICE_IMAGE_SUPPORT))
      GTEST_SKIP() << "the device has no images";
  }

  Mem image(cl_mem_flags flags, cl_image_format format, cl_image_desc desc, void *host = nullptr) {
    cl_int err = CL_SUCCESS;
    Mem mem(clCreateImage(context_, flags, &format, &desc, host, &err));
    EXPECT_CL(err);
    return mem;
  }
};

cl_image_desc desc(cl_mem_object_type type, size_t w, size_t h = 0, size_t d = 0, size_t layers = 0) {
  cl_image_desc desc{};
  desc.image_type = type;
  desc.image_width = w;
  desc.image_height = h;
  desc.image_depth = d;
  desc.image_array_size = layers;
  return desc;
}

} // namespace

class ImageSupportTest : public DeviceTest {};

TEST_P(ImageSupportTest, ImagesOnlyWhereSupported) {
  if (deviceInfo<cl_bool>(device(), CL_DEVICE_IMAGE_SUPPORT)) {
    EXPECT_GE(deviceInfo<size_t>(device(), CL_DEVICE_IMAGE2D_MAX_WIDTH), 16384u);
    EXPECT_GE(deviceInfo<size_t>(device(), CL_DEVICE_IMAGE3D_MAX_DEPTH), 2048u);
    EXPECT_GE(deviceInfo<cl_uint>(device(), CL_DEVICE_MAX_READ_IMAGE_ARGS), 128u);
    EXPECT_GE(deviceInfo<cl_uint>(device(), CL_DEVICE_MAX_SAMPLERS), 16u);
    return;
  }
  const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  const cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4);
  cl_int err = CL_SUCCESS;
  expectNoHandle(Mem(clCreateImage(context_, CL_MEM_READ_WRITE, &format, &d, nullptr, &err)));
  EXPECT_CL_ERR(CL_INVALID_OPERATION, err);
  cl_sampler sampler = clCreateSampler(context_, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
  EXPECT_EQ(nullptr, sampler);
  EXPECT_CL_ERR(CL_INVALID_OPERATION, err);
  cl_uint count = 1;
  EXPECT_CL(clGetSupportedImageFormats(context_, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &count));
  EXPECT_EQ(0u, count);
  // Image commands on its queue: CL_INVALID_OPERATION before any argument.
  const size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1};
  uint8_t byte = 0;
  EXPECT_CL_ERR(CL_INVALID_OPERATION,
                clEnqueueReadImage(queue_, nullptr, CL_TRUE, origin, region, 0, 0, &byte, 0, nullptr, nullptr));
}

TEST_P(ImageTest, SupportedFormatsHoldTheMinimumList) {
  for (cl_mem_flags flags : {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_KERNEL_READ_AND_WRITE}) {
    cl_uint count = 0;
    ASSERT_CL(clGetSupportedImageFormats(context_, flags, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &count));
    std::vector<cl_image_format> formats(count);
    ASSERT_CL(clGetSupportedImageFormats(context_, flags, CL_MEM_OBJECT_IMAGE2D, count, formats.data(), nullptr));
    auto has = [&](cl_channel_order order, cl_channel_type type) {
      for (const cl_image_format &f : formats)
        if (f.image_channel_order == order && f.image_channel_data_type == type)
          return true;
      return false;
    };
    for (cl_channel_order order : {CL_R, CL_RGBA})
      for (cl_channel_type type : {CL_UNORM_INT8, CL_SIGNED_INT8, CL_SIGNED_INT16, CL_SIGNED_INT32, CL_UNSIGNED_INT8,
                                   CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT})
        EXPECT_TRUE(has(order, type)) << std::hex << order << " " << type << " flags " << flags;
    if (flags != CL_MEM_KERNEL_READ_AND_WRITE) {
      EXPECT_TRUE(has(CL_BGRA, CL_UNORM_INT8));
      EXPECT_TRUE(has(CL_RG, CL_SNORM_INT16));
    }
  }
}

TEST_P(ImageTest, InfoOf2DArray) {
  const cl_image_format format{CL_RG, CL_UNSIGNED_INT16};
  Mem img = image(CL_MEM_READ_WRITE, format, desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 7, 5, 0, 3));
  ASSERT_TRUE(img);
  auto info = [&](cl_image_info param) {
    size_t value = 0;
    EXPECT_CL(clGetImageInfo(img, param, sizeof(value), &value, nullptr));
    return value;
  };
  EXPECT_EQ(4u, info(CL_IMAGE_ELEMENT_SIZE));
  EXPECT_EQ(7u, info(CL_IMAGE_WIDTH));
  EXPECT_EQ(5u, info(CL_IMAGE_HEIGHT));
  EXPECT_EQ(0u, info(CL_IMAGE_DEPTH));
  EXPECT_EQ(3u, info(CL_IMAGE_ARRAY_SIZE));
  EXPECT_GE(info(CL_IMAGE_ROW_PITCH), 28u);
  EXPECT_GE(info(CL_IMAGE_SLICE_PITCH), 5 * info(CL_IMAGE_ROW_PITCH));
  cl_image_format got{};
  EXPECT_CL(clGetImageInfo(img, CL_IMAGE_FORMAT, sizeof(got), &got, nullptr));
  EXPECT_EQ(format.image_channel_order, got.image_channel_order);
  EXPECT_EQ(format.image_channel_data_type, got.image_channel_data_type);
  cl_mem_object_type type = 0;
  EXPECT_CL(clGetMemObjectInfo(img, CL_MEM_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(cl_mem_object_type(CL_MEM_OBJECT_IMAGE2D_ARRAY), type);
  // Images are not buffers.
  uint8_t byte = 0;
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, clEnqueueReadBuffer(queue_, img, CL_TRUE, 0, 1, &byte, 0, nullptr, nullptr));
}

TEST_P(ImageTest, CreationErrors) {
  const cl_image_format good{CL_RGBA, CL_FLOAT};
  cl_int err = CL_SUCCESS;
  auto create = [&](cl_mem_flags flags, const cl_image_format *format, const cl_image_desc *d, void *host) {
    Mem mem(clCreateImage(context_, flags, format, d, host, &err));
    expectNoHandle(std::move(mem));
    return err;
  };
  const cl_image_desc d2 = desc(CL_MEM_OBJECT_IMAGE2D, 8, 8);
  EXPECT_CL_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, create(CL_MEM_READ_WRITE, nullptr, &d2, nullptr));
  const cl_image_format badOrder{0x1234, CL_FLOAT};
  EXPECT_CL_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, create(CL_MEM_READ_WRITE, &badOrder, &d2, nullptr));
  const cl_image_format badPair{CL_BGRA, CL_FLOAT};
  EXPECT_CL_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, create(CL_MEM_READ_WRITE, &badPair, &d2, nullptr));
  const cl_image_format unsupported{CL_RGB, CL_UNORM_SHORT_565};
  EXPECT_CL_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED, create(CL_MEM_READ_WRITE, &unsupported, &d2, nullptr));
  EXPECT_CL_ERR(CL_INVALID_IMAGE_DESCRIPTOR, create(CL_MEM_READ_WRITE, &good, nullptr, nullptr));
  const cl_image_desc zero = desc(CL_MEM_OBJECT_IMAGE2D, 8, 0);
  EXPECT_CL_ERR(CL_INVALID_IMAGE_DESCRIPTOR, create(CL_MEM_READ_WRITE, &good, &zero, nullptr));
  const cl_image_desc buffer = desc(CL_MEM_OBJECT_BUFFER, 8, 8);
  EXPECT_CL_ERR(CL_INVALID_IMAGE_DESCRIPTOR, create(CL_MEM_READ_WRITE, &good, &buffer, nullptr));
  const cl_image_desc huge = desc(CL_MEM_OBJECT_IMAGE2D, 1 << 20, 4);
  EXPECT_CL_ERR(CL_INVALID_IMAGE_SIZE, create(CL_MEM_READ_WRITE, &good, &huge, nullptr));
  cl_image_desc pitched = d2;
  pitched.image_row_pitch = 256;
  EXPECT_CL_ERR(CL_INVALID_IMAGE_DESCRIPTOR, create(CL_MEM_READ_WRITE, &good, &pitched, nullptr));
  std::vector<float> host(8 * 8 * 4);
  pitched.image_row_pitch = 8; // below width * element size
  EXPECT_CL_ERR(CL_INVALID_IMAGE_DESCRIPTOR, create(CL_MEM_COPY_HOST_PTR, &good, &pitched, host.data()));
  EXPECT_CL_ERR(CL_INVALID_HOST_PTR, create(CL_MEM_COPY_HOST_PTR, &good, &d2, nullptr));
  EXPECT_CL_ERR(CL_INVALID_HOST_PTR, create(CL_MEM_READ_WRITE, &good, &d2, host.data()));
  EXPECT_CL_ERR(CL_INVALID_VALUE, create(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &good, &d2, nullptr));
  // A 2D image of a buffer needs cl_khr_image2d_from_buffer, which no
  // device offers; a 3D image of a buffer does not exist.
  Mem texels = this->buffer(CL_MEM_READ_WRITE, 8 * 8 * 16);
  cl_image_desc fromBuffer = d2;
  fromBuffer.mem_object = texels;
  EXPECT_CL_ERR(CL_INVALID_OPERATION, create(CL_MEM_READ_WRITE, &good, &fromBuffer, nullptr));
  cl_image_desc volumeFromBuffer = desc(CL_MEM_OBJECT_IMAGE3D, 8, 8, 2);
  volumeFromBuffer.mem_object = texels;
  EXPECT_CL_ERR(CL_INVALID_IMAGE_DESCRIPTOR, create(CL_MEM_READ_WRITE, &good, &volumeFromBuffer, nullptr));
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, clGetImageInfo(nullptr, CL_IMAGE_WIDTH, 0, nullptr, nullptr));
}

// Writes a pattern into each image type with host pitches larger than the
// rows, reads a sub-region back with other pitches, and compares bytes.
TEST_P(ImageTest, WriteReadRoundTripEveryType) {
  struct Case {
    cl_image_desc d;
    Triple extent;
  };
  const Case cases[] = {
      {desc(CL_MEM_OBJECT_IMAGE1D, 37), {37, 1, 1}},     {desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 19, 0, 0, 4), {19, 4, 1}},
      {desc(CL_MEM_OBJECT_IMAGE2D, 13, 9), {13, 9, 1}},  {desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 11, 7, 0, 3), {11, 7, 3}},
      {desc(CL_MEM_OBJECT_IMAGE3D, 9, 6, 5), {9, 6, 5}},
  };
  const cl_image_format format{CL_RGBA, CL_UNSIGNED_INT16}; // 8 bytes
  const size_t es = 8;
  for (const Case &c : cases) {
    SCOPED_TRACE(c.d.image_type);
    Mem img = image(CL_MEM_READ_WRITE, format, c.d);
    ASSERT_TRUE(img);
    const size_t rowPitch = c.extent[0] * es + 16;
    const bool layeredRows = c.d.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    const size_t slicePitch = layeredRows ? rowPitch + 8 : rowPitch * c.extent[1] + 24;
    const size_t slices = layeredRows ? c.extent[1] : c.extent[2];
    const size_t rows = layeredRows ? 1 : c.extent[1];
    const auto host = pattern(slicePitch * slices, 3);
    const Triple zero = {0, 0, 0};
    const bool hasSlicePitch = c.d.image_type != CL_MEM_OBJECT_IMAGE1D && c.d.image_type != CL_MEM_OBJECT_IMAGE2D;
    ASSERT_CL(clEnqueueWriteImage(queue_, img, CL_TRUE, zero.data(), c.extent.data(), rowPitch,
                                  hasSlicePitch ? slicePitch : 0, host.data(), 0, nullptr, nullptr));
    // Read everything back tightly packed.
    std::vector<uint8_t> back(c.extent[0] * es * c.extent[1] * c.extent[2]);
    ASSERT_CL(
        clEnqueueReadImage(queue_, img, CL_TRUE, zero.data(), c.extent.data(), 0, 0, back.data(), 0, nullptr, nullptr));
    for (size_t s = 0; s < slices; ++s)
      for (size_t y = 0; y < rows; ++y)
        for (size_t x = 0; x < c.extent[0] * es; ++x) {
          const size_t packed = (s * rows + y) * c.extent[0] * es + x;
          ASSERT_EQ(host[s * (hasSlicePitch ? slicePitch : 0) + y * rowPitch + x], back[packed])
              << "slice " << s << " row " << y << " byte " << x;
        }
  }
}

TEST_P(ImageTest, FillEveryChannelType) {
  struct Case {
    cl_image_format format;
    std::array<uint32_t, 4> color; // float, int or uint bits
    std::vector<uint8_t> bytes;    // one texel
  };
  auto f = [](float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return bits;
  };
  const Case cases[] = {
      {{CL_RGBA, CL_UNORM_INT8}, {f(0.0f), f(0.5f), f(1.0f), f(2.0f)}, {0, 128, 255, 255}},
      {{CL_BGRA, CL_UNORM_INT8}, {f(1.0f), f(0.0f), f(0.2f), f(1.0f)}, {51, 0, 255, 255}},
      {{CL_R, CL_UNORM_INT16}, {f(0.25f), 0, 0, 0}, {0x00, 0x40}}, // 16383.75 -> 16384
      {{CL_RG, CL_SNORM_INT8}, {f(-1.0f), f(0.5f), 0, 0}, {0x81, 64}},
      {{CL_R, CL_SNORM_INT16}, {f(-2.0f), 0, 0, 0}, {0x00, 0x80}},
      {{CL_RG, CL_SIGNED_INT8}, {uint32_t(-300), 5, 0, 0}, {0x80, 5}},
      {{CL_R, CL_SIGNED_INT16}, {uint32_t(-2), 0, 0, 0}, {0xfe, 0xff}},
      {{CL_R, CL_SIGNED_INT32}, {0x12345678, 0, 0, 0}, {0x78, 0x56, 0x34, 0x12}},
      {{CL_RG, CL_UNSIGNED_INT8}, {300, 7, 0, 0}, {255, 7}},
      {{CL_R, CL_UNSIGNED_INT16}, {0x1234, 0, 0, 0}, {0x34, 0x12}},
      {{CL_R, CL_UNSIGNED_INT32}, {0xdeadbeef, 0, 0, 0}, {0xef, 0xbe, 0xad, 0xde}},
      {{CL_RG, CL_HALF_FLOAT}, {f(1.0f), f(-2.5f), 0, 0}, {0x00, 0x3c, 0x00, 0xc1}},
      {{CL_R, CL_FLOAT}, {f(3.5f), 0, 0, 0}, {0x00, 0x00, 0x60, 0x40}},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(testing::Message() << std::hex << c.format.image_channel_order << " "
                                    << c.format.image_channel_data_type);
    Mem img = image(CL_MEM_READ_WRITE, c.format, desc(CL_MEM_OBJECT_IMAGE2D, 6, 5));
    ASSERT_TRUE(img);
    const size_t es = c.bytes.size();
    const std::vector<uint8_t> before = pattern(6 * 5 * es, 9);
    const Triple zero = {0, 0, 0}, all = {6, 5, 1};
    ASSERT_CL(
        clEnqueueWriteImage(queue_, img, CL_FALSE, zero.data(), all.data(), 0, 0, before.data(), 0, nullptr, nullptr));
    const Triple origin = {1, 2, 0}, region = {4, 2, 1};
    ASSERT_CL(clEnqueueFillImage(queue_, img, c.color.data(), origin.data(), region.data(), 0, nullptr, nullptr));
    std::vector<uint8_t> back(before.size());
    ASSERT_CL(
        clEnqueueReadImage(queue_, img, CL_TRUE, zero.data(), all.data(), 0, 0, back.data(), 0, nullptr, nullptr));
    for (size_t y = 0; y < 5; ++y)
      for (size_t x = 0; x < 6; ++x) {
        const bool filled = x >= 1 && x < 5 && y >= 2 && y < 4;
        for (size_t b = 0; b < es; ++b)
          ASSERT_EQ(filled ? c.bytes[b] : before[(y * 6 + x) * es + b], back[(y * 6 + x) * es + b])
              << "texel " << x << "," << y << " byte " << b;
      }
  }
}

TEST_P(ImageTest, CopyBetweenImagesAndBuffers) {
  const cl_image_format format{CL_R, CL_UNSIGNED_INT32};
  Mem a = image(CL_MEM_READ_WRITE, format, desc(CL_MEM_OBJECT_IMAGE3D, 8, 6, 4));
  Mem b = image(CL_MEM_READ_WRITE, format, desc(CL_MEM_OBJECT_IMAGE2D, 10, 10));
  ASSERT_TRUE(a && b);
  std::vector<uint32_t> source(8 * 6 * 4);
  for (size_t i = 0; i < source.size(); ++i)
    source[i] = static_cast<uint32_t>(i * 7 + 1);
  const Triple zero = {0, 0, 0}, extentA = {8, 6, 4};
  ASSERT_CL(
      clEnqueueWriteImage(queue_, a, CL_FALSE, zero.data(), extentA.data(), 0, 0, source.data(), 0, nullptr, nullptr));
  std::vector<uint32_t> zeros(100, 0);
  const Triple extentB = {10, 10, 1};
  ASSERT_CL(
      clEnqueueWriteImage(queue_, b, CL_FALSE, zero.data(), extentB.data(), 0, 0, zeros.data(), 0, nullptr, nullptr));
  // Slice 2 of a, region 5x4 from (1,1), to (3,4) of b.
  const Triple srcOrigin = {1, 1, 2}, dstOrigin = {3, 4, 0}, region = {5, 4, 1};
  ASSERT_CL(clEnqueueCopyImage(queue_, a, b, srcOrigin.data(), dstOrigin.data(), region.data(), 0, nullptr, nullptr));
  // b -> buffer at byte offset 16, then buffer -> a's slice 0.
  Mem buf = buffer(CL_MEM_READ_WRITE, 16 + 100 * 4);
  ASSERT_CL(clEnqueueCopyImageToBuffer(queue_, b, buf, zero.data(), extentB.data(), 16, 0, nullptr, nullptr));
  const Triple region2 = {3, 2, 1};
  ASSERT_CL(clEnqueueCopyBufferToImage(queue_, buf, a, 16 + (4 * 10 + 3) * 4, zero.data(), region2.data(), 0, nullptr,
                                       nullptr));
  auto fromB = read<uint32_t>(buf, 100, 4);
  for (size_t y = 0; y < 10; ++y)
    for (size_t x = 0; x < 10; ++x) {
      const bool copied = x >= 3 && x < 8 && y >= 4 && y < 8;
      const uint32_t expected = copied ? source[2 * 48 + (y - 4 + 1) * 8 + (x - 3 + 1)] : 0;
      ASSERT_EQ(expected, fromB[y * 10 + x]) << x << "," << y;
    }
  std::vector<uint32_t> backA(source.size());
  ASSERT_CL(
      clEnqueueReadImage(queue_, a, CL_TRUE, zero.data(), extentA.data(), 0, 0, backA.data(), 0, nullptr, nullptr));
  // The buffer side is tightly packed: 3 texels a row.
  for (size_t y = 0; y < 2; ++y)
    for (size_t x = 0; x < 3; ++x)
      EXPECT_EQ(fromB[4 * 10 + 3 + y * 3 + x], backA[y * 8 + x]);
  EXPECT_EQ(source[5], backA[5]);
  // Overlap within one image and format mismatches are refused.
  const Triple o1 = {0, 0, 0}, o2 = {1, 1, 0}, r = {3, 3, 1};
  EXPECT_CL_ERR(CL_MEM_COPY_OVERLAP,
                clEnqueueCopyImage(queue_, b, b, o1.data(), o2.data(), r.data(), 0, nullptr, nullptr));
  Mem c = image(CL_MEM_READ_WRITE, {CL_R, CL_FLOAT}, desc(CL_MEM_OBJECT_IMAGE2D, 10, 10));
  EXPECT_CL_ERR(CL_IMAGE_FORMAT_MISMATCH,
                clEnqueueCopyImage(queue_, b, c, o1.data(), o1.data(), r.data(), 0, nullptr, nullptr));
  const Triple tooFar = {8, 0, 0};
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                clEnqueueCopyImage(queue_, b, a, tooFar.data(), o1.data(), r.data(), 0, nullptr, nullptr));
}

TEST_P(ImageTest, MapImage) {
  const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  Mem img = image(CL_MEM_READ_WRITE, format, desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 16, 8, 0, 2));
  ASSERT_TRUE(img);
  const auto data = pattern(16 * 8 * 2 * 4, 5);
  const Triple zero = {0, 0, 0}, all = {16, 8, 2};
  ASSERT_CL(clEnqueueWriteImage(queue_, img, CL_TRUE, zero.data(), all.data(), 0, 0, data.data(), 0, nullptr, nullptr));
  const Triple origin = {2, 3, 1}, region = {5, 4, 1};
  size_t rowPitch = 0, slicePitch = 0;
  cl_int err = CL_SUCCESS;
  auto *mapped =
      static_cast<uint8_t *>(clEnqueueMapImage(queue_, img, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, origin.data(),
                                               region.data(), &rowPitch, &slicePitch, 0, nullptr, nullptr, &err));
  ASSERT_CL(err);
  ASSERT_NE(nullptr, mapped);
  EXPECT_GE(rowPitch, 16u * 4);
  EXPECT_GE(slicePitch, rowPitch * 8);
  for (size_t y = 0; y < 4; ++y)
    for (size_t x = 0; x < 5 * 4; ++x) {
      ASSERT_EQ(data[((1 * 8 + 3 + y) * 16 + 2) * 4 + x], mapped[y * rowPitch + x]);
      mapped[y * rowPitch + x] = static_cast<uint8_t>(x + y);
    }
  cl_uint mapCount = 0;
  EXPECT_CL(clGetMemObjectInfo(img, CL_MEM_MAP_COUNT, sizeof(mapCount), &mapCount, nullptr));
  EXPECT_EQ(1u, mapCount);
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, img, mapped, 0, nullptr, nullptr));
  std::vector<uint8_t> back(data.size());
  ASSERT_CL(clEnqueueReadImage(queue_, img, CL_TRUE, zero.data(), all.data(), 0, 0, back.data(), 0, nullptr, nullptr));
  EXPECT_EQ(data[0], back[0]);
  EXPECT_EQ(uint8_t(3 + 2), back[((1 * 8 + 3 + 2) * 16 + 2) * 4 + 3]);
  // Without slice pitch for an array: invalid.
  mapped = static_cast<uint8_t *>(clEnqueueMapImage(queue_, img, CL_TRUE, CL_MAP_READ, origin.data(), region.data(),
                                                    &rowPitch, nullptr, 0, nullptr, nullptr, &err));
  EXPECT_EQ(nullptr, mapped);
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
}

TEST_P(ImageTest, BufferImageSharesTheBuffer) {
  const cl_image_format format{CL_RGBA, CL_FLOAT};
  std::vector<float> values(64 * 4);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = float(i) * 0.5f;
  Mem buf = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, values.size() * 4, values.data());
  cl_image_desc d = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 64);
  d.buffer = buf;
  Mem img = image(0, format, d);
  ASSERT_TRUE(img);
  cl_mem associated = nullptr;
  EXPECT_CL(clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(associated), &associated, nullptr));
  EXPECT_EQ(static_cast<cl_mem>(buf), associated);
  const float color[4] = {9, 8, 7, 6};
  const Triple origin = {10, 0, 0}, region = {2, 1, 1};
  ASSERT_CL(clEnqueueFillImage(queue_, img, color, origin.data(), region.data(), 0, nullptr, nullptr));
  auto back = read<float>(buf, values.size());
  EXPECT_EQ(values[39], back[39]);
  EXPECT_EQ(9.0f, back[40]);
  EXPECT_EQ(6.0f, back[47]);
  EXPECT_EQ(values[48], back[48]);
  // A row pitch may be given with the buffer (no host pointer).
  d.image_row_pitch = 64 * 16;
  Mem pitched = image(0, format, d);
  EXPECT_TRUE(pitched);
  d.image_row_pitch = 0;
  d.image_width = 65; // more texels than the buffer holds
  cl_int err = CL_SUCCESS;
  expectNoHandle(Mem(clCreateImage(context_, 0, &format, &d, nullptr, &err)));
  EXPECT_CL_ERR(CL_INVALID_IMAGE_SIZE, err);
}

TEST_P(ImageTest, SamplerObjects) {
  cl_int err = CL_SUCCESS;
  cl_sampler sampler = clCreateSampler(context_, CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR, &err);
  ASSERT_CL(err);
  cl_addressing_mode mode = 0;
  EXPECT_CL(clGetSamplerInfo(sampler, CL_SAMPLER_ADDRESSING_MODE, sizeof(mode), &mode, nullptr));
  EXPECT_EQ(cl_addressing_mode(CL_ADDRESS_MIRRORED_REPEAT), mode);
  cl_filter_mode filter = 0;
  EXPECT_CL(clGetSamplerInfo(sampler, CL_SAMPLER_FILTER_MODE, sizeof(filter), &filter, nullptr));
  EXPECT_EQ(cl_filter_mode(CL_FILTER_LINEAR), filter);
  EXPECT_CL(clRetainSampler(sampler));
  cl_uint refs = 0;
  EXPECT_CL(clGetSamplerInfo(sampler, CL_SAMPLER_REFERENCE_COUNT, sizeof(refs), &refs, nullptr));
  EXPECT_EQ(2u, refs);
  EXPECT_CL(clReleaseSampler(sampler));
  EXPECT_CL(clReleaseSampler(sampler));
  const cl_sampler_properties props[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0};
  sampler = clCreateSamplerWithProperties(context_, props, &err);
  ASSERT_CL(err);
  cl_bool normalized = CL_FALSE;
  EXPECT_CL(clGetSamplerInfo(sampler, CL_SAMPLER_NORMALIZED_COORDS, sizeof(normalized), &normalized, nullptr));
  EXPECT_EQ(cl_bool(CL_TRUE), normalized);
  cl_sampler_properties got[3] = {};
  size_t size = 0;
  EXPECT_CL(clGetSamplerInfo(sampler, CL_SAMPLER_PROPERTIES, sizeof(got), got, &size));
  EXPECT_EQ(sizeof(props), size);
  EXPECT_CL(clReleaseSampler(sampler));
  EXPECT_EQ(nullptr, clCreateSampler(context_, 7, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, &err));
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  EXPECT_CL_ERR(CL_INVALID_SAMPLER, clRetainSampler(nullptr));
}

CLTEST_INSTANTIATE(ImageTest);
CLTEST_INSTANTIATE(ImageSupportTest);
