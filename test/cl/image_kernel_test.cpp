// Kernels on images: read_image* with every sampler mode against a host
// reference of the specification's addressing and filtering rules (OpenCL
// 3.0 §8.2), sampler-less reads of every image type, write_image* with the
// channel conversions, read_write images, the image queries, and the
// clSetKernelArg checks of image and sampler arguments. It runs on OpenCL C
// programs and, as Spirv/ImageKernelTest, on SPIR-V programs made from the
// same sources.
#include "cl_test.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>

using namespace cltest;

namespace {

using Triple = std::array<size_t, 3>;
using Float4 = std::array<float, 4>;

class ImageKernelTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!deviceInfo<cl_bool>(device(), CL_DEVICE_IMAGE_SUPPORT))
      GTEST_SKIP() << "the device has no images";
  }

  Mem image(cl_mem_flags flags, cl_image_format format, cl_mem_object_type type, Triple size, size_t layers = 0) {
    cl_image_desc desc{};
    desc.image_type = type;
    desc.image_width = size[0];
    desc.image_height = size[1];
    desc.image_depth = size[2];
    desc.image_array_size = layers;
    cl_int err = CL_SUCCESS;
    Mem mem(clCreateImage(context_, flags, &format, &desc, nullptr, &err));
    EXPECT_CL(err);
    return mem;
  }

  void write(cl_mem img, Triple region, const void *data) {
    const Triple zero = {0, 0, 0};
    EXPECT_CL(clEnqueueWriteImage(queue_, img, CL_TRUE, zero.data(), region.data(), 0, 0, data, 0, nullptr, nullptr));
  }

  void run(cl_kernel k, size_t items) {
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &items, nullptr, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queue_));
  }
};

// ---- The host reference sampler (2D, float texels) -------------------------

struct Sampler {
  bool normalized;
  cl_addressing_mode address;
  cl_filter_mode filter;
};

struct Texels {
  int width, height;
  std::vector<Float4> data;
  bool noAlpha; // border (0,0,0,1) instead of (0,0,0,0)
  Float4 at(int x, int y, bool &outside) const {
    if (x < 0 || x >= width || y < 0 || y >= height) {
      outside = true;
      return {0, 0, 0, noAlpha ? 1.0f : 0.0f};
    }
    return data[size_t(y) * width + x];
  }
};

float frac(float v) { return v - std::floor(v); }

// One axis: the texel indices (two for linear) and the weight of the second.
struct Axis {
  int i0, i1;
  float a;
};

Axis axis(const Sampler &s, float coord, int size) {
  float u;
  if (s.address == CL_ADDRESS_REPEAT)
    u = (coord - std::floor(coord)) * size;
  else if (s.address == CL_ADDRESS_MIRRORED_REPEAT)
    u = std::fabs(coord - 2.0f * std::rint(0.5f * coord)) * size;
  else
    u = s.normalized ? coord * size : coord;
  Axis r{};
  if (s.filter == CL_FILTER_NEAREST) {
    int i = static_cast<int>(std::floor(u));
    if (s.address == CL_ADDRESS_REPEAT && i > size - 1)
      i -= size;
    if (s.address == CL_ADDRESS_MIRRORED_REPEAT)
      i = std::min(i, size - 1);
    if (s.address == CL_ADDRESS_CLAMP_TO_EDGE)
      i = std::clamp(i, 0, size - 1);
    r.i0 = r.i1 = i;
    return r;
  }
  r.i0 = static_cast<int>(std::floor(u - 0.5f));
  r.i1 = r.i0 + 1;
  r.a = frac(u - 0.5f);
  if (s.address == CL_ADDRESS_REPEAT) {
    if (r.i0 < 0)
      r.i0 += size;
    if (r.i1 > size - 1)
      r.i1 -= size;
  } else if (s.address == CL_ADDRESS_MIRRORED_REPEAT) {
    r.i0 = std::max(r.i0, 0);
    r.i1 = std::min(r.i1, size - 1);
  } else if (s.address == CL_ADDRESS_CLAMP_TO_EDGE) {
    r.i0 = std::clamp(r.i0, 0, size - 1);
    r.i1 = std::clamp(r.i1, 0, size - 1);
  }
  return r;
}

// The texel colour at (x, y); `outside` says a tap left the image (the result
// of CL_ADDRESS_NONE is then undefined).
Float4 sample(const Texels &t, const Sampler &s, float x, float y, bool &outside) {
  const Axis ax = axis(s, x, t.width), ay = axis(s, y, t.height);
  if (s.filter == CL_FILTER_NEAREST)
    return t.at(ax.i0, ay.i0, outside);
  Float4 r{};
  const Float4 t00 = t.at(ax.i0, ay.i0, outside), t10 = t.at(ax.i1, ay.i0, outside);
  const Float4 t01 = t.at(ax.i0, ay.i1, outside), t11 = t.at(ax.i1, ay.i1, outside);
  for (int c = 0; c < 4; ++c)
    r[c] = (1 - ax.a) * (1 - ay.a) * t00[c] + ax.a * (1 - ay.a) * t10[c] + (1 - ax.a) * ay.a * t01[c] +
           ax.a * ay.a * t11[c];
  return r;
}

