#include "cl_test.h"
#include "spirv_from_source.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <thread>
#include <utility>

#include <unistd.h>

namespace cltest {

namespace {

/// `program` (made by `creator`, which returned `created`) built for `dev`;
/// an empty Program and a test failure naming the step if either failed.
Program builtFor(cl_device_id dev, Program program, cl_int created, const char *creator, const char *building,
                 const char *options) {
  if (created != CL_SUCCESS) {
    ADD_FAILURE() << creator << ": " << errorName(created);
    return {};
  }
  cl_int err = clBuildProgram(program, 1, &dev, options, nullptr, nullptr);
  if (err != CL_SUCCESS) {
    ADD_FAILURE() << building << "(\"" << options << "\"): " << errorName(err) << "\n" << programBuildLog(program, dev);
    return {};
  }
  return program;
}

} // namespace

std::string deviceParamName(const testing::TestParamInfo<cl_device_id> &info) {
  // The index keeps names unique; the device name makes them readable.
  std::string name = "dev" + std::to_string(info.index) + "_";
  for (char c : deviceString(info.param, CL_DEVICE_NAME).substr(0, 24))
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

cl_int eventStatus(cl_event event) {
  cl_int status = 0;
  EXPECT_CL(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr));
  return status;
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
  if (spirvRun() && deviceString(dev, CL_DEVICE_IL_VERSION).empty())
    GTEST_SKIP() << "the device reads no SPIR-V";
  // A copy of the tests run on another machine (a GPU's) may have no Clang.
  if (spirvRun() && access(POLYMUX_TEST_CLANG, X_OK) != 0)
    GTEST_SKIP() << "no " << POLYMUX_TEST_CLANG << " here to make the SPIR-V programs";
}

bool DeviceTest::spirvRun() {
  return std::string_view(testing::UnitTest::GetInstance()->current_test_info()->test_suite_name())
      .starts_with("Spirv/");
}

Program DeviceTest::build(std::string_view source, const char *options) {
  if (spirvRun()) {
    std::string_view std = "CL1.2";
    if (const char *found = std::strstr(options, "-cl-std="))
      std = std::string_view(found + 8, std::strcspn(found + 8, " "));
    std::vector<unsigned char> il = spirvFromOpenCLC(source, std);
    return il.empty() ? Program() : buildIL(il.data(), il.size(), options);
  }
  const char *text = source.data();
  size_t length = source.size();
  cl_int err = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context_, 1, &text, &length, &err));
  return builtFor(device(), std::move(program), err, "clCreateProgramWithSource", "clBuildProgram", options);
}

Program DeviceTest::buildIL(const void *il, size_t size, const char *options) {
  cl_int err = CL_SUCCESS;
  Program program(clCreateProgramWithIL(context_, il, size, &err));
  return builtFor(device(), std::move(program), err, "clCreateProgramWithIL", "clBuildProgram of SPIR-V ", options);
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
