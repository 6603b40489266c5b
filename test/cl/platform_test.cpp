// clGetPlatformIDs / clGetPlatformInfo / clGetDeviceIDs on the platform under
// test. These are not parameterised: a missing platform must fail here.
#include "cl_test.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

using namespace cltest;

namespace {

std::set<std::string> words(std::string_view text) {
  auto pieces = split(text, " ");
  return {pieces.begin(), pieces.end()};
}

class PlatformTest : public testing::Test {
protected:
  void SetUp() override {
    platform_ = platformUnderTest();
    ASSERT_NE(platform_, nullptr) << "no OpenCL platform named \"" << platformNameUnderTest()
                                  << "\" (set OCL_ICD_VENDORS / POLYMUX_TEST_PLATFORM)";
  }
  cl_platform_id platform_ = nullptr;
};

} // namespace

TEST(Platform, IsFound) {
  ASSERT_NE(platformUnderTest(), nullptr) << "no OpenCL platform named \"" << platformNameUnderTest() << "\"";
  EXPECT_FALSE(devicesUnderTest().empty()) << "the platform has no devices";
}

TEST(Platform, GetPlatformIDsErrors) {
  cl_platform_id platform = nullptr;
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetPlatformIDs(0, &platform, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetPlatformIDs(0, nullptr, nullptr));
  cl_uint count = 0;
  ASSERT_CL(clGetPlatformIDs(0, nullptr, &count));
  EXPECT_GE(count, 1u);
}

// A target that POLYMUX_DEVICES leaves out is never created: with vulkan left
// out, the process never loads the Vulkan loader (volk opens it only when the
// vulkan target starts).
TEST_F(PlatformTest, TargetsLeftOutAreNotStarted) {
  const char *selected = std::getenv("POLYMUX_DEVICES");
  const std::set<std::string> names = words(selected ? std::string(selected) : std::string());
  if (names.empty() || std::string(selected).find("vulkan") != std::string::npos)
    GTEST_SKIP() << "POLYMUX_DEVICES does not leave the vulkan target out";
  std::ifstream maps("/proc/self/maps");
  ASSERT_TRUE(maps) << "no /proc/self/maps";
  std::stringstream text;
  text << maps.rdbuf();
  EXPECT_EQ(text.str().find("libvulkan"), std::string::npos) << "a Vulkan library is loaded";
}

TEST_F(PlatformTest, StringQueries) {
  for (cl_platform_info param :
       {CL_PLATFORM_PROFILE, CL_PLATFORM_VERSION, CL_PLATFORM_NAME, CL_PLATFORM_VENDOR, CL_PLATFORM_EXTENSIONS}) {
    SCOPED_TRACE(param);
    size_t size = 0;
    ASSERT_CL(clGetPlatformInfo(platform_, param, 0, nullptr, &size));
    ASSERT_GE(size, 1u);
    std::string value(size, 'x');
    size_t size2 = 0;
    ASSERT_CL(clGetPlatformInfo(platform_, param, size, value.data(), &size2));
    EXPECT_EQ(size, size2);
    EXPECT_EQ(value.back(), '\0') << "string not NUL-terminated";
    EXPECT_EQ(value.find('\0'), size - 1) << "embedded NUL";
    if (size > 1) // too small a buffer is an error
      EXPECT_CL_ERR(CL_INVALID_VALUE, clGetPlatformInfo(platform_, param, size - 1, value.data(), nullptr));
  }
  EXPECT_EQ(platformString(platform_, CL_PLATFORM_NAME), platformNameUnderTest());
  EXPECT_EQ(platformString(platform_, CL_PLATFORM_VERSION).rfind("OpenCL 3.0 ", 0), 0u)
      << platformString(platform_, CL_PLATFORM_VERSION);
  std::string profile = platformString(platform_, CL_PLATFORM_PROFILE);
  EXPECT_TRUE(profile == "FULL_PROFILE" || profile == "EMBEDDED_PROFILE") << profile;
  EXPECT_FALSE(platformString(platform_, CL_PLATFORM_VENDOR).empty());
}

TEST_F(PlatformTest, NumericVersionAndExtensions) {
  cl_version version = 0;
  size_t size = 0;
  ASSERT_CL(clGetPlatformInfo(platform_, CL_PLATFORM_NUMERIC_VERSION, sizeof(version), &version, &size));
  EXPECT_EQ(size, sizeof(cl_version));
  EXPECT_EQ(version, CL_MAKE_VERSION(3, 0, 0));

  ASSERT_CL(clGetPlatformInfo(platform_, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, nullptr, &size));
  ASSERT_EQ(size % sizeof(cl_name_version), 0u);
  std::vector<cl_name_version> extensions(size / sizeof(cl_name_version));
  if (size)
    ASSERT_CL(clGetPlatformInfo(platform_, CL_PLATFORM_EXTENSIONS_WITH_VERSION, size, extensions.data(), nullptr));
  std::set<std::string> fromArray;
  for (const cl_name_version &e : extensions) {
    ASSERT_NE(std::find(e.name, e.name + CL_NAME_VERSION_MAX_NAME_SIZE, '\0'), e.name + CL_NAME_VERSION_MAX_NAME_SIZE);
    fromArray.insert(e.name);
  }
  std::set<std::string> fromString = words(platformString(platform_, CL_PLATFORM_EXTENSIONS));
  EXPECT_EQ(fromString, fromArray);
  // Every ICD reached through ocl-icd implements cl_khr_icd.
  EXPECT_TRUE(fromString.count("cl_khr_icd")) << platformString(platform_, CL_PLATFORM_EXTENSIONS);
  EXPECT_FALSE(platformString(platform_, CL_PLATFORM_ICD_SUFFIX_KHR).empty());
}