const char *kSampledSource = R"CLC(
kernel void sampled(read_only image2d_t img, sampler_t s, global const float2 *coords, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(img, s, coords[i]);
}
constant sampler_t kConstant = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
kernel void constant_sampler(read_only image2d_t img, global const float2 *coords, global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(img, kConstant, coords[i]);
}
)CLC";

} // namespace

TEST_P(ImageKernelTest, SampledReadsFollowTheReference) {
  Texels texels{5, 4, {}, false};
  for (int i = 0; i < 20; ++i)
    texels.data.push_back({float(i), float(i * i) * 0.25f, float(20 - i), 1.0f + 0.5f * float(i % 3)});
  Mem img = image(CL_MEM_READ_ONLY, {CL_RGBA, CL_FLOAT}, CL_MEM_OBJECT_IMAGE2D, {5, 4, 0});
  ASSERT_TRUE(img);
  write(img, {5, 4, 1}, texels.data.data());
  Program program = build(kSampledSource);
  ASSERT_TRUE(program);
  Kernel sampled = kernel(program, "sampled");
  Kernel constantSampler = kernel(program, "constant_sampler");

  // Coordinates between texel edges (nearest is then unambiguous), inside,
  // outside and far outside, for both coordinate kinds.
  const std::vector<std::array<float, 2>> unnormalized = {{0.3f, 0.2f},  {2.6f, 1.3f}, {4.9f, 3.7f}, {-0.7f, 2.2f},
                                                          {5.4f, -1.2f}, {1.8f, 6.6f}, {2.2f, 2.8f}, {-3.3f, -2.6f},
                                                          {0.9f, 3.4f},  {4.45f, 0.6f}};
  std::vector<std::array<float, 2>> normalized;
  for (auto c : unnormalized)
    normalized.push_back({c[0] / 5.0f, c[1] / 4.0f});
  normalized.push_back({1.33f, -0.41f});
  normalized.push_back({-2.61f, 2.27f});
  normalized.push_back({0.47f, 1.61f});

  for (bool norm : {false, true}) {
    const auto &coords = norm ? normalized : unnormalized;
    Mem coordBuf = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, coords.size() * 8,
                          const_cast<void *>(static_cast<const void *>(coords.data())));
    Mem out = buffer(CL_MEM_WRITE_ONLY, coords.size() * 16);
    for (cl_addressing_mode address :
         {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT}) {
      if (!norm && (address == CL_ADDRESS_REPEAT || address == CL_ADDRESS_MIRRORED_REPEAT))
        continue; // only with normalized coordinates
      for (cl_filter_mode filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
        SCOPED_TRACE(testing::Message() << "normalized " << norm << " address " << std::hex << address << " filter "
                                        << filter);
        cl_int err = CL_SUCCESS;
        cl_sampler s = clCreateSampler(context_, norm, address, filter, &err);
        ASSERT_CL(err);
        setArgs(sampled, static_cast<cl_mem>(img), s, static_cast<cl_mem>(coordBuf), static_cast<cl_mem>(out));
        run(sampled, coords.size());
        clReleaseSampler(s);
        auto got = read<float>(out, coords.size() * 4);
        for (size_t i = 0; i < coords.size(); ++i) {
          bool outside = false;
          const Float4 expected = sample(texels, {norm, address, filter}, coords[i][0], coords[i][1], outside);
          if (address == CL_ADDRESS_NONE && outside)
            continue; // undefined
          for (int c = 0; c < 4; ++c)
            EXPECT_NEAR(expected[c], got[i * 4 + c], 1e-3f * (1 + std::fabs(expected[c])))
                << "coordinate (" << coords[i][0] << ", " << coords[i][1] << ") channel " << c;
        }
      }
    }
    if (norm) {
      setArgs(constantSampler, static_cast<cl_mem>(img), static_cast<cl_mem>(coordBuf), static_cast<cl_mem>(out));
      run(constantSampler, coords.size());
      auto got = read<float>(out, coords.size() * 4);
      for (size_t i = 0; i < coords.size(); ++i) {
        bool outside = false;
        const Float4 expected =
            sample(texels, {true, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR}, coords[i][0], coords[i][1], outside);
        for (int c = 0; c < 4; ++c)
          EXPECT_NEAR(expected[c], got[i * 4 + c], 1e-3f * (1 + std::fabs(expected[c]))) << "constant sampler " << i;
      }
    }
  }
}

