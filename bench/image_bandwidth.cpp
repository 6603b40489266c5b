// Image-read bandwidth (see the header).
#include "image_bandwidth.h"

#include "device_facts.h"
#include "launch_timing.h"
#include "workload_support.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace bench {
namespace {

constexpr unsigned kReadsPerItem = 16;
/// The work-group width asked for (less where the device allows less).
constexpr size_t kLocal = 256;
/// Texel (x, y) has the residue r = (x + 7y) mod 61 and its channels follow
/// from r alone, so the reference needs neither the image nor a division
/// per texel.
constexpr uint32_t kPeriod = 61;

struct Format {
  const char *label;
  cl_image_format format;
  size_t texelBytes;
};

const Format kFormats[] = {
    {"image read_imagef bandwidth, RGBA float (GB/s)", {CL_RGBA, CL_FLOAT}, 16},
    {"image read_imagef bandwidth, RGBA unorm8 (GB/s)", {CL_RGBA, CL_UNORM_INT8}, 4},
};

// Work-item (x, Y) reads texels (x, 16Y) ... (x, 16Y + 15): a work-group's
// items read neighbouring texels of one row at each step (coalesced on a
// GPU). The channel weights make the sum depend on the channel order too.
constexpr const char *kSource = R"(
constant sampler_t kNearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
kernel void reads(read_only image2d_t image, global float *out) {
  const int x = get_global_id(0);
  int y = get_global_id(1) * 16;
  float4 s = (float4)(0.0f);
  for (int k = 0; k < 16; ++k, ++y)
    s += read_imagef(image, kNearest, (int2)(x, y));
  out[get_global_id(1) * get_global_size(0) + x] = s.x + 2.0f * s.y + 4.0f * s.z + 8.0f * s.w;
}
)";

/// Channel c of a float texel of residue r holds (r + 11c) mod 61; of a
/// unorm8 texel, 255 (read as exactly 1.0) where bit c of r mod 16 is set,
/// else 0. The weighted sums are integers below 2^24: exact in float in any
/// order of additions.
float channel(const Format &format, uint32_t r, unsigned c) {
  if (format.format.image_channel_data_type == CL_FLOAT)
    return static_cast<float>((r + 11 * c) % kPeriod);
  return static_cast<float>((r >> c) & 1);
}

/// The image's bytes: each of the 61 residues' texel made once, then copied
/// (a GPU's image has 2^28 texels).
std::vector<unsigned char> texels(const Format &format, size_t width, size_t height) {
  const size_t size = format.texelBytes;
  std::vector<unsigned char> byResidue(kPeriod * size);
  for (uint32_t r = 0; r < kPeriod; ++r)
    for (unsigned c = 0; c < 4; ++c) {
      const float value = channel(format, r, c);
      if (format.format.image_channel_data_type == CL_FLOAT)
        std::memcpy(&byResidue[r * size + c * sizeof(float)], &value, sizeof value);
      else
        byResidue[r * size + c] = value != 0 ? 255 : 0;
    }
  std::vector<unsigned char> data(width * height * size);
  unsigned char *texel = data.data();
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0, r = y * 7 % kPeriod; x < width; ++x, r = r + 1 == kPeriod ? 0 : r + 1, texel += size)
      std::memcpy(texel, &byResidue[r * size], size);
  return data;
}

/// Checks every work-item's sum. An item's 16 texels have residues q, q + 7,
/// ... with q = (x + 7 x 16Y) mod 61, so its sum is a table entry of q.
std::string checkSums(const Format &format, const std::vector<float> &result, size_t width) {
  float texelSum[kPeriod], columnSum[kPeriod];
  for (uint32_t r = 0; r < kPeriod; ++r)
    texelSum[r] =
        channel(format, r, 0) + 2 * channel(format, r, 1) + 4 * channel(format, r, 2) + 8 * channel(format, r, 3);
  for (uint32_t q = 0; q < kPeriod; ++q) {
    columnSum[q] = 0;
    for (uint32_t k = 0; k < kReadsPerItem; ++k)
      columnSum[q] += texelSum[(q + 7 * k) % kPeriod];
  }
  const size_t rows = result.size() / width;
  for (size_t row = 0; row < rows; ++row)
    for (size_t x = 0, q = row * kReadsPerItem * 7 % kPeriod; x < width; ++x, q = q + 1 == kPeriod ? 0 : q + 1)
      if (result[row * width + x] != columnSum[q])
        return std::string(format.label) + ": work-item (" + std::to_string(x) + ", " + std::to_string(row) +
               ") summed " + std::to_string(result[row * width + x]) + ", expected " + std::to_string(columnSum[q]);
  return "";
}

bool formatSupported(const DeviceSession &session, const cl_image_format &wanted) {
  cl_uint count = 0;
  check(clGetSupportedImageFormats(session.context(), CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &count),
        "clGetSupportedImageFormats");
  std::vector<cl_image_format> formats(count);
  check(clGetSupportedImageFormats(session.context(), CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, count, formats.data(),
                                   nullptr),
        "clGetSupportedImageFormats");
  return std::any_of(formats.begin(), formats.end(), [&](const cl_image_format &format) {
    return format.image_channel_order == wanted.image_channel_order &&
           format.image_channel_data_type == wanted.image_channel_data_type;
  });
}

