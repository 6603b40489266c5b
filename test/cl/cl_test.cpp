#include "cl_test.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <thread>

namespace cltest {

const char *errorName(cl_int code) {
  switch (code) {
#define CASE(name)                                                                                                     \
  case name:                                                                                                           \
    return #name;
    CASE(CL_SUCCESS)
    CASE(CL_DEVICE_NOT_FOUND)
    CASE(CL_DEVICE_NOT_AVAILABLE)
    CASE(CL_COMPILER_NOT_AVAILABLE)
    CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    CASE(CL_OUT_OF_RESOURCES)
    CASE(CL_OUT_OF_HOST_MEMORY)
    CASE(CL_PROFILING_INFO_NOT_AVAILABLE)
    CASE(CL_MEM_COPY_OVERLAP)
    CASE(CL_IMAGE_FORMAT_MISMATCH)
    CASE(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    CASE(CL_BUILD_PROGRAM_FAILURE)
    CASE(CL_MAP_FAILURE)
    CASE(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    CASE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    CASE(CL_COMPILE_PROGRAM_FAILURE)
    CASE(CL_LINKER_NOT_AVAILABLE)
    CASE(CL_LINK_PROGRAM_FAILURE)
    CASE(CL_DEVICE_PARTITION_FAILED)
    CASE(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    CASE(CL_INVALID_VALUE)
    CASE(CL_INVALID_DEVICE_TYPE)
    CASE(CL_INVALID_PLATFORM)
    CASE(CL_INVALID_DEVICE)
    CASE(CL_INVALID_CONTEXT)
    CASE(CL_INVALID_QUEUE_PROPERTIES)
    CASE(CL_INVALID_COMMAND_QUEUE)
    CASE(CL_INVALID_HOST_PTR)
    CASE(CL_INVALID_MEM_OBJECT)
    CASE(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    CASE(CL_INVALID_IMAGE_SIZE)
    CASE(CL_INVALID_SAMPLER)
    CASE(CL_INVALID_BINARY)
    CASE(CL_INVALID_BUILD_OPTIONS)
    CASE(CL_INVALID_PROGRAM)
    CASE(CL_INVALID_PROGRAM_EXECUTABLE)
    CASE(CL_INVALID_KERNEL_NAME)
    CASE(CL_INVALID_KERNEL_DEFINITION)
    CASE(CL_INVALID_KERNEL)
    CASE(CL_INVALID_ARG_INDEX)
    CASE(CL_INVALID_ARG_VALUE)
    CASE(CL_INVALID_ARG_SIZE)
    CASE(CL_INVALID_KERNEL_ARGS)
    CASE(CL_INVALID_WORK_DIMENSION)
    CASE(CL_INVALID_WORK_GROUP_SIZE)
    CASE(CL_INVALID_WORK_ITEM_SIZE)
    CASE(CL_INVALID_GLOBAL_OFFSET)
    CASE(CL_INVALID_EVENT_WAIT_LIST)
    CASE(CL_INVALID_EVENT)
    CASE(CL_INVALID_OPERATION)
    CASE(CL_INVALID_GL_OBJECT)
    CASE(CL_INVALID_BUFFER_SIZE)
    CASE(CL_INVALID_MIP_LEVEL)
    CASE(CL_INVALID_GLOBAL_WORK_SIZE)
    CASE(CL_INVALID_PROPERTY)
    CASE(CL_INVALID_IMAGE_DESCRIPTOR)
    CASE(CL_INVALID_COMPILER_OPTIONS)
    CASE(CL_INVALID_LINKER_OPTIONS)
    CASE(CL_INVALID_DEVICE_PARTITION_COUNT)
    CASE(CL_INVALID_PIPE_SIZE)
    CASE(CL_INVALID_DEVICE_QUEUE)
    CASE(CL_INVALID_SPEC_ID)
    CASE(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef CASE
  default:
    return "unknown OpenCL error";
  }
}

std::string platformNameUnderTest() {
  const char *name = std::getenv("POLYMUX_TEST_PLATFORM");
  return name && *name ? name : "Polymux";
}

std::string platformString(cl_platform_id platform, cl_platform_info param) {
  size_t size = 0;
  if (clGetPlatformInfo(platform, param, 0, nullptr, &size) != CL_SUCCESS || size == 0)
    return {};
  std::string value(size, '\0');
  if (clGetPlatformInfo(platform, param, size, value.data(), nullptr) != CL_SUCCESS)
    return {};
  value.resize(value.find('\0') == std::string::npos ? size : value.find('\0'));
  return value;
}

cl_platform_id platformUnderTest() {
  static const cl_platform_id platform = []() -> cl_platform_id {
    cl_uint count = 0;
    if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0)
      return nullptr;
    std::vector<cl_platform_id> platforms(count);
    if (clGetPlatformIDs(count, platforms.data(), nullptr) != CL_SUCCESS)
      return nullptr;
    const std::string wanted = platformNameUnderTest();
    for (cl_platform_id p : platforms)
      if (platformString(p, CL_PLATFORM_NAME) == wanted)
        return p;
    return nullptr;
  }();
  return platform;
}

const std::vector<cl_device_id> &devicesUnderTest() {
  static const std::vector<cl_device_id> devices = [] {
    std::vector<cl_device_id> result;
    cl_platform_id platform = platformUnderTest();
    cl_uint count = 0;
    if (!platform || clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS)
      return result;
    result.resize(count);
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, result.data(), nullptr) != CL_SUCCESS)
      result.clear();
    return result;
  }();
  return devices;
}

std::string deviceParamName(const testing::TestParamInfo<cl_device_id> &info) {
  // The index keeps names unique; the device name makes them readable.
  std::string name = "dev" + std::to_string(info.index) + "_";
  for (char c : deviceString(info.param, CL_DEVICE_NAME).substr(0, 24))
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

std::string deviceString(cl_device_id device, cl_device_info param) {
  size_t size = 0;
  if (clGetDeviceInfo(device, param, 0, nullptr, &size) != CL_SUCCESS || size == 0)
    return {};
  std::string value(size, '\0');
  if (clGetDeviceInfo(device, param, size, value.data(), nullptr) != CL_SUCCESS)
    return {};
  value.resize(value.find('\0') == std::string::npos ? size : value.find('\0'));
  return value;
}

cl_int eventStatus(cl_event event) {
  cl_int status = 0;
  EXPECT_CL(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr));
  return status;
}

std::string programBuildLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS || size == 0)
    return {};
  std::string log(size, '\0');
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr) != CL_SUCCESS)
    return {};
  log.resize(log.find('\0') == std::string::npos ? size : log.find('\0'));
  return log;
}