// Every image type read without a sampler and with an integer-coordinate
// sampler: each texel holds its own coordinates.
TEST_P(ImageKernelTest, IntegerReadsOfEveryType) {
  const char *source = R"CLC(
const sampler_t kClamp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
kernel void r1(read_only image1d_t img, global uint4 *out) {
  int x = get_global_id(0);
  out[x] = read_imageui(img, x) + read_imageui(img, kClamp, x);
}
kernel void r1b(read_only image1d_buffer_t img, global uint4 *out) {
  int x = get_global_id(0);
  out[x] = read_imageui(img, x) * 2;
}
kernel void r1a(read_only image1d_array_t img, int w, global uint4 *out) {
  int i = get_global_id(0);
  int2 c = (int2)(i % w, i / w);
  out[i] = read_imageui(img, c) + read_imageui(img, kClamp, c);
}
kernel void r2a(read_only image2d_array_t img, int w, int h, global uint4 *out) {
  int i = get_global_id(0);
  int4 c = (int4)(i % w, i / w % h, i / (w * h), 0);
  out[i] = read_imageui(img, c) + read_imageui(img, kClamp, c);
}
kernel void r3(read_only image3d_t img, int w, int h, global uint4 *out) {
  int i = get_global_id(0);
  int4 c = (int4)(i % w, i / w % h, i / (w * h), 0);
  out[i] = read_imageui(img, c) + read_imageui(img, kClamp, c);
}
kernel void border(read_only image2d_t img, global uint4 *out) {
  out[0] = read_imageui(img, kClamp, (int2)(-1, 0));
  out[1] = read_imageui(img, kClamp, (int2)(0, 9));
}
)CLC";
  Program program = build(source);
  ASSERT_TRUE(program);
  const cl_image_format format{CL_RGBA, CL_UNSIGNED_INT32};
  auto texels = [](Triple size) {
    std::vector<std::array<uint32_t, 4>> v;
    for (size_t z = 0; z < size[2]; ++z)
      for (size_t y = 0; y < size[1]; ++y)
        for (size_t x = 0; x < size[0]; ++x)
          v.push_back({uint32_t(x), uint32_t(y), uint32_t(z), 7});
    return v;
  };
  auto check = [&](cl_mem out, Triple size, uint32_t factor) {
    const size_t n = size[0] * size[1] * size[2];
    auto got = read<uint32_t>(out, n * 4);
    const auto expected = texels(size);
    for (size_t i = 0; i < n; ++i)
      for (int c = 0; c < 4; ++c)
        ASSERT_EQ(expected[i][c] * factor, got[i * 4 + c]) << "texel " << i << " channel " << c;
  };
  const int w = 7, h = 3, d = 4;
  Mem out = buffer(CL_MEM_WRITE_ONLY, w * h * d * 16);
  {
    Mem img = image(CL_MEM_READ_ONLY, format, CL_MEM_OBJECT_IMAGE1D, {w, 0, 0});
    write(img, {w, 1, 1}, texels({w, 1, 1}).data());
    Kernel k = kernel(program, "r1");
    setArgs(k, static_cast<cl_mem>(img), static_cast<cl_mem>(out));
    run(k, w);
    check(out, {w, 1, 1}, 2);
  }
  {
    Mem buf = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, w * 16, texels({w, 1, 1}).data());
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    desc.image_width = w;
    desc.buffer = buf;
    cl_int err = CL_SUCCESS;
    Mem img(clCreateImage(context_, CL_MEM_READ_ONLY, &format, &desc, nullptr, &err));
    ASSERT_CL(err);
    Kernel k = kernel(program, "r1b");
    setArgs(k, static_cast<cl_mem>(img), static_cast<cl_mem>(out));
    run(k, w);
    check(out, {w, 1, 1}, 2);
  }
  {
    Mem img = image(CL_MEM_READ_ONLY, format, CL_MEM_OBJECT_IMAGE1D_ARRAY, {w, 0, 0}, h);
    // Layers are the second coordinate: y of the texel pattern.
    write(img, {w, h, 1}, texels({w, h, 1}).data());
    Kernel k = kernel(program, "r1a");
    setArgs(k, static_cast<cl_mem>(img), w, static_cast<cl_mem>(out));
    run(k, w * h);
    check(out, {w, h, 1}, 2);
  }
  {
    Mem img = image(CL_MEM_READ_ONLY, format, CL_MEM_OBJECT_IMAGE2D_ARRAY, {w, h, 0}, d);
    write(img, {w, h, size_t(d)}, texels({w, h, size_t(d)}).data());
    Kernel k = kernel(program, "r2a");
    setArgs(k, static_cast<cl_mem>(img), w, h, static_cast<cl_mem>(out));
    run(k, w * h * d);
    check(out, {w, h, size_t(d)}, 2);
  }
  {
    Mem img = image(CL_MEM_READ_ONLY, format, CL_MEM_OBJECT_IMAGE3D, {w, h, size_t(d)});
    write(img, {w, h, size_t(d)}, texels({w, h, size_t(d)}).data());
    Kernel k = kernel(program, "r3");
    setArgs(k, static_cast<cl_mem>(img), w, h, static_cast<cl_mem>(out));
    run(k, w * h * d);
    check(out, {w, h, size_t(d)}, 2);
  }
  {
    // CL_ADDRESS_CLAMP outside an RGBA image: the border colour (0, 0, 0, 0).
    Mem img = image(CL_MEM_READ_ONLY, format, CL_MEM_OBJECT_IMAGE2D, {w, h, 0});
    write(img, {w, h, 1}, texels({w, h, 1}).data());
    Kernel k = kernel(program, "border");
    setArgs(k, static_cast<cl_mem>(img), static_cast<cl_mem>(out));
    run(k, 1);
    auto got = read<uint32_t>(out, 8);
    for (uint32_t v : got)
      EXPECT_EQ(0u, v);
  }
}

