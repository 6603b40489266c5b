// read_imageh and write_imageh (OpenCL 3.0 §6.15.15, offered where a device
// has both images and cl_khr_fp16): half texels read back bit for bit,
// normalized texels read as the half nearest their value, half colours
// written into half and normalized images, and a read_write image written
// and read in one kernel. References come from half_reference.h. It runs
// on OpenCL C programs and, as Spirv/ImageHalfTest, on SPIR-V programs.
#include "cl_test.h"
#include "half_reference.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using namespace cltest;
namespace ref = cltest::half_ref;

namespace {

constexpr size_t kWidth = 16, kHeight = 8, kTexels = kWidth * kHeight;

class ImageHalfTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!deviceInfo<cl_bool>(device(), CL_DEVICE_IMAGE_SUPPORT))
      GTEST_SKIP() << "the device has no images";
    if (!deviceHasExtension(device(), "cl_khr_fp16"))
      GTEST_SKIP() << "no cl_khr_fp16";
    flushesDenormals_ = !(deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_HALF_FP_CONFIG) & CL_FP_DENORM);
  }

  /// `got` is `expected`, or a zero for a denormal `expected` on a device
  /// without half denormals.
  bool sameHalf(uint16_t got, uint16_t expected) const {
    return got == expected || (flushesDenormals_ && (expected & 0x7c00) == 0 && (got & 0x7fff) == 0);
  }

  /// A kWidth x kHeight image, filled with `texels` where given.
  Mem image2d(cl_mem_flags flags, cl_image_format format, const void *texels = nullptr) {
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = kWidth;
    desc.image_height = kHeight;
    cl_int err = CL_SUCCESS;
    Mem mem(clCreateImage(context_, flags, &format, &desc, nullptr, &err));
    EXPECT_CL(err);
    if (mem && texels) {
      const size_t origin[3] = {0, 0, 0}, region[3] = {kWidth, kHeight, 1};
      EXPECT_CL(clEnqueueWriteImage(queue_, mem, CL_TRUE, origin, region, 0, 0, texels, 0, nullptr, nullptr));
    }
    return mem;
  }

  template <typename T> std::vector<T> readImage(cl_mem img, size_t perTexel) {
    std::vector<T> data(kTexels * perTexel);
    const size_t origin[3] = {0, 0, 0}, region[3] = {kWidth, kHeight, 1};
    EXPECT_CL(clEnqueueReadImage(queue_, img, CL_TRUE, origin, region, 0, 0, data.data(), 0, nullptr, nullptr));
    return data;
  }

  // The halves kernel read_h gives for every texel of `img`, three reads
  // each (see kSource), with a sampler of unnormalized coordinates, nearest
  // filtering and `address`; empty on a failure.
  std::vector<uint16_t> readEveryWay(cl_mem img, cl_addressing_mode address);

  bool flushesDenormals_ = false;

  void run2d(cl_kernel k) {
    const size_t global[2] = {kWidth, kHeight};
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 2, nullptr, global, nullptr, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queue_));
  }
};

const char *kSource = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// Three reads of each texel: without a sampler, and with a nearest sampler
// at integer and at float (texel centre) coordinates.
__kernel void read_h(read_only image2d_t img, sampler_t s, __global ushort4 *out) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  size_t i = c.y * get_image_width(img) + c.x;
  out[3 * i] = as_ushort4(read_imageh(img, c));
  out[3 * i + 1] = as_ushort4(read_imageh(img, s, c));
  out[3 * i + 2] = as_ushort4(read_imageh(img, s, convert_float2(c) + 0.5f));
}
__kernel void write_h(write_only image2d_t img, __global const ushort4 *colors) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  write_imageh(img, c, as_half4(colors[c.y * get_image_width(img) + c.x]));
}
)CLC";

// OpenCL C 3.0: read_write images and atomic_work_item_fence.
const char *kReadWriteSource = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void read_write_h(read_write image2d_t img, __global ushort4 *out) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  half4 v = read_imageh(img, c);
  write_imageh(img, c, v * (half)2.0f);
  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
  out[c.y * get_image_width(img) + c.x] = as_ushort4(read_imageh(img, c));
}
)CLC";

std::vector<uint16_t> ImageHalfTest::readEveryWay(cl_mem img, cl_addressing_mode address) {
  Program program = build(kSource);
  if (!program)
    return {};
  Kernel k = kernel(program, "read_h");
  const cl_sampler_properties properties[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                              CL_FALSE,
                                              CL_SAMPLER_ADDRESSING_MODE,
                                              address,
                                              CL_SAMPLER_FILTER_MODE,
                                              CL_FILTER_NEAREST,
                                              0};
  cl_int err = CL_SUCCESS;
  cl_sampler s = clCreateSamplerWithProperties(context_, properties, &err);
  EXPECT_CL(err);
  if (err != CL_SUCCESS)
    return {};
  Mem out = buffer(CL_MEM_WRITE_ONLY, kTexels * 3 * 8);
  setArgs(k, img, s, static_cast<cl_mem>(out));
  run2d(k);
  clReleaseSampler(s);
  return read<uint16_t>(out, kTexels * 12);
}

// Finite halves of every exponent, both signs, denormals included.
std::vector<uint16_t> randomHalves(size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<uint16_t> values(count);
  for (uint16_t &v : values) {
    do
      v = static_cast<uint16_t>(rng());
    while ((v & 0x7c00) == 0x7c00);
  }
  return values;
}

// The half nearest k/255: read_imagef computes the float value, which the
// half read rounds once more; either rounding of k/255 is accepted.
bool isUnormHalf(uint16_t got, unsigned k) {
  return got == ref::fromDouble(k / 255.0) || got == ref::fromDouble(static_cast<float>(k / 255.0));
}

