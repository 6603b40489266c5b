#include "clblast_first_call.h"

#include "clblast_sgemm.h"
#include "device_facts.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <vector>

namespace bench {
namespace {

constexpr size_t kN = 512;

/// This executable's path, for running it again as the child.
std::string selfPath() {
  std::vector<char> path(4096);
  ssize_t length = readlink("/proc/self/exe", path.data(), path.size() - 1);
  return length > 0 ? std::string(path.data(), static_cast<size_t>(length)) : std::string();
}

/// Runs the child once; its milliseconds, or the reason it failed.
Figure runChild(const std::string &executable, const std::string &platform, unsigned deviceIndex) {
  Figure figure;
  // Single quotes keep each word whole; a word holding one is not supported.
  if (executable.empty() || executable.find('\'') != std::string::npos || platform.find('\'') != std::string::npos) {
    figure.problem = "cannot name this executable or platform on a command line";
    return figure;
  }
  std::string command = "'" + executable + "' --clblast-first-call '" + platform + "' " + std::to_string(deviceIndex);
  FILE *child = popen(command.c_str(), "r");
  if (!child) {
    figure.problem = "could not start " + command;
    return figure;
  }
  double milliseconds = 0;
  const bool read = std::fscanf(child, "%lf", &milliseconds) == 1;
  const int status = pclose(child);
  if (!read || status != 0)
    figure.problem = "the child process failed (" + command + ")";
  else
    figure.value = milliseconds;
  return figure;
}

} // namespace

const std::string &clblastFirstCallLabel() {
  static const std::string label = "CLBlast SGEMM n=512, first call in a new process (ms; lower is better)";
  return label;
}

Figure clblastFirstCallMs(cl_device_id device, const std::string &platform, unsigned deviceIndex) {
  std::string why;
  if (!loadSgemm(why)) {
    Figure figure;
    figure.unsupported = true;
    figure.problem = why;
    return figure;
  }
  if (deviceFacts(device).kind == DeviceFacts::Kind::Simulated) {
    Figure figure;
    figure.unsupported = true;
    figure.problem = "simulated device";
    return figure;
  }
  const std::string executable = selfPath();
  Figure warm = runChild(executable, platform, deviceIndex);
  return warm.value ? runChild(executable, platform, deviceIndex) : warm;
}

int runClblastFirstCall(const std::string &platform, unsigned deviceIndex) {
  std::string why;
  SgemmFunction sgemm = loadSgemm(why);
  if (!sgemm) {
    std::fprintf(stderr, "%s\n", why.c_str());
    return 1;
  }
  try {
    cl_uint platformCount = 0;
    check(clGetPlatformIDs(0, nullptr, &platformCount), "clGetPlatformIDs");
    std::vector<cl_platform_id> platforms(platformCount);
    check(clGetPlatformIDs(platformCount, platforms.data(), nullptr), "clGetPlatformIDs");
    // The loader's platform order may differ between processes: by name.
    auto found = std::find_if(platforms.begin(), platforms.end(),
                              [&](cl_platform_id candidate) { return platformName(candidate) == platform; });
    if (found == platforms.end())
      throw ClError("no platform named " + platform, CL_INVALID_PLATFORM);
    cl_uint deviceCount = 0;
    check(clGetDeviceIDs(*found, CL_DEVICE_TYPE_ALL, 0, nullptr, &deviceCount), "clGetDeviceIDs");
    std::vector<cl_device_id> devices(deviceCount);
    check(clGetDeviceIDs(*found, CL_DEVICE_TYPE_ALL, deviceCount, devices.data(), nullptr), "clGetDeviceIDs");
    if (deviceIndex >= deviceCount)
      throw ClError("no such device", CL_INVALID_DEVICE);
    DeviceSession session(*found, devices[deviceIndex]);
    std::vector<float> ones(kN * kN, 1.0f);
    cl_int status = CL_SUCCESS;
    cl_mem buffers[3];
    for (cl_mem &buffer : buffers) {
      buffer = clCreateBuffer(session.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, ones.size() * sizeof(float),
                              ones.data(), &status);
      check(status, "clCreateBuffer");
    }
    cl_command_queue queue = session.queue();
    const Clock::time_point start = Clock::now();
    const int result = sgemm(kRowMajor, kNoTranspose, kNoTranspose, kN, kN, kN, 1.0f, buffers[0], 0, kN, buffers[1], 0,
                             kN, 0.0f, buffers[2], 0, kN, &queue, nullptr);
    if (result != 0)
      throw ClError("CLBlastSgemm", result);
    check(clFinish(queue), "clFinish");
    const double milliseconds = secondsSince(start) * 1e3;
    // All-ones inputs: every element of C is n.
    float corner = 0;
    check(clEnqueueReadBuffer(queue, buffers[2], CL_TRUE, (ones.size() - 1) * sizeof(float), sizeof corner, &corner, 0,
                              nullptr, nullptr),
          "clEnqueueReadBuffer");
    for (cl_mem buffer : buffers)
      clReleaseMemObject(buffer);
    if (corner != static_cast<float>(kN)) {
      std::fprintf(stderr, "wrong result: C[n-1][n-1] = %g, expected %zu\n", corner, kN);
      return 1;
    }
    std::printf("%.3f\n", milliseconds);
    return 0;
  } catch (const ClError &error) {
    std::fprintf(stderr, "%s -> %d\n", error.what(), error.code());
    return 1;
  }
}

} // namespace bench
