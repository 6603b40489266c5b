// Loads a program binary that `polymux compile -o` wrote, as an application
// would: through the ICD loader, with clCreateProgramWithBinary on the first
// device of the Polymux platform (POLYMUX_DEVICES chooses it), then runs it.
//
//   binary_check BINARY load     the binary loads, builds and its kernel
//                                `scale` (kernels/scale.cl, built with
//                                -D OFFSET=3) computes in[i] * 5 + 3
//   binary_check BINARY reject   clCreateProgramWithBinary refuses it
//                                (CL_INVALID_BINARY: another device's)
#include <CL/cl.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

bool ok(cl_int status, const char *what) {
  if (status == CL_SUCCESS)
    return true;
  std::fprintf(stderr, "%s failed: %d\n", what, status);
  return false;
}

cl_device_id polymuxDevice() {
  cl_uint count = 0;
  clGetPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  for (cl_platform_id platform : platforms) {
    char name[64] = {};
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
    cl_device_id device = nullptr;
    if (std::strcmp(name, "Polymux") == 0 &&
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) == CL_SUCCESS)
      return device;
  }
  return nullptr;
}

int run(cl_context context, cl_device_id device, cl_program program) {
  cl_int status = clBuildProgram(program, 1, &device, nullptr, nullptr, nullptr);
  if (!ok(status, "clBuildProgram"))
    return 1;
  cl_kernel kernel = clCreateKernel(program, "scale", &status);
  if (!ok(status, "clCreateKernel"))
    return 1;
  constexpr size_t n = 64;
  std::vector<cl_int> in(n), out(n, -1);
  for (size_t i = 0; i < n; ++i)
    in[i] = static_cast<cl_int>(i) - 7;
  cl_mem inBuffer = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), in.data(), &status);
  cl_mem outBuffer = clCreateBuffer(context, CL_MEM_READ_WRITE, n * sizeof(cl_int), nullptr, &status);
  const cl_int factor = 5;
  clSetKernelArg(kernel, 0, sizeof(cl_mem), &inBuffer);
  clSetKernelArg(kernel, 1, sizeof(cl_mem), &outBuffer);
  clSetKernelArg(kernel, 2, sizeof(cl_int), &factor);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &status);
  if (!ok(status, "clCreateCommandQueueWithProperties"))
    return 1;
  const size_t global = n;
  if (!ok(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel") ||
      !ok(clEnqueueReadBuffer(queue, outBuffer, CL_TRUE, 0, n * sizeof(cl_int), out.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer"))
    return 1;
  for (size_t i = 0; i < n; ++i)
    if (out[i] != in[i] * factor + 3) {
      std::fprintf(stderr, "out[%zu] = %d, expected %d\n", i, out[i], in[i] * factor + 3);
      return 1;
    }
  clReleaseCommandQueue(queue);
  clReleaseMemObject(inBuffer);
  clReleaseMemObject(outBuffer);
  clReleaseKernel(kernel);
  std::printf("ok: the binary loaded and computed %zu values\n", n);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3 || (std::strcmp(argv[2], "load") != 0 && std::strcmp(argv[2], "reject") != 0)) {
    std::fprintf(stderr, "usage: binary_check BINARY load|reject\n");
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  std::vector<unsigned char> binary((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (binary.empty()) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  cl_device_id device = polymuxDevice();
  if (!device) {
    std::fprintf(stderr, "no Polymux device (OCL_ICD_VENDORS, POLYMUX_DEVICES?)\n");
    return 1;
  }
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  if (!ok(status, "clCreateContext"))
    return 1;
  const unsigned char *binaries[] = {binary.data()};
  const size_t lengths[] = {binary.size()};
  cl_int binaryStatus = CL_SUCCESS;
  cl_program program = clCreateProgramWithBinary(context, 1, &device, lengths, binaries, &binaryStatus, &status);
  int result;
  if (std::strcmp(argv[2], "reject") == 0) {
    result = status == CL_INVALID_BINARY && binaryStatus == CL_INVALID_BINARY ? 0 : 1;
    if (result == 0)
      std::printf("ok: rejected with CL_INVALID_BINARY\n");
    else
      std::fprintf(stderr, "clCreateProgramWithBinary returned %d (binary status %d), not CL_INVALID_BINARY\n", status,
                   binaryStatus);
  } else {
    result = ok(status, "clCreateProgramWithBinary") && ok(binaryStatus, "the binary's status")
                 ? run(context, device, program)
                 : 1;
  }
  if (program)
    clReleaseProgram(program);
  clReleaseContext(context);
  return result;
}