std::vector<std::string> split(std::string_view text, std::string_view separators) {
  std::vector<std::string> pieces;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find_first_of(separators, start);
    if (end == std::string_view::npos)
      end = text.size();
    if (end > start)
      pieces.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return pieces;
}

bool deviceHasExtension(cl_device_id device, std::string_view name) {
  auto extensions = split(deviceString(device, CL_DEVICE_EXTENSIONS), " ");
  return std::find(extensions.begin(), extensions.end(), name) != extensions.end();
}

bool deviceSupportsOpenCLC(cl_device_id device, unsigned major, unsigned minor) {
  for (const cl_name_version &v : deviceArray<cl_name_version>(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS))
    if (CL_VERSION_MAJOR(v.version) == major && CL_VERSION_MINOR(v.version) == minor)
      return true;
  return false;
}

bool waitUntil(const std::function<bool()> &done, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

void DeviceTest::SetUp() {
  cl_device_id dev = device();
  cl_int err = CL_SUCCESS;
  context_.reset(clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err));
  ASSERT_CL(err);
  queue_.reset(clCreateCommandQueueWithProperties(context_, dev, nullptr, &err));
  ASSERT_CL(err);
}

Program DeviceTest::build(std::string_view source, const char *options) {
  const char *text = source.data();
  size_t length = source.size();
  cl_int err = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context_, 1, &text, &length, &err));
  if (err != CL_SUCCESS) {
    ADD_FAILURE() << "clCreateProgramWithSource: " << errorName(err);
    return {};
  }
  cl_device_id dev = device();
  err = clBuildProgram(program, 1, &dev, options, nullptr, nullptr);
  if (err != CL_SUCCESS) {
    ADD_FAILURE() << "clBuildProgram(\"" << options << "\"): " << errorName(err) << "\n"
                  << programBuildLog(program, dev);
    return {};
  }
  return program;
}

Program DeviceTest::rebuildFromBinary(cl_program built) {
  size_t size = 0;
  cl_int err = clGetProgramInfo(built, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr);
  if (err != CL_SUCCESS || size == 0) {
    ADD_FAILURE() << "CL_PROGRAM_BINARY_SIZES: " << errorName(err) << ", size " << size;
    return {};
  }
  std::vector<unsigned char> binary(size);
  unsigned char *binaries[] = {binary.data()};
  if ((err = clGetProgramInfo(built, CL_PROGRAM_BINARIES, sizeof(binaries), binaries, nullptr)) != CL_SUCCESS) {
    ADD_FAILURE() << "CL_PROGRAM_BINARIES: " << errorName(err);
    return {};
  }
  cl_device_id dev = device();
  const unsigned char *data = binary.data();
  cl_int status = CL_SUCCESS;
  Program program(clCreateProgramWithBinary(context_, 1, &dev, &size, &data, &status, &err));
  if (err != CL_SUCCESS || status != CL_SUCCESS) {
    ADD_FAILURE() << "clCreateProgramWithBinary: " << errorName(err) << ", status " << errorName(status);
    return {};
  }
  if ((err = clBuildProgram(program, 1, &dev, nullptr, nullptr, nullptr)) != CL_SUCCESS) {
    ADD_FAILURE() << "clBuildProgram of a binary: " << errorName(err) << "\n" << programBuildLog(program, dev);
    return {};
  }
  return program;
}

Kernel DeviceTest::kernel(cl_program program, const char *name) {
  cl_int err = CL_SUCCESS;
  Kernel k(clCreateKernel(program, name, &err));
  EXPECT_CL(err) << " clCreateKernel(" << name << ")";
  return k;
}

Mem DeviceTest::buffer(cl_mem_flags flags, size_t size, void *host) {
  cl_int err = CL_SUCCESS;
  Mem mem(clCreateBuffer(context_, flags, size, host, &err));
  EXPECT_CL(err) << " clCreateBuffer(flags " << flags << ", size " << size << ")";
  return mem;
}

Queue DeviceTest::makeQueue(cl_command_queue_properties properties) {
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, properties, 0};
  cl_int err = CL_SUCCESS;
  Queue queue(clCreateCommandQueueWithProperties(context_, device(), props, &err));
  EXPECT_CL(err) << " clCreateCommandQueueWithProperties(" << properties << ")";
  return queue;
}

} // namespace cltest