// Trilinear filtering of a 3D image, and half texels read as float.
TEST_P(ImageKernelTest, LinearFilteringIn3DAndHalfTexels) {
  const char *source = R"CLC(
const sampler_t kLinear = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
kernel void trilinear(read_only image3d_t img, global float4 *out) {
  out[0] = read_imagef(img, kLinear, (float4)(1.25f, 1.5f, 1.75f, 0.0f));
  out[1] = read_imagef(img, kLinear, (float4)(0.0f, 0.0f, 0.0f, 0.0f));
}
kernel void halves(read_only image2d_t img, global float4 *out) {
  out[get_global_id(0)] = read_imagef(img, (int2)(get_global_id(0), 0));
}
)CLC";
  Program program = build(source);
  ASSERT_TRUE(program);
  // Texel value = x + 10 y + 100 z (a linear function: trilinear filtering
  // reproduces it exactly inside the image).
  std::vector<float> texels;
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 3; ++x)
        texels.push_back(float(x + 10 * y + 100 * z));
  Mem img = image(CL_MEM_READ_ONLY, {CL_R, CL_FLOAT}, CL_MEM_OBJECT_IMAGE3D, {3, 3, 3});
  write(img, {3, 3, 3}, texels.data());
  Mem out = buffer(CL_MEM_WRITE_ONLY, 64);
  Kernel k = kernel(program, "trilinear");
  setArgs(k, static_cast<cl_mem>(img), static_cast<cl_mem>(out));
  run(k, 1);
  auto got = read<float>(out, 8);
  EXPECT_NEAR(0.75f + 10 * 1.0f + 100 * 1.25f, got[0], 1e-3f);
  EXPECT_EQ(0.0f, got[1]);
  EXPECT_EQ(0.0f, got[5]);
  EXPECT_EQ(1.0f, got[3]); // CL_R: alpha 1
  EXPECT_EQ(1.0f, got[7]);

  const uint16_t halves[8] = {0x3c00, 0xc000, 0x3800, 0x7c00, 0x0001, 0x0000, 0x4248, 0xbc00}; // 1 -2 .5 inf ...
  Mem himg = image(CL_MEM_READ_ONLY, {CL_RG, CL_HALF_FLOAT}, CL_MEM_OBJECT_IMAGE2D, {4, 1, 0});
  write(himg, {4, 1, 1}, halves);
  Kernel hk = kernel(program, "halves");
  setArgs(hk, static_cast<cl_mem>(himg), static_cast<cl_mem>(out));
  run(hk, 4);
  auto h = read<float>(out, 16);
  EXPECT_EQ(1.0f, h[0]);
  EXPECT_EQ(-2.0f, h[1]);
  EXPECT_EQ(0.0f, h[2]);
  EXPECT_EQ(1.0f, h[3]);
  EXPECT_EQ(0.5f, h[4]);
  EXPECT_TRUE(std::isinf(h[5]));
  EXPECT_EQ(std::ldexp(1.0f, -24), h[8]);
  EXPECT_EQ(3.140625f, h[12]);
  EXPECT_EQ(-1.0f, h[13]);
}