TEST_P(ImageHalfTest, ReadImagehReturnsHalfTexelsExactly) {
  std::vector<uint16_t> texels = randomHalves(kTexels * 4, 11);
  Mem img = image2d(CL_MEM_READ_ONLY, {CL_RGBA, CL_HALF_FLOAT}, texels.data());
  ASSERT_TRUE(img);
  std::vector<uint16_t> got = readEveryWay(img, CL_ADDRESS_CLAMP_TO_EDGE);
  ASSERT_EQ(kTexels * 12, got.size());
  for (size_t t = 0; t < kTexels; ++t)
    for (size_t way = 0; way < 3; ++way)
      for (size_t c = 0; c < 4; ++c) {
        const uint16_t expected = texels[t * 4 + c];
        const uint16_t value = got[(t * 3 + way) * 4 + c];
        EXPECT_TRUE(sameHalf(value, expected))
            << "texel " << t << " read " << way << " channel " << c << ": " << std::hex << value << " for " << expected;
      }
}

TEST_P(ImageHalfTest, ReadImagehRoundsNormalizedTexels) {
  std::vector<uint8_t> texels(kTexels * 4);
  for (size_t i = 0; i < texels.size(); ++i)
    texels[i] = static_cast<uint8_t>(i * 37 + i / 7);
  Mem img = image2d(CL_MEM_READ_ONLY, {CL_RGBA, CL_UNORM_INT8}, texels.data());
  ASSERT_TRUE(img);
  std::vector<uint16_t> got = readEveryWay(img, CL_ADDRESS_NONE);
  ASSERT_EQ(kTexels * 12, got.size());
  for (size_t t = 0; t < kTexels; ++t)
    for (size_t way = 0; way < 3; ++way)
      for (size_t c = 0; c < 4; ++c)
        EXPECT_TRUE(isUnormHalf(got[(t * 3 + way) * 4 + c], texels[t * 4 + c]))
            << "texel " << t << " read " << way << " channel " << c << ": " << std::hex << got[(t * 3 + way) * 4 + c]
            << " for " << std::dec << unsigned(texels[t * 4 + c]) << "/255";
}

TEST_P(ImageHalfTest, WriteImagehStoresHalfColours) {
  std::vector<uint16_t> colors = randomHalves(kTexels * 4, 12);
  Program program = build(kSource);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "write_h");
  Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, colors.size() * 2, colors.data());

  // Into half texels: the same bits (denormals may be flushed where the
  // device has none).
  Mem halfImage = image2d(CL_MEM_WRITE_ONLY, {CL_RGBA, CL_HALF_FLOAT});
  ASSERT_TRUE(halfImage);
  setArgs(k, static_cast<cl_mem>(halfImage), static_cast<cl_mem>(in));
  run2d(k);
  std::vector<uint16_t> halves = readImage<uint16_t>(halfImage, 4);
  for (size_t i = 0; i < halves.size(); ++i) {
    EXPECT_TRUE(sameHalf(halves[i], colors[i]))
        << "channel value " << i << ": " << std::hex << halves[i] << " for " << colors[i];
  }

  // Into normalized texels: round(255 v) to nearest even, saturated
  // (OpenCL 3.0 §8.3.1.1; 255 v is exact in float for a half v).
  Mem unormImage = image2d(CL_MEM_WRITE_ONLY, {CL_RGBA, CL_UNORM_INT8});
  ASSERT_TRUE(unormImage);
  setArgs(k, static_cast<cl_mem>(unormImage), static_cast<cl_mem>(in));
  run2d(k);
  std::vector<uint8_t> bytes = readImage<uint8_t>(unormImage, 4);
  for (size_t i = 0; i < bytes.size(); ++i) {
    const double scaled = std::clamp(ref::toDouble(colors[i]) * 255.0, 0.0, 255.0);
    EXPECT_EQ(static_cast<unsigned>(std::nearbyint(scaled)), bytes[i])
        << "channel value " << i << " = " << ref::toDouble(colors[i]);
  }
}

TEST_P(ImageHalfTest, ReadWriteImageReadsItsOwnHalfWrite) {
  if (deviceInfo<cl_uint>(device(), CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) == 0)
    GTEST_SKIP() << "no read_write images";
  std::vector<uint16_t> texels(kTexels * 4);
  for (size_t i = 0; i < texels.size(); ++i)
    texels[i] = ref::fromDouble(static_cast<double>(i % 97) * 0.375 - 11.0);
  Mem img = image2d(CL_MEM_READ_WRITE, {CL_RGBA, CL_HALF_FLOAT}, texels.data());
  ASSERT_TRUE(img);
  Program program = build(kReadWriteSource, "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "read_write_h");
  Mem out = buffer(CL_MEM_WRITE_ONLY, kTexels * 8);
  setArgs(k, static_cast<cl_mem>(img), static_cast<cl_mem>(out));
  run2d(k);
  std::vector<uint16_t> got = read<uint16_t>(out, kTexels * 4);
  std::vector<uint16_t> stored = readImage<uint16_t>(img, 4);
  for (size_t i = 0; i < got.size(); ++i) {
    const uint16_t doubled = ref::fromDouble(2.0 * ref::toDouble(texels[i]));
    EXPECT_EQ(doubled, got[i]) << "channel value " << i;
    EXPECT_EQ(doubled, stored[i]) << "channel value " << i;
  }
}

CLTEST_INSTANTIATE(ImageHalfTest);
CLTEST_INSTANTIATE_SPIRV(ImageHalfTest);

} // namespace
