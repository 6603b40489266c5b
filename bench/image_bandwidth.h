// Image-read bandwidth: how fast a device's read_imagef streams texels of a
// 2D image, the way an image-processing kernel reads them. On the vulkan
// target the texels live in storage buffers and read_imagef is address
// arithmetic, loads and the channel conversion, not a texture unit.
#pragma once

#include "bench_cl.h"
#include "workloads.h"

#include <span>
#include <string>
#include <vector>

namespace bench {

/// One row per format: CL_RGBA / CL_FLOAT, then CL_RGBA / CL_UNORM_INT8.
std::span<const std::string> imageBandwidthLabels();

/// Each work-item reads 16 texels down a column with read_imagef (integer
/// coordinates, CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE |
/// CLK_FILTER_NEAREST; neighbouring work-items read neighbouring texels of
/// a row) and writes one float; GB/s of texel bytes read, one figure per
/// label. Every work-item's float is checked (exact integers). A device
/// without images, or without the format, gets an `unsupported` figure.
std::vector<Figure> imageBandwidth(const DeviceSession &session, const Sizes &sizes);

} // namespace bench