// write_imagef / i / ui with their conversions, read back byte for byte.
TEST_P(ImageKernelTest, WritesConvertToTheChannelType) {
  const char *source = R"CLC(
kernel void wf(write_only image2d_t img, global const float4 *colors) {
  int i = get_global_id(0);
  write_imagef(img, (int2)(i % 4, i / 4), colors[i]);
}
kernel void wi(write_only image2d_array_t img, global const int4 *colors) {
  int i = get_global_id(0);
  write_imagei(img, (int4)(i % 2, 0, i / 2, 0), colors[i]);
}
kernel void wu(write_only image3d_t img, global const uint4 *colors) {
  int i = get_global_id(0);
  write_imageui(img, (int4)(0, 0, i, 0), colors[i]);
}
)CLC";
  Program program = build(source);
  ASSERT_TRUE(program);
  {
    const std::vector<Float4> colors = {{0.0f, 1.0f, 0.5f, 2.0f}, {-1.0f, 0.25f, 0.75f, 1.0f},
                                        {0.1f, 0.2f, 0.3f, 0.4f}, {NAN, 0.998f, 0.002f, 0.5019608f},
                                        {1.0f, 1.0f, 1.0f, 1.0f}, {0.0f, 0.0f, 0.0f, 0.0f},
                                        {0.6f, 0.7f, 0.8f, 0.9f}, {0.01f, 0.02f, 0.03f, 0.04f}};
    Mem img = image(CL_MEM_WRITE_ONLY, {CL_BGRA, CL_UNORM_INT8}, CL_MEM_OBJECT_IMAGE2D, {4, 2, 0});
    Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, colors.size() * 16, const_cast<Float4 *>(colors.data()));
    Kernel k = kernel(program, "wf");
    setArgs(k, static_cast<cl_mem>(img), static_cast<cl_mem>(in));
    run(k, colors.size());
    std::vector<uint8_t> back(colors.size() * 4);
    const Triple zero = {0, 0, 0}, region = {4, 2, 1};
    ASSERT_CL(
        clEnqueueReadImage(queue_, img, CL_TRUE, zero.data(), region.data(), 0, 0, back.data(), 0, nullptr, nullptr));
    auto unorm = [](float v) -> uint8_t {
      if (std::isnan(v))
        return 0;
      return static_cast<uint8_t>(std::nearbyint(std::clamp(v, 0.0f, 1.0f) * 255.0f));
    };
    for (size_t i = 0; i < colors.size(); ++i) {
      // BGRA in memory.
      EXPECT_EQ(unorm(colors[i][2]), back[i * 4 + 0]) << i;
      EXPECT_EQ(unorm(colors[i][1]), back[i * 4 + 1]) << i;
      EXPECT_EQ(unorm(colors[i][0]), back[i * 4 + 2]) << i;
      EXPECT_EQ(unorm(colors[i][3]), back[i * 4 + 3]) << i;
    }
  }
  {
    const std::vector<std::array<int32_t, 4>> colors = {
        {5, 0, 0, 0}, {-40000, 0, 0, 0}, {40000, 1, 2, 3}, {-7, 0, 0, 0}};
    Mem img = image(CL_MEM_WRITE_ONLY, {CL_R, CL_SIGNED_INT16}, CL_MEM_OBJECT_IMAGE2D_ARRAY, {2, 1, 0}, 2);
    Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, colors.size() * 16,
                    const_cast<std::array<int32_t, 4> *>(colors.data()));
    Kernel k = kernel(program, "wi");
    setArgs(k, static_cast<cl_mem>(img), static_cast<cl_mem>(in));
    run(k, colors.size());
    std::vector<int16_t> back(4);
    const Triple zero = {0, 0, 0}, region = {2, 1, 2};
    ASSERT_CL(
        clEnqueueReadImage(queue_, img, CL_TRUE, zero.data(), region.data(), 0, 0, back.data(), 0, nullptr, nullptr));
    EXPECT_EQ((std::vector<int16_t>{5, -32768, 32767, -7}), back);
  }
  {
    const std::vector<std::array<uint32_t, 4>> colors = {{1, 2, 3, 4}, {300, 255, 0, 0}, {0, 70000, 9, 9}};
    Mem img = image(CL_MEM_WRITE_ONLY, {CL_RG, CL_UNSIGNED_INT8}, CL_MEM_OBJECT_IMAGE3D, {1, 1, 3});
    Mem in = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, colors.size() * 16,
                    const_cast<std::array<uint32_t, 4> *>(colors.data()));
    Kernel k = kernel(program, "wu");
    setArgs(k, static_cast<cl_mem>(img), static_cast<cl_mem>(in));
    run(k, colors.size());
    std::vector<uint8_t> back(6);
    const Triple zero = {0, 0, 0}, region = {1, 1, 3};
    ASSERT_CL(
        clEnqueueReadImage(queue_, img, CL_TRUE, zero.data(), region.data(), 0, 0, back.data(), 0, nullptr, nullptr));
    EXPECT_EQ((std::vector<uint8_t>{1, 2, 255, 255, 0, 255}), back);
  }
}

// Every value of the four normalized channel types read with read_imagef:
// within 1.5 ulp of the quotient and exactly +-1.0 and 0.0 at the ends, as
// §8.3.1.1 asks (the ends were 1 ulp short on a GPU whose division is
// inexact).
TEST_P(ImageKernelTest, NormalizedReadsAreExactAtTheEnds) {
  const char *source = R"CLC(
kernel void r(read_only image2d_t img, global float *out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_image_width(img) + x] = read_imagef(img, (int2)(x, y)).x;
}
)CLC";
  Program program = build(source);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "r");
  struct Case {
    cl_channel_type type;
    int lowest, highest, divisor;
    size_t bytes;
  };
  for (Case c : {Case{CL_UNORM_INT8, 0, 255, 255, 1}, Case{CL_UNORM_INT16, 0, 65535, 65535, 2},
                 Case{CL_SNORM_INT8, -128, 127, 127, 1}, Case{CL_SNORM_INT16, -32768, 32767, 32767, 2}}) {
    const size_t count = static_cast<size_t>(c.highest - c.lowest + 1);
    const size_t width = 256, height = count / width;
    std::vector<unsigned char> texels(count * c.bytes);
    for (size_t i = 0; i < count; ++i) {
      const int value = c.lowest + static_cast<int>(i);
      std::memcpy(&texels[i * c.bytes], &value, c.bytes); // little-endian low bytes
    }
    Mem img = image(CL_MEM_READ_ONLY, {CL_R, c.type}, CL_MEM_OBJECT_IMAGE2D, {width, height, 0});
    write(img, {width, height, 1}, texels.data());
    Mem out = buffer(CL_MEM_WRITE_ONLY, count * sizeof(float));
    setArgs(k, static_cast<cl_mem>(img), static_cast<cl_mem>(out));
    const size_t global[2] = {width, height};
    ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 2, nullptr, global, nullptr, 0, nullptr, nullptr));
    std::vector<float> got = read<float>(out, count);
    for (size_t i = 0; i < count; ++i) {
      const int value = c.lowest + static_cast<int>(i);
      const double exact = std::max(static_cast<double>(value) / c.divisor, -1.0);
      if (value == 0 || std::fabs(exact) == 1.0) {
        ASSERT_EQ(static_cast<float>(exact), got[i])
            << "channel type 0x" << std::hex << c.type << std::dec << ", value " << value;
        continue;
      }
      const float rounded = static_cast<float>(exact);
      const double ulp = std::nextafter(std::fabs(rounded), INFINITY) - std::fabs(rounded);
      ASSERT_LE(std::fabs(got[i] - exact), 1.5 * ulp)
          << "channel type 0x" << std::hex << c.type << std::dec << ", value " << value << ": " << got[i];
    }
  }
}

