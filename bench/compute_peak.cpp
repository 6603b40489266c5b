#include "compute_peak.h"

#include "device_facts.h"
#include "launch_timing.h"
#include "width_sweep.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <type_traits>

namespace bench {
namespace {

constexpr unsigned kWidths[] = {1, 2, 4, 8, 16};
/// Multiply-adds per work-item, whatever the width (as clpeak: the same work,
/// spread over more lanes).
constexpr unsigned kMadsPerItem = 4096;
/// Dependent mad() statements in the loop body.
constexpr unsigned kUnroll = 16;
/// The multiplier and addend: x * 1 is exact, and x + 0.5 stays exact while
/// x < 2^22, so mad()'s fused and unfused forms give the same bits and the
/// host reference needs no tolerance. They are kernel arguments, so no
/// compiler can fold the chain away.
constexpr float kMultiplier = 1.0f;
constexpr float kAddend = 0.5f;

/// Lane l of work-item g starts at (g mod 1024) + l/2.
template <typename T> T laneStart(size_t item, unsigned lane) {
  return static_cast<T>(item & 1023) + T(0.5) * static_cast<T>(lane);
}

/// The chains on `width` lanes of float, or on scalar double (the same
/// values: exact in either).
std::string kernelSource(unsigned width, bool isDouble) {
  const std::string scalar = isDouble ? "double" : "float";
  const std::string type = isDouble ? scalar : floatType(width);
  const unsigned iterations = kMadsPerItem / width / kUnroll;
  std::string lanes = "0.0f";
  for (unsigned lane = 1; lane < width; ++lane) {
    char text[32];
    std::snprintf(text, sizeof text, ", %.1ff", 0.5 * lane);
    lanes += text;
  }
  std::string source = isDouble ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "";
  source += "kernel void peak(global " + scalar + " *out, " + scalar + " a, " + scalar +
            " b) {\n"
            "  const size_t g = get_global_id(0);\n  " +
            type + " x = (" + type + ")((" + scalar + ")(g & 1023)) + (" + type + ")(" + lanes + ");\n  const " + type +
            " va = (" + type + ")(a), vb = (" + type + ")(b);\n  for (int i = 0; i < " + std::to_string(iterations) +
            "; ++i) {\n";
  for (unsigned i = 0; i < kUnroll; ++i)
    source += "    x = mad(x, va, vb);\n";
  source += "  }\n  out[g] = " + laneSum("x", width) + ";\n}\n";
  return source;
}

/// The kernel's result for one work-item, computed in the same order.
template <typename T> T hostResult(size_t item, unsigned width) {
  T sum = 0;
  for (unsigned lane = 0; lane < width; ++lane) {
    T x = laneStart<T>(item, lane);
    for (unsigned i = 0; i < kMadsPerItem / width; ++i)
      x = std::fma(x, T(kMultiplier), T(kAddend));
    sum = lane == 0 ? x : sum + x;
  }
  return sum;
}

size_t workItems(const DeviceFacts &facts, bool quick) {
  size_t items = facts.byKind(quick ? size_t{1} << 22 : size_t{1} << 24, // 16M x 4096 mads: 2 ms on an H100
                              facts.computeUnits * (quick ? size_t{2048} : size_t{16384}),
                              1024); // simulated: 4M guest mads per width
  items = std::min<size_t>(items, facts.maxAlloc / sizeof(float));
  return std::max<size_t>(items / 1024 * 1024, 1024);
}

template <typename T>
Figure runWidth(const DeviceSession &session, const DeviceFacts &facts, const Sizes &sizes, unsigned width, cl_mem out,
                size_t items) {
  try {
    constexpr bool isDouble = std::is_same_v<T, double>;
    const std::string source = kernelSource(width, isDouble);
    BuiltKernel built = build(session, source.c_str(), "peak");
    cl_kernel kernel = built.kernel.get();
    setKernelArguments(kernel, out, T(kMultiplier), T(kAddend));
    const double seconds = secondsPerLaunch(session, kernel, items, timingPlan(facts, sizes.quick));

    std::vector<T> result(items);
    check(clEnqueueReadBuffer(session.queue(), out, CL_TRUE, 0, items * sizeof(T), result.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer");
    for (size_t item : sampleIndices(items, 512)) {
      const T expected = hostResult<T>(item, width);
      if (result[item] != expected)
        return wrongResult((isDouble ? std::string("double") : floatType(width)) + " chain of work-item " +
                           std::to_string(item) + " = " + std::to_string(result[item]) + ", expected " +
                           std::to_string(expected));
    }
    return {2.0 * kMadsPerItem * static_cast<double>(items) / seconds / 1e9, {}, false};
  } catch (const ClError &error) {
    return fromError(error);
  }
}

} // namespace

std::span<const std::string> peakComputeLabels() {
  static const std::vector<std::string> labels = widthLabels("peak SP compute, mad chains, best width (GFLOPS)",
                                                             "peak SP compute, ", kWidths, " mad chains (GFLOPS)");
  return labels;
}

std::vector<Figure> peakCompute(const DeviceSession &session, const Sizes &sizes) {
  return sweepWidths(std::size(kWidths), [&](std::span<Figure> widths) {
    const DeviceFacts facts = deviceFacts(session.device());
    const size_t items = workItems(facts, sizes.quick);
    std::fprintf(stderr, "  peak compute: %zu work-items x %u mads\n", items, kMadsPerItem);
    MemPtr out = createBuffer(session, CL_MEM_WRITE_ONLY, items * sizeof(float));
    for (size_t i = 0; i < std::size(kWidths); ++i)
      widths[i] = runWidth<float>(session, facts, sizes, kWidths[i], out.get(), items);
  });
}

const std::string &peakComputeDoubleLabel() {
  static const std::string label = "peak DP compute, double mad chains (GFLOPS)";
  return label;
}

Figure peakComputeDouble(const DeviceSession &session, const Sizes &sizes) {
  try {
    if (!deviceHasFp64(session.device()))
      return unsupportedFigure("no fp64");
    const DeviceFacts facts = deviceFacts(session.device());
    const size_t items = workItems(facts, sizes.quick);
    MemPtr out = createBuffer(session, CL_MEM_WRITE_ONLY, items * sizeof(double));
    return runWidth<double>(session, facts, sizes, 1, out.get(), items);
  } catch (const ClError &error) {
    return fromError(error);
  }
}

} // namespace bench
