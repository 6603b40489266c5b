// cl_khr_device_uuid: a device's UUID and its driver's UUID are what every
// process on the machine sees, so cooperating processes can agree on which
// device is which (doc/extensions/device_identity.md).
#include "cl_test.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace cltest;

namespace {

class DeviceUuidTest : public DeviceTest {
protected:
  bool hasUuid() const {
    return deviceString(device(), CL_DEVICE_EXTENSIONS).find("cl_khr_device_uuid") != std::string::npos;
  }

  /// The device and driver UUIDs in hex, "device-driver".
  std::string uuids() const {
    std::array<cl_uchar, CL_UUID_SIZE_KHR> deviceUuid{}, driverUuid{};
    if (clGetDeviceInfo(device(), CL_DEVICE_UUID_KHR, deviceUuid.size(), deviceUuid.data(), nullptr) != CL_SUCCESS ||
        clGetDeviceInfo(device(), CL_DRIVER_UUID_KHR, driverUuid.size(), driverUuid.data(), nullptr) != CL_SUCCESS)
      return "query failed";
    std::string text;
    char digits[3];
    for (cl_uchar byte : deviceUuid) {
      std::snprintf(digits, sizeof digits, "%02x", byte);
      text += digits;
    }
    text += '-';
    for (cl_uchar byte : driverUuid) {
      std::snprintf(digits, sizeof digits, "%02x", byte);
      text += digits;
    }
    return text;
  }
};

TEST_P(DeviceUuidTest, EveryDeviceReportsANonZeroUuid) {
  ASSERT_TRUE(hasUuid());
  std::string text = uuids();
  ASSERT_NE(text, "query failed");
  EXPECT_NE(text.substr(0, 32), std::string(32, '0'));
  EXPECT_NE(text.substr(33), std::string(32, '0'));
}

TEST_P(DeviceUuidTest, TheDevicesOfAPlatformHaveDifferentUuids) {
  cl_platform_id platform = nullptr;
  ASSERT_CL(clGetDeviceInfo(device(), CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr));
  cl_uint count = 0;
  ASSERT_CL(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count));
  std::vector<cl_device_id> devices(count);
  ASSERT_CL(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr));
  std::array<cl_uchar, CL_UUID_SIZE_KHR> mine{};
  ASSERT_CL(clGetDeviceInfo(device(), CL_DEVICE_UUID_KHR, mine.size(), mine.data(), nullptr));
  for (cl_device_id other : devices) {
    if (other == device())
      continue;
    std::array<cl_uchar, CL_UUID_SIZE_KHR> theirs{};
    ASSERT_CL(clGetDeviceInfo(other, CL_DEVICE_UUID_KHR, theirs.size(), theirs.data(), nullptr));
    EXPECT_NE(mine, theirs) << deviceString(other, CL_DEVICE_NAME);
  }
}

TEST_P(DeviceUuidTest, TooSmallBuffersAreRejected) {
  std::array<cl_uchar, CL_UUID_SIZE_KHR - 1> small{};
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetDeviceInfo(device(), CL_DEVICE_UUID_KHR, small.size(), small.data(), nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetDeviceInfo(device(), CL_DRIVER_UUID_KHR, small.size(), small.data(), nullptr));
}

TEST_P(DeviceUuidTest, AnotherProcessSeesTheSameUuids) {
  std::string expected = uuids();
  ASSERT_NE(expected, "query failed");
  // "threadsafe" runs the statement in a freshly started copy of this test
  // program: a process of its own that finds the platform and its devices
  // again (a plain fork() would share this process's driver state).
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        std::fprintf(stderr, "uuids=%s\n", uuids().c_str());
        std::exit(0);
      },
      testing::ExitedWithCode(0), "uuids=" + expected);
}

} // namespace

CLTEST_INSTANTIATE(DeviceUuidTest);