TEST_P(ImageKernelTest, ReadWriteImage) {
  if (deviceInfo<cl_uint>(device(), CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) == 0)
    GTEST_SKIP() << "no read_write images";
  const char *source = R"CLC(
kernel void bump(read_write image1d_t img) {
  int x = get_global_id(0);
  int4 v = read_imagei(img, x);
  write_imagei(img, x, v + (int4)(1, 2, 3, 4));
}
)CLC";
  Program program = build(source, "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  std::vector<int32_t> texels(16 * 4);
  for (size_t i = 0; i < texels.size(); ++i)
    texels[i] = int32_t(i) - 20;
  Mem img = image(CL_MEM_READ_WRITE, {CL_RGBA, CL_SIGNED_INT32}, CL_MEM_OBJECT_IMAGE1D, {16, 0, 0});
  write(img, {16, 1, 1}, texels.data());
  Kernel k = kernel(program, "bump");
  setArgs(k, static_cast<cl_mem>(img));
  run(k, 16);
  std::vector<int32_t> back(texels.size());
  const Triple zero = {0, 0, 0}, region = {16, 1, 1};
  ASSERT_CL(
      clEnqueueReadImage(queue_, img, CL_TRUE, zero.data(), region.data(), 0, 0, back.data(), 0, nullptr, nullptr));
  for (size_t i = 0; i < texels.size(); ++i)
    EXPECT_EQ(texels[i] + int32_t(i % 4 + 1), back[i]) << i;
}

TEST_P(ImageKernelTest, Queries) {
  const char *source = R"CLC(
kernel void q2a(read_only image2d_array_t img, global int *out) {
  out[0] = get_image_width(img);
  out[1] = get_image_height(img);
  out[2] = (int)get_image_array_size(img);
  out[3] = get_image_dim(img).x * 1000 + get_image_dim(img).y;
  out[4] = get_image_channel_order(img);
  out[5] = get_image_channel_data_type(img);
}
kernel void q3(write_only image3d_t img, global int *out) {
  out[0] = get_image_width(img);
  out[1] = get_image_height(img);
  out[2] = get_image_depth(img);
  int4 d = get_image_dim(img);
  out[3] = d.x * 10000 + d.y * 100 + d.z;
  out[4] = get_image_channel_order(img);
  out[5] = get_image_channel_data_type(img);
}
kernel void q1a(read_only image1d_array_t img, global int *out) {
  out[0] = get_image_width(img);
  out[1] = 0;
  out[2] = (int)get_image_array_size(img);
  out[3] = 0;
  out[4] = get_image_channel_order(img) == CLK_RG;
  out[5] = get_image_channel_data_type(img) == CLK_SNORM_INT16;
}
)CLC";
  Program program = build(source);
  ASSERT_TRUE(program);
  // Clang 22's SPIR-V back end writes get_image_channel_data_type as a bare
  // OpImageQueryFormat, whose result is SPIR-V's Image Channel Data Type
  // (CL_* less 0x10D0), where the Khronos translator adds 0x10D0 back
  // (IlProgramTest.ImageQueriesAsTheTranslatorWritesThem).
  const int dataTypeBase = spirvRun() ? 0x10D0 : 0;
  Mem out = buffer(CL_MEM_WRITE_ONLY, 6 * 4);
  Mem a = image(CL_MEM_READ_ONLY, {CL_RGBA, CL_HALF_FLOAT}, CL_MEM_OBJECT_IMAGE2D_ARRAY, {9, 5, 0}, 3);
  Kernel k = kernel(program, "q2a");
  setArgs(k, static_cast<cl_mem>(a), static_cast<cl_mem>(out));
  run(k, 1);
  EXPECT_EQ((std::vector<int>{9, 5, 3, 9005, CL_RGBA, CL_HALF_FLOAT - dataTypeBase}), read<int>(out, 6));
  Mem b = image(CL_MEM_WRITE_ONLY, {CL_R, CL_UNSIGNED_INT8}, CL_MEM_OBJECT_IMAGE3D, {11, 6, 4});
  Kernel k3 = kernel(program, "q3");
  setArgs(k3, static_cast<cl_mem>(b), static_cast<cl_mem>(out));
  run(k3, 1);
  EXPECT_EQ((std::vector<int>{11, 6, 4, 110604, CL_R, CL_UNSIGNED_INT8 - dataTypeBase}), read<int>(out, 6));
  Mem c = image(CL_MEM_READ_ONLY, {CL_RG, CL_SNORM_INT16}, CL_MEM_OBJECT_IMAGE1D_ARRAY, {13, 0, 0}, 2);
  Kernel k1 = kernel(program, "q1a");
  setArgs(k1, static_cast<cl_mem>(c), static_cast<cl_mem>(out));
  run(k1, 1);
  EXPECT_EQ((std::vector<int>{13, 0, 2, 0, 1, spirvRun() ? 0 : 1}), read<int>(out, 6));
}