TEST_F(PlatformTest, HostTimer) {
  cl_ulong resolution = 0;
  size_t size = 0;
  ASSERT_CL(clGetPlatformInfo(platform_, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof(resolution), &resolution, &size));
  EXPECT_EQ(size, sizeof(cl_ulong));
  cl_device_id device = devicesUnderTest().at(0);
  cl_ulong first = 0, second = 0, deviceTime = 0;
  if (resolution == 0) {
    // Timers are optional; without them the timer APIs report it.
    EXPECT_CL_ERR(CL_INVALID_OPERATION, clGetHostTimer(device, &first));
    return;
  }
  ASSERT_CL(clGetHostTimer(device, &first));
  ASSERT_CL(clGetDeviceAndHostTimer(device, &deviceTime, &second));
  EXPECT_GE(second, first);
  EXPECT_GT(deviceTime, 0u);
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetHostTimer(device, nullptr));
}

TEST_F(PlatformTest, InfoErrors) {
  char buffer[256];
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetPlatformInfo(platform_, 0x7fff, sizeof(buffer), buffer, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetPlatformInfo(platform_, CL_PLATFORM_NAME, 1, buffer, nullptr));
}

TEST_F(PlatformTest, GetDeviceIDs) {
  cl_uint all = 0;
  ASSERT_CL(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 0, nullptr, &all));
  ASSERT_GE(all, 1u);
  std::vector<cl_device_id> devices(all);
  cl_uint returned = 0;
  ASSERT_CL(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, all, devices.data(), &returned));
  EXPECT_EQ(returned, all);
  EXPECT_EQ(devices, devicesUnderTest());
  for (cl_device_id d : devices) {
    cl_platform_id owner = nullptr;
    ASSERT_CL(clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof(owner), &owner, nullptr));
    EXPECT_EQ(owner, platform_);
  }

  // The typed queries partition the device list. CL_DEVICE_TYPE_ALL leaves
  // out custom devices, as the specification says, so they are not counted.
  cl_uint byType = 0;
  for (cl_device_type type : {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR}) {
    cl_uint count = 0;
    cl_int err = clGetDeviceIDs(platform_, type, 0, nullptr, &count);
    if (err == CL_DEVICE_NOT_FOUND) {
      continue;
    }
    ASSERT_CL(err) << " type " << type;
    EXPECT_GE(count, 1u);
    std::vector<cl_device_id> typed(count);
    ASSERT_CL(clGetDeviceIDs(platform_, type, count, typed.data(), nullptr));
    for (cl_device_id d : typed)
      EXPECT_NE(deviceInfo<cl_device_type>(d, CL_DEVICE_TYPE) & type, 0u);
    byType += count;
  }
  EXPECT_EQ(byType, all);

  cl_uint defaults = 0;
  cl_device_id defaultDevice = nullptr;
  ASSERT_CL(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_DEFAULT, 1, &defaultDevice, &defaults));
  EXPECT_EQ(defaults, 1u);
  EXPECT_NE(std::find(devices.begin(), devices.end(), defaultDevice), devices.end());
  // Fewer entries than devices: only that many are written.
  cl_device_id one = nullptr;
  ASSERT_CL(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 1, &one, nullptr));
  EXPECT_EQ(one, devices[0]);
}

TEST_F(PlatformTest, GetDeviceIDsErrors) {
  cl_device_id device = nullptr;
  cl_uint count = 0;
  EXPECT_CL_ERR(CL_INVALID_DEVICE_TYPE, clGetDeviceIDs(platform_, 0, 1, &device, &count));
  EXPECT_CL_ERR(CL_INVALID_DEVICE_TYPE, clGetDeviceIDs(platform_, cl_device_type(1) << 40, 1, &device, &count));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 0, &device, &count));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 0, nullptr, nullptr));
  // A type with no device is CL_DEVICE_NOT_FOUND. (Custom devices are not
  // in the CL_DEVICE_TYPE_ALL list this compares against.)
  for (cl_device_type type : {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR}) {
    bool present = false;
    for (cl_device_id d : devicesUnderTest())
      present |= (deviceInfo<cl_device_type>(d, CL_DEVICE_TYPE) & type) != 0;
    if (!present)
      EXPECT_CL_ERR(CL_DEVICE_NOT_FOUND, clGetDeviceIDs(platform_, type, 0, nullptr, &count)) << "type " << type;
  }
}
