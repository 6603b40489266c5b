#include "workloads.h"
#include "workload_support.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace bench {
namespace {

const char *kEmptySource = "__kernel void empty(void) {}\n";

const char *kTriadSource = R"CLC(
__kernel void triad(__global float *a, __global const float *b, __global const float *c, float s) {
  size_t i = get_global_id(0);
  a[i] = b[i] + s * c[i];
}
)CLC";

} // namespace

Figure launchLatencyUs(const DeviceSession &session, const Sizes &sizes) {
  try {
    BuiltKernel empty = build(session, kEmptySource, "empty");
    const size_t globalSize = 1;
    auto launch = [&] {
      check(clEnqueueNDRangeKernel(session.queue(), empty.kernel.get(), 1, nullptr, &globalSize, nullptr, 0, nullptr,
                                   nullptr),
            "clEnqueueNDRangeKernel");
      check(clFinish(session.queue()), "clFinish");
    };
    for (int warmUp = 0; warmUp < 20; ++warmUp)
      launch();
    std::vector<double> microseconds(sizes.latencyRuns);
    for (double &us : microseconds) {
      auto start = Clock::now();
      launch();
      us = secondsSince(start) * 1e6;
    }
    std::nth_element(microseconds.begin(), microseconds.begin() + microseconds.size() / 2, microseconds.end());
    return {microseconds[microseconds.size() / 2], {}, false};
  } catch (const ClError &error) {
    return fromError(error);
  }
}

TransferFigures transferBandwidth(const DeviceSession &session, const Sizes &sizes) {
  TransferFigures figures;
  try {
    const size_t words = sizes.transferBytes / sizeof(uint32_t);
    const size_t bytes = words * sizeof(uint32_t);
    // Touch both host arrays first so page faults are not measured.
    std::vector<uint32_t> source(words), destination(words, 0xdeadbeef);
    for (size_t i = 0; i < words; ++i)
      source[i] = static_cast<uint32_t>(i * 2654435761u);
    MemPtr buffer = createBuffer(session, CL_MEM_READ_WRITE, bytes);

    double bestWrite = 1e30, bestRead = 1e30;
    for (size_t run = 0; run < sizes.transferRuns; ++run) {
      auto start = Clock::now();
      check(clEnqueueWriteBuffer(session.queue(), buffer.get(), CL_TRUE, 0, bytes, source.data(), 0, nullptr, nullptr),
            "clEnqueueWriteBuffer");
      bestWrite = std::min(bestWrite, secondsSince(start));
    }
    for (size_t run = 0; run < sizes.transferRuns; ++run) {
      auto start = Clock::now();
      check(clEnqueueReadBuffer(session.queue(), buffer.get(), CL_TRUE, 0, bytes, destination.data(), 0, nullptr,
                                nullptr),
            "clEnqueueReadBuffer");
      bestRead = std::min(bestRead, secondsSince(start));
    }
    figures.write.value = bytes / bestWrite / 1e9;
    if (std::memcmp(source.data(), destination.data(), bytes) != 0)
      figures.read = wrongResult("data read back differs from the data written");
    else
      figures.read.value = bytes / bestRead / 1e9;
  } catch (const ClError &error) {
    if (!figures.write.value)
      figures.write = fromError(error);
    figures.read = fromError(error);
  }
  return figures;
}

Figure triadBandwidth(const DeviceSession &session, const Sizes &sizes) {
  try {
    const size_t n = sizes.triadElements;
    const size_t bytes = n * sizeof(float);
    const float s = 3.0f;
    // Small integers and halves: b + s*c is exact, with or without fma.
    std::vector<float> b(n), c(n);
    for (size_t i = 0; i < n; ++i) {
      b[i] = static_cast<float>(i % 1000);
      c[i] = static_cast<float>(i % 17) * 0.5f;
    }
    MemPtr aBuffer = createBuffer(session, CL_MEM_WRITE_ONLY, bytes);
    MemPtr bBuffer = createBuffer(session, CL_MEM_READ_ONLY, bytes);
    MemPtr cBuffer = createBuffer(session, CL_MEM_READ_ONLY, bytes);
    check(clEnqueueWriteBuffer(session.queue(), bBuffer.get(), CL_FALSE, 0, bytes, b.data(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer");
    check(clEnqueueWriteBuffer(session.queue(), cBuffer.get(), CL_FALSE, 0, bytes, c.data(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer");

    BuiltKernel triad = build(session, kTriadSource, "triad");
    cl_kernel kernel = triad.kernel.get();
    cl_mem a = aBuffer.get(), bm = bBuffer.get(), cm = cBuffer.get();
    check(clSetKernelArg(kernel, 0, sizeof(cl_mem), &a), "clSetKernelArg");
    check(clSetKernelArg(kernel, 1, sizeof(cl_mem), &bm), "clSetKernelArg");
    check(clSetKernelArg(kernel, 2, sizeof(cl_mem), &cm), "clSetKernelArg");
    check(clSetKernelArg(kernel, 3, sizeof(float), &s), "clSetKernelArg");

    // The first launch also touches `a` for the first time: not counted.
    const double best = bestKernelSeconds(session, kernel, n, sizes.triadRuns);

    std::vector<float> result(n);
    check(clEnqueueReadBuffer(session.queue(), a, CL_TRUE, 0, bytes, result.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer");
    for (size_t i = 0; i < n; ++i)
      if (result[i] != b[i] + s * c[i])
        return wrongResult("a[" + std::to_string(i) + "] = " + std::to_string(result[i]) + ", expected " +
                           std::to_string(b[i] + s * c[i]));
    return {3.0 * bytes / best / 1e9, {}, false};
  } catch (const ClError &error) {
    return fromError(error);
  }
}

} // namespace bench