TEST_P(ImageKernelTest, ArgumentChecks) {
  Program program = build(kSampledSource, "-cl-kernel-arg-info");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "sampled");
  Mem buf = buffer(CL_MEM_READ_WRITE, 64);
  cl_mem bufHandle = buf;
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof(cl_mem), &bufHandle));
  Mem writeOnly = image(CL_MEM_WRITE_ONLY, {CL_RGBA, CL_FLOAT}, CL_MEM_OBJECT_IMAGE2D, {2, 2, 0});
  cl_mem woHandle = writeOnly;
  EXPECT_CL_ERR(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 0, sizeof(cl_mem), &woHandle));
  EXPECT_CL_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 0, 4, &woHandle));
  cl_sampler notASampler = reinterpret_cast<cl_sampler>(bufHandle);
  EXPECT_CL_ERR(CL_INVALID_SAMPLER, clSetKernelArg(k, 1, sizeof(cl_sampler), &notASampler));
  EXPECT_CL_ERR(CL_INVALID_SAMPLER, clSetKernelArg(k, 1, sizeof(cl_sampler), nullptr));
  Mem readOnly = image(CL_MEM_READ_ONLY, {CL_RGBA, CL_FLOAT}, CL_MEM_OBJECT_IMAGE2D, {2, 2, 0});
  cl_mem roHandle = readOnly;
  EXPECT_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &roHandle));
  if (spirvRun()) {
    // Only programs from source describe their arguments (OpenCL 3.0,
    // clGetKernelArgInfo), -cl-kernel-arg-info or not.
    cl_kernel_arg_access_qualifier access = 0;
    EXPECT_CL_ERR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
                  clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof(access), &access, nullptr));
    return;
  }
  // Kernel argument info of images and samplers.
  cl_kernel_arg_access_qualifier access = 0;
  cl_kernel_arg_address_qualifier address = 0;
  EXPECT_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof(access), &access, nullptr));
  EXPECT_EQ(cl_kernel_arg_access_qualifier(CL_KERNEL_ARG_ACCESS_READ_ONLY), access);
  EXPECT_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(address), &address, nullptr));
  EXPECT_EQ(cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_GLOBAL), address);
  char type[32] = {};
  EXPECT_CL(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_NAME, sizeof(type), type, nullptr));
  EXPECT_STREQ("sampler_t", type);
}