size_t deviceSize(cl_device_id device, cl_device_info what) {
  size_t value = 0;
  check(clGetDeviceInfo(device, what, sizeof value, &value, nullptr), "clGetDeviceInfo(IMAGE2D_MAX_*)");
  return value;
}

struct Shape {
  size_t width = 0, height = 0;
};

/// About as many bytes as global bandwidth reads, in a square-ish image
/// whose width is a power of two (a multiple of the work-group width) and
/// height a multiple of 16, within the device's image limits.
Shape imageShape(const DeviceSession &session, const DeviceFacts &facts, bool quick, size_t texelBytes) {
  size_t bytes = facts.byKind(quick ? size_t{256} << 20 : size_t{1} << 30, quick ? size_t{64} << 20 : size_t{256} << 20,
                              size_t{4} << 20);
  bytes = std::min<size_t>({bytes, facts.maxAlloc, facts.globalMem / 4});
  const size_t count = bytes / texelBytes;
  Shape shape;
  const size_t side = static_cast<size_t>(std::sqrt(static_cast<double>(count)));
  shape.width = powerOfTwoAtMost(std::min(deviceSize(session.device(), CL_DEVICE_IMAGE2D_MAX_WIDTH), side), 16384);
  const size_t maxHeight = deviceSize(session.device(), CL_DEVICE_IMAGE2D_MAX_HEIGHT);
  shape.height =
      std::max<size_t>(std::min(count / shape.width, maxHeight) / kReadsPerItem * kReadsPerItem, kReadsPerItem);
  return shape;
}

Figure runFormat(const DeviceSession &session, const DeviceFacts &facts, const Sizes &sizes, const Format &format) {
  try {
    if (!formatSupported(session, format.format))
      return unsupportedFigure(std::string(format.label) + ": format not supported");
    const Shape shape = imageShape(session, facts, sizes.quick, format.texelBytes);
    std::fprintf(stderr, "  image bandwidth: %zu x %zu texels of %zu bytes\n", shape.width, shape.height,
                 format.texelBytes);
    cl_image_desc desc = {};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = shape.width;
    desc.image_height = shape.height;
    cl_int status = CL_SUCCESS;
    MemPtr image(clCreateImage(session.context(), CL_MEM_READ_ONLY, &format.format, &desc, nullptr, &status));
    check(status, "clCreateImage");
    {
      const std::vector<unsigned char> data = texels(format, shape.width, shape.height);
      const size_t origin[3] = {0, 0, 0}, region[3] = {shape.width, shape.height, 1};
      check(clEnqueueWriteImage(session.queue(), image.get(), CL_TRUE, origin, region, 0, 0, data.data(), 0, nullptr,
                                nullptr),
            "clEnqueueWriteImage");
    }
    const size_t rows = shape.height / kReadsPerItem;
    const size_t items = shape.width * rows;
    MemPtr out = createBuffer(session, CL_MEM_WRITE_ONLY, items * sizeof(float));

    BuiltKernel built = build(session, kSource, "reads");
    cl_kernel kernel = built.kernel.get();
    setKernelArguments(kernel, image.get(), out.get());
    size_t kernelLimit = 0;
    check(clGetKernelWorkGroupInfo(kernel, session.device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof kernelLimit,
                                   &kernelLimit, nullptr),
          "clGetKernelWorkGroupInfo");
    Launch launch;
    launch.kernel = kernel;
    launch.dims = 2;
    launch.global = {shape.width, rows};
    launch.local = {powerOfTwoAtMost(std::min({facts.maxWorkGroup, kernelLimit, shape.width}), kLocal), 1};
    const double seconds = secondsPerLaunch(session, launch, timingPlan(facts, sizes.quick));

    std::vector<float> result(items);
    check(clEnqueueReadBuffer(session.queue(), out.get(), CL_TRUE, 0, items * sizeof(float), result.data(), 0, nullptr,
                              nullptr),
          "clEnqueueReadBuffer");
    if (std::string mismatch = checkSums(format, result, shape.width); !mismatch.empty())
      return wrongResult(std::move(mismatch));
    return {static_cast<double>(shape.width * shape.height * format.texelBytes) / seconds / 1e9, {}, false};
  } catch (const ClError &error) {
    return fromError(error);
  }
}

} // namespace

std::span<const std::string> imageBandwidthLabels() {
  static const std::vector<std::string> labels = [] {
    std::vector<std::string> all;
    for (const Format &format : kFormats)
      all.push_back(format.label);
    return all;
  }();
  return labels;
}

std::vector<Figure> imageBandwidth(const DeviceSession &session, const Sizes &sizes) {
  std::vector<Figure> figures;
  try {
    cl_bool images = CL_FALSE;
    check(clGetDeviceInfo(session.device(), CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, nullptr),
          "clGetDeviceInfo(IMAGE_SUPPORT)");
    const DeviceFacts facts = deviceFacts(session.device());
    for (const Format &format : kFormats)
      figures.push_back(images ? runFormat(session, facts, sizes, format) : unsupportedFigure("no image support"));
  } catch (const ClError &error) {
    figures.assign(std::size(kFormats), fromError(error));
  }
  return figures;
}

} // namespace bench
