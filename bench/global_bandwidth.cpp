#include "global_bandwidth.h"

#include "device_facts.h"
#include "launch_timing.h"
#include "width_sweep.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <variant>

namespace bench {
namespace {

constexpr unsigned kWidths[] = {1, 4, 16};
constexpr unsigned kLoadsPerItem = 16;
/// The work-group size asked for (less where the device allows less).
/// Buffers are a multiple of this many work-items' loads at the widest width.
constexpr size_t kLocal = 256;
constexpr size_t kBytesQuantum = kLocal * kLoadsPerItem * 16 * sizeof(float);
/// Element j holds j mod 61: every sum of 16 x 16 of them is an integer
/// below 2^24, exact in float whatever order the device adds in.
constexpr uint32_t kPeriod = 61;

/// Where work-item g's 16 loads fall, as clpeak measures both and keeps the
/// faster: Block: work-group q reads the local x 16 elements from q x local x
/// 16 on, `local` consecutive ones at each step (coalesced on a GPU, one
/// contiguous block per group on a CPU). Stride: load k of every work-item
/// reads element g + k x global (one sweep over the buffer per step).
enum class Pattern { Block, Stride };
constexpr Pattern kPatterns[] = {Pattern::Block, Pattern::Stride};

std::string kernelSource(unsigned width, Pattern pattern) {
  const std::string type = floatType(width);
  const std::string start = pattern == Pattern::Block ? "get_group_id(0) * get_local_size(0) * " +
                                                            std::to_string(kLoadsPerItem) + " + get_local_id(0)"
                                                      : "get_global_id(0)";
  const std::string step = pattern == Pattern::Block ? "get_local_size(0)" : "get_global_size(0)";
  return "kernel void loads(global const " + type + " *in, global float *out) {\n  const size_t step = " + step +
         ";\n  size_t i = " + start + ";\n  " + type + " s = (" + type + ")(0.0f);\n  for (int k = 0; k < " +
         std::to_string(kLoadsPerItem) +
         "; ++k, i += step)\n    s += in[i];\n  out[get_global_id(0)] = " + laneSum("s", width) + ";\n}\n";
}

/// Checks every work-item's sum against the element pattern. Element j
/// holds j mod 61, so a vector's sum depends only on its first element's
/// residue (a table), and each load's residue follows from the previous one
/// by adding the pattern's step: no division in the loop over the buffer.
std::string checkSums(const std::vector<float> &result, size_t local, unsigned width, Pattern pattern) {
  const size_t items = result.size();
  uint32_t vectorSum[kPeriod];
  for (uint32_t residue = 0; residue < kPeriod; ++residue) {
    vectorSum[residue] = 0;
    for (unsigned lane = 0; lane < width; ++lane)
      vectorSum[residue] += (residue + lane) % kPeriod;
  }
  const size_t step = pattern == Pattern::Block ? local : items; // in vectors
  const uint32_t residueStep = static_cast<uint32_t>(step * width % kPeriod);
  for (size_t item = 0; item < items; ++item) {
    const size_t first = pattern == Pattern::Block ? item / local * local * kLoadsPerItem + item % local : item;
    uint32_t residue = static_cast<uint32_t>(first * width % kPeriod);
    uint32_t expected = 0;
    for (unsigned k = 0; k < kLoadsPerItem; ++k) {
      expected += vectorSum[residue];
      residue += residueStep;
      residue -= residue >= kPeriod ? kPeriod : 0;
    }
    if (result[item] != static_cast<float>(expected))
      return floatType(width) + (pattern == Pattern::Block ? " block" : " strided") + " loads: work-item " +
             std::to_string(item) + " summed " + std::to_string(result[item]) + ", expected " +
             std::to_string(expected);
  }
  return "";
}

size_t bufferBytes(const DeviceFacts &facts, bool quick) {
  // GPU: 1 GiB, 20 times an H100's 50 MB L2 (2 and 4 GiB gain < 0.5% there).
  size_t bytes = facts.byKind(quick ? size_t{256} << 20 : size_t{1} << 30, quick ? size_t{64} << 20 : size_t{256} << 20,
                              size_t{4} << 20);
  bytes = std::min<size_t>({bytes, facts.maxAlloc, facts.globalMem / 4});
  return std::max(bytes / kBytesQuantum * kBytesQuantum, kBytesQuantum);
}

/// Seconds per launch of one width and pattern, its sums checked.
std::variant<double, Figure> runPattern(const DeviceSession &session, const DeviceFacts &facts, const Sizes &sizes,
                                        unsigned width, Pattern pattern, cl_mem in, cl_mem out, size_t elements) {
  const std::string source = kernelSource(width, pattern);
  BuiltKernel built = build(session, source.c_str(), "loads");
  cl_kernel kernel = built.kernel.get();
  check(clSetKernelArg(kernel, 0, sizeof(cl_mem), &in), "clSetKernelArg");
  check(clSetKernelArg(kernel, 1, sizeof(cl_mem), &out), "clSetKernelArg");
  size_t kernelLimit = 0;
  check(clGetKernelWorkGroupInfo(kernel, session.device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof kernelLimit, &kernelLimit,
                                 nullptr),
        "clGetKernelWorkGroupInfo");
  const size_t local = powerOfTwoAtMost(std::min(facts.maxWorkGroup, kernelLimit), kLocal);
  const size_t items = elements / width / kLoadsPerItem;
  Launch launch;
  launch.kernel = kernel;
  launch.global[0] = items;
  launch.local[0] = local;
  const double seconds = secondsPerLaunch(session, launch, timingPlan(facts, sizes.quick));

  std::vector<float> result(items);
  check(
      clEnqueueReadBuffer(session.queue(), out, CL_TRUE, 0, items * sizeof(float), result.data(), 0, nullptr, nullptr),
      "clEnqueueReadBuffer");
  if (std::string mismatch = checkSums(result, local, width, pattern); !mismatch.empty())
    return wrongResult(std::move(mismatch));
  return seconds;
}

/// The faster pattern's GB/s; a wrong sum in either makes the figure wrong.
Figure runWidth(const DeviceSession &session, const DeviceFacts &facts, const Sizes &sizes, unsigned width, cl_mem in,
                cl_mem out, size_t elements) {
  try {
    double best = 1e30;
    for (Pattern pattern : kPatterns) {
      auto outcome = runPattern(session, facts, sizes, width, pattern, in, out, elements);
      if (auto *wrong = std::get_if<Figure>(&outcome))
        return *wrong;
      best = std::min(best, std::get<double>(outcome));
    }
    return {static_cast<double>(elements * sizeof(float)) / best / 1e9, {}, false};
  } catch (const ClError &error) {
    return fromError(error);
  }
}

} // namespace

std::span<const std::string> globalBandwidthLabels() {
  static const std::vector<std::string> labels =
      widthLabels("global memory bandwidth, best width (GB/s)", "global memory bandwidth, ", kWidths, " loads (GB/s)");
  return labels;
}

std::vector<Figure> globalBandwidth(const DeviceSession &session, const Sizes &sizes) {
  return sweepWidths(std::size(kWidths), [&](std::span<Figure> widths) {
    const DeviceFacts facts = deviceFacts(session.device());
    const size_t bytes = bufferBytes(facts, sizes.quick);
    std::fprintf(stderr, "  global bandwidth: %zu MiB buffer\n", bytes >> 20);
    const size_t elements = bytes / sizeof(float);
    MemPtr in = createBuffer(session, CL_MEM_READ_ONLY, bytes);
    {
      std::vector<float> pattern(elements);
      for (size_t j = 0, value = 0; j < elements; ++j, value = value + 1 == kPeriod ? 0 : value + 1)
        pattern[j] = static_cast<float>(value);
      check(clEnqueueWriteBuffer(session.queue(), in.get(), CL_TRUE, 0, bytes, pattern.data(), 0, nullptr, nullptr),
            "clEnqueueWriteBuffer");
    }
    // Width 1 has the most work-items: one float out for each.
    MemPtr out = createBuffer(session, CL_MEM_WRITE_ONLY, elements / kLoadsPerItem * sizeof(float));
    for (size_t i = 0; i < std::size(kWidths); ++i)
      widths[i] = runWidth(session, facts, sizes, kWidths[i], in.get(), out.get(), elements);
  });
}

} // namespace bench