// Several images in one kernel, more arguments than the vulkan target's
// push constants hold (they go to an argument buffer there, each image with
// the range of its texels), one of them a 1D buffer image on a sub-buffer,
// whose texels start inside their buffer.
TEST_P(ImageKernelTest, SeveralImagesAndABufferImageOnASubBuffer) {
  const char *source = R"CLC(
kernel void gather(read_only image1d_buffer_t a, read_only image2d_t b, read_only image3d_t c,
                   read_only image1d_array_t d, read_only image2d_array_t e, write_only image2d_t out) {
  int x = get_global_id(0);
  int4 v = read_imagei(a, x) + read_imagei(b, (int2)(x, 1)) + read_imagei(c, (int4)(x, 1, 2, 0)) +
           read_imagei(d, (int2)(x, 1)) + read_imagei(e, (int4)(x, 0, 1, 0));
  write_imagei(out, (int2)(x, 0), v);
}
)CLC";
  Program program = build(source);
  ASSERT_TRUE(program);
  const cl_image_format format{CL_R, CL_SIGNED_INT32};
  constexpr size_t kWidth = 8;
  // Image n's texel j (in memory order) holds (n + 1) * 1000 + j.
  auto texels = [](int n, size_t count) {
    std::vector<int32_t> values(count);
    for (size_t j = 0; j < count; ++j)
      values[j] = (n + 1) * 1000 + int32_t(j);
    return values;
  };
  const size_t align = deviceInfo<cl_uint>(device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  std::vector<int32_t> parentBytes((align + kWidth * 4) / 4, -1);
  const std::vector<int32_t> first = texels(0, kWidth);
  std::copy(first.begin(), first.end(), parentBytes.begin() + align / 4);
  Mem parent = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, parentBytes.size() * 4, parentBytes.data());
  const cl_buffer_region region{align, kWidth * 4};
  cl_int err = CL_SUCCESS;
  Mem sub(clCreateSubBuffer(parent, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
  ASSERT_CL(err);
  cl_image_desc bufferDesc{};
  bufferDesc.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
  bufferDesc.image_width = kWidth;
  bufferDesc.buffer = sub;
  Mem a(clCreateImage(context_, CL_MEM_READ_ONLY, &format, &bufferDesc, nullptr, &err));
  ASSERT_CL(err);
  Mem b = image(CL_MEM_READ_ONLY, format, CL_MEM_OBJECT_IMAGE2D, {kWidth, 2, 0});
  write(b, {kWidth, 2, 1}, texels(1, kWidth * 2).data());
  Mem c = image(CL_MEM_READ_ONLY, format, CL_MEM_OBJECT_IMAGE3D, {kWidth, 2, 3});
  write(c, {kWidth, 2, 3}, texels(2, kWidth * 6).data());
  Mem d = image(CL_MEM_READ_ONLY, format, CL_MEM_OBJECT_IMAGE1D_ARRAY, {kWidth, 0, 0}, 2);
  write(d, {kWidth, 2, 1}, texels(3, kWidth * 2).data());
  Mem e = image(CL_MEM_READ_ONLY, format, CL_MEM_OBJECT_IMAGE2D_ARRAY, {kWidth, 1, 0}, 2);
  write(e, {kWidth, 1, 2}, texels(4, kWidth * 2).data());
  Mem out = image(CL_MEM_WRITE_ONLY, format, CL_MEM_OBJECT_IMAGE2D, {kWidth, 1, 0});
  Kernel k = kernel(program, "gather");
  setArgs(k, static_cast<cl_mem>(a), static_cast<cl_mem>(b), static_cast<cl_mem>(c), static_cast<cl_mem>(d),
          static_cast<cl_mem>(e), static_cast<cl_mem>(out));
  run(k, kWidth);
  std::vector<int32_t> back(kWidth);
  const Triple zero = {0, 0, 0}, whole = {kWidth, 1, 1};
  ASSERT_CL(
      clEnqueueReadImage(queue_, out, CL_TRUE, zero.data(), whole.data(), 0, 0, back.data(), 0, nullptr, nullptr));
  for (int x = 0; x < int(kWidth); ++x) {
    // a[x] + b[1][x] + c[2][1][x] + d[layer 1][x] + e[layer 1][0][x]
    const int32_t expected = (1000 + x) + (2000 + 8 + x) + (3000 + 40 + x) + (4000 + 8 + x) + (5000 + 8 + x);
    EXPECT_EQ(expected, back[x]) << x;
  }
}

// An image and a sampler chosen at run time (`c ? a : b`).
TEST_P(ImageKernelTest, ImagesAndSamplersChosenAtRunTime) {
  const char *source = R"CLC(
kernel void pick(read_only image2d_t a, read_only image2d_t b, sampler_t given, int c, global float *out) {
  const sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  int x = get_global_id(0);
  out[x] = read_imagef(c ? a : b, c ? given : edge, (int2)(x - 1, 0)).x;
}
)CLC";
  Program program = build(source);
  ASSERT_TRUE(program);
  const cl_image_format format{CL_R, CL_FLOAT};
  const float aTexels[2] = {1.5f, 2.5f}, bTexels[2] = {-3.0f, -4.0f};
  Mem a = image(CL_MEM_READ_ONLY, format, CL_MEM_OBJECT_IMAGE2D, {2, 1, 0});
  write(a, {2, 1, 1}, aTexels);
  Mem b = image(CL_MEM_READ_ONLY, format, CL_MEM_OBJECT_IMAGE2D, {2, 1, 0});
  write(b, {2, 1, 1}, bTexels);
  cl_int err = CL_SUCCESS;
  // Outside the image a CLK_ADDRESS_CLAMP sampler gives the border (0 for R).
  cl_sampler clamp = clCreateSampler(context_, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
  ASSERT_CL(err);
  std::unique_ptr<_cl_sampler, decltype(&clReleaseSampler)> released(clamp, &clReleaseSampler);
  Mem out = buffer(CL_MEM_WRITE_ONLY, 4 * sizeof(float));
  Kernel k = kernel(program, "pick");
  cl_sampler samplerHandle = clamp;
  for (cl_int c : {0, 1}) {
    setArgs(k, static_cast<cl_mem>(a), static_cast<cl_mem>(b));
    ASSERT_CL(clSetKernelArg(k, 2, sizeof(cl_sampler), &samplerHandle));
    ASSERT_CL(clSetKernelArg(k, 3, sizeof(cl_int), &c));
    cl_mem outHandle = out;
    ASSERT_CL(clSetKernelArg(k, 4, sizeof(cl_mem), &outHandle));
    run(k, 4);
    // x - 1 = -1, 0, 1, 2: the border, the texels, the border (a, clamp)
    // or the edge texels (b, clamp to edge).
    const std::vector<float> expected =
        c ? std::vector<float>{0.0f, 1.5f, 2.5f, 0.0f} : std::vector<float>{-3.0f, -3.0f, -4.0f, -4.0f};
    EXPECT_EQ(expected, read<float>(out, 4)) << "c = " << c;
  }
}

// A struct whose name starts like an image type is a plain struct (a CTS
// kernel_image_methods regression).
TEST_P(ImageKernelTest, StructNamedLikeAnImageIsNoImage) {
  const char *source = R"CLC(
typedef struct { int width; int order; } image_kernel_data;
kernel void k(read_only image1d_t img, global image_kernel_data *out) {
  out->width = get_image_width(img);
  out->order = get_image_channel_order(img);
}
)CLC";
  Program program = build(source);
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "k");
  Mem img = image(CL_MEM_READ_ONLY, {CL_RG, CL_FLOAT}, CL_MEM_OBJECT_IMAGE1D, {21, 0, 0});
  Mem out = buffer(CL_MEM_WRITE_ONLY, 8);
  setArgs(k, static_cast<cl_mem>(img), static_cast<cl_mem>(out));
  run(k, 1);
  EXPECT_EQ((std::vector<int>{21, CL_RG}), read<int>(out, 2));
}

CLTEST_INSTANTIATE(ImageKernelTest);
CLTEST_INSTANTIATE_SPIRV(ImageKernelTest);
