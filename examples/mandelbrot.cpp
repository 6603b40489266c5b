// mandelbrot: iteration counts of the Mandelbrot set over a 2-D NDRange,
// written as a PPM image and checked against the same computation on the host.
//
//   OCL_ICD_VENDORS=<build>/icd ./mandelbrot [output.ppm]
//
// Exits non-zero when the device's counts disagree with the host's.
#include "cl_example.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

// FP_CONTRACT OFF: the kernel must round every multiply and add the way the
// host loop below does, so the counts can be compared exactly.
const char *kSource = R"CLC(
#pragma OPENCL FP_CONTRACT OFF
__kernel void mandelbrot(__global uint *counts, uint width, uint height, float x0, float y0, float step,
                         uint maxIterations) {
  uint px = get_global_id(0);
  uint py = get_global_id(1);
  if (px >= width || py >= height)
    return;
  float cx = x0 + (float)px * step;
  float cy = y0 + (float)py * step;
  float x = 0.0f, y = 0.0f;
  uint iteration = 0;
  while (iteration < maxIterations && x * x + y * y <= 4.0f) {
    float xNext = x * x - y * y + cx;
    y = 2.0f * x * y + cy;
    x = xNext;
    ++iteration;
  }
  counts[py * width + px] = iteration;
}
)CLC";

struct View {
  cl_uint width = 1024, height = 768;
  float x0 = -2.25f, y0 = -1.2f, step = 3.2f / 1024;
  cl_uint maxIterations = 256;
};

cl_uint hostCount(const View &view, cl_uint px, cl_uint py) {
  float cx = view.x0 + static_cast<float>(px) * view.step;
  float cy = view.y0 + static_cast<float>(py) * view.step;
  float x = 0.0f, y = 0.0f;
  cl_uint iteration = 0;
  while (iteration < view.maxIterations && x * x + y * y <= 4.0f) {
    float xNext = x * x - y * y + cx;
    y = 2.0f * x * y + cy;
    x = xNext;
    ++iteration;
  }
  return iteration;
}

bool writePpm(const char *path, const View &view, const std::vector<cl_uint> &counts) {
  FILE *file = std::fopen(path, "wb");
  if (!file)
    return false;
  std::fprintf(file, "P6\n%u %u\n255\n", view.width, view.height);
  std::vector<uint8_t> row(size_t{view.width} * 3);
  for (cl_uint py = 0; py < view.height; ++py) {
    for (cl_uint px = 0; px < view.width; ++px) {
      cl_uint n = counts[size_t{py} * view.width + px];
      uint8_t *rgb = &row[size_t{px} * 3];
      if (n >= view.maxIterations) {
        rgb[0] = rgb[1] = rgb[2] = 0; // inside the set
      } else {
        double t = static_cast<double>(n) / view.maxIterations;
        rgb[0] = static_cast<uint8_t>(9 * (1 - t) * t * t * t * 255);
        rgb[1] = static_cast<uint8_t>(15 * (1 - t) * (1 - t) * t * t * 255);
        rgb[2] = static_cast<uint8_t>(8.5 * (1 - t) * (1 - t) * (1 - t) * t * 255);
      }
    }
    std::fwrite(row.data(), 1, row.size(), file);
  }
  return std::fclose(file) == 0;
}

} // namespace

int main(int argc, char **argv) {
  using example::check;
  // Line-buffered even into a pipe: a run killed by a timeout still shows how far it got.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const char *outputPath = argc > 1 ? argv[1] : "mandelbrot.ppm";
  const View view;

  example::Selection selection = example::selectDevice();
  std::printf("platform: %s\ndevice:   %s\n", selection.platformName.c_str(), selection.deviceName.c_str());

  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &selection.device, nullptr, nullptr, &status);
  check(status, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, selection.device, nullptr, &status);
  check(status, "clCreateCommandQueueWithProperties");

  auto buildStart = std::chrono::steady_clock::now();
  cl_program program = example::buildProgram(context, selection.device, kSource);
  cl_kernel kernel = clCreateKernel(program, "mandelbrot", &status);
  check(status, "clCreateKernel");
  double buildSeconds = example::secondsSince(buildStart);

  const size_t pixels = size_t{view.width} * view.height;
  cl_mem countsBuffer = clCreateBuffer(context, CL_MEM_WRITE_ONLY, pixels * sizeof(cl_uint), nullptr, &status);
  check(status, "clCreateBuffer");
  check(clSetKernelArg(kernel, 0, sizeof(cl_mem), &countsBuffer), "clSetKernelArg(counts)");
  check(clSetKernelArg(kernel, 1, sizeof(cl_uint), &view.width), "clSetKernelArg(width)");
  check(clSetKernelArg(kernel, 2, sizeof(cl_uint), &view.height), "clSetKernelArg(height)");
  check(clSetKernelArg(kernel, 3, sizeof(float), &view.x0), "clSetKernelArg(x0)");
  check(clSetKernelArg(kernel, 4, sizeof(float), &view.y0), "clSetKernelArg(y0)");
  check(clSetKernelArg(kernel, 5, sizeof(float), &view.step), "clSetKernelArg(step)");
  check(clSetKernelArg(kernel, 6, sizeof(cl_uint), &view.maxIterations), "clSetKernelArg(maxIterations)");

  const size_t globalSize[2] = {view.width, view.height};
  auto kernelStart = std::chrono::steady_clock::now();
  check(clEnqueueNDRangeKernel(queue, kernel, 2, nullptr, globalSize, nullptr, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
  check(clFinish(queue), "clFinish");
  double kernelSeconds = example::secondsSince(kernelStart);

  std::vector<cl_uint> counts(pixels);
  check(clEnqueueReadBuffer(queue, countsBuffer, CL_TRUE, 0, pixels * sizeof(cl_uint), counts.data(), 0, nullptr,
                            nullptr),
        "clEnqueueReadBuffer");

  clReleaseMemObject(countsBuffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);

  // A few landmarks first (inside the main cardioid, the period-2 bulb, far
  // outside, on the real axis near the tip), then every pixel.
  struct Landmark {
    const char *what;
    cl_uint px, py;
  };
  const Landmark landmarks[] = {
      {"cardioid centre", 640, 384}, {"period-2 bulb", 400, 384}, {"corner", 0, 0}, {"antenna", 100, 384}};
  int failures = 0;
  for (const Landmark &landmark : landmarks) {
    cl_uint expected = hostCount(view, landmark.px, landmark.py);
    cl_uint actual = counts[size_t{landmark.py} * view.width + landmark.px];
    std::printf("pixel (%4u,%3u) %-16s device %3u host %3u\n", landmark.px, landmark.py, landmark.what, actual,
                expected);
    failures += actual != expected;
  }
  size_t mismatches = 0;
  uint64_t totalIterations = 0;
  for (cl_uint py = 0; py < view.height; ++py)
    for (cl_uint px = 0; px < view.width; ++px) {
      cl_uint expected = hostCount(view, px, py);
      totalIterations += expected;
      mismatches += counts[size_t{py} * view.width + px] != expected;
    }

  std::printf("image:    %ux%u, %u iterations max, %llu iterations in all\n", view.width, view.height,
              view.maxIterations, static_cast<unsigned long long>(totalIterations));
  std::printf("build:    %.1f ms\n", buildSeconds * 1e3);
  std::printf("kernel:   %.3f ms\n", kernelSeconds * 1e3);

  bool written = writePpm(outputPath, view, counts);
  if (!written)
    std::fprintf(stderr, "error: cannot write %s\n", outputPath);
  else
    std::printf("wrote %s\n", outputPath);

  if (failures || mismatches) {
    std::printf("mandelbrot: FAILED: %zu of %zu pixels differ from the host (%d landmarks)\n", mismatches, pixels,
                failures);
    return 1;
  }
  std::printf("mandelbrot: ok (all %zu pixels match the host)\n", pixels);
  return written ? 0 : 1;
}
