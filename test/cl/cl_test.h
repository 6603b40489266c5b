// Shared test infrastructure for the OpenCL API tests: the platform and
// devices under test, a per-device fixture, RAII holders for OpenCL objects,
// and assertion helpers that print OpenCL error codes by name.
#pragma once

#include "cl_error_name.h"
#include "cl_holder.h"
#include "cl_platform.h"

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace cltest {

// ---- Error codes ---------------------------------------------------------

// A cl_int that gtest prints by name ("CL_INVALID_VALUE (-30)").
struct Err {
  cl_int code;
  friend bool operator==(Err a, Err b) { return a.code == b.code; }
};
inline void PrintTo(Err e, std::ostream *os) { *os << errorName(e.code) << " (" << e.code << ")"; }

#define ASSERT_CL(expr) ASSERT_EQ(::cltest::Err{CL_SUCCESS}, ::cltest::Err{(expr)}) << #expr
#define EXPECT_CL(expr) EXPECT_EQ(::cltest::Err{CL_SUCCESS}, ::cltest::Err{(expr)}) << #expr
#define ASSERT_CL_ERR(expected, expr) ASSERT_EQ(::cltest::Err{(expected)}, ::cltest::Err{(expr)}) << #expr
#define EXPECT_CL_ERR(expected, expr) EXPECT_EQ(::cltest::Err{(expected)}, ::cltest::Err{(expr)}) << #expr

// For creation calls that must fail: a handle returned anyway is a failure,
// and it is leaked rather than released (releasing what a failed call
// returned can crash the driver).
template <typename H> void expectNoHandle(H &&holder) {
  EXPECT_FALSE(holder) << "a failing create call returned a handle";
  holder.release();
}

// ---- Platform and devices under test --------------------------------------

std::string deviceParamName(const testing::TestParamInfo<cl_device_id> &info);
// An extension function of the platform under test, by name; null when the
// platform does not know it.
template <typename Fn> Fn extensionFunction(const char *name) {
  return reinterpret_cast<Fn>(clGetExtensionFunctionAddressForPlatform(platformUnderTest(), name));
}

// ---- Info queries -----------------------------------------------------------

template <typename T> T deviceInfo(cl_device_id device, cl_device_info param) {
  T value{};
  cl_int err = clGetDeviceInfo(device, param, sizeof(T), &value, nullptr);
  EXPECT_EQ(Err{CL_SUCCESS}, Err{err}) << "clGetDeviceInfo(" << param << ")";
  return value;
}
template <typename T> std::vector<T> deviceArray(cl_device_id device, cl_device_info param) {
  size_t size = 0;
  EXPECT_EQ(Err{CL_SUCCESS}, Err{clGetDeviceInfo(device, param, 0, nullptr, &size)});
  std::vector<T> values(size / sizeof(T));
  if (size)
    EXPECT_EQ(Err{CL_SUCCESS}, Err{clGetDeviceInfo(device, param, size, values.data(), nullptr)});
  return values;
}
template <typename T> T eventInfo(cl_event event, cl_event_info param) {
  T value{};
  EXPECT_EQ(Err{CL_SUCCESS}, Err{clGetEventInfo(event, param, sizeof(T), &value, nullptr)});
  return value;
}
cl_int eventStatus(cl_event event);

/// The OpenCL C name of a host scalar type (cl_char ... cl_double), for
/// kernel sources generated per type.
template <class T> constexpr const char *clTypeName() {
  if constexpr (std::is_same_v<T, cl_char>)
    return "char";
  else if constexpr (std::is_same_v<T, cl_uchar>)
    return "uchar";
  else if constexpr (std::is_same_v<T, cl_short>)
    return "short";
  else if constexpr (std::is_same_v<T, cl_ushort>)
    return "ushort";
  else if constexpr (std::is_same_v<T, cl_int>)
    return "int";
  else if constexpr (std::is_same_v<T, cl_uint>)
    return "uint";
  else if constexpr (std::is_same_v<T, cl_long>)
    return "long";
  else if constexpr (std::is_same_v<T, cl_ulong>)
    return "ulong";
  else if constexpr (std::is_same_v<T, cl_float>)
    return "float";
  else {
    static_assert(std::is_same_v<T, cl_double>, "not an OpenCL C scalar type");
    return "double";
  }
}
bool deviceSupportsOpenCLC(cl_device_id device, unsigned major, unsigned minor);

// Polls `done` until it is true or `timeout` passes; for callbacks the
// implementation may run on its own threads after an event completes.
bool waitUntil(const std::function<bool()> &done, std::chrono::milliseconds timeout = std::chrono::seconds(5));

// ---- Fixture ---------------------------------------------------------------

// One context and one in-order queue on the device under test.
class DeviceTest : public testing::TestWithParam<cl_device_id> {
protected:
  void SetUp() override;
  cl_device_id device() const { return GetParam(); }
  // Whether this is the suite's SPIR-V run (skipped on devices without IL).
  static bool spirvRun();

  // Builds `source` for the device. On failure, reports the build log as a
  // test failure and returns an empty holder (callers ASSERT_TRUE on it).
  // In a suite's SPIR-V run (CLTEST_INSTANTIATE_SPIRV), `source` becomes
  // SPIR-V (Clang's SPIR-V back end, the -cl-std of `options`) built with
  // clCreateProgramWithIL.
  Program build(std::string_view source, const char *options = "");
  // The same for a SPIR-V module (clCreateProgramWithIL).
  Program buildIL(const void *il, size_t size, const char *options = "");
  Kernel kernel(cl_program program, const char *name);
  // A new program made from the device's binary of `built` and built. On
  // failure, reports it and returns an empty holder.
  Program rebuildFromBinary(cl_program built);
  Mem buffer(cl_mem_flags flags, size_t size, void *host = nullptr);
  Queue makeQueue(cl_command_queue_properties properties);

  template <typename T> cl_int setArg(cl_kernel k, cl_uint index, const T &value) {
    return clSetKernelArg(k, index, sizeof(T), &value);
  }
  // Sets every argument in order (cl_mem, scalars, vectors, structs by value).
  template <typename... Args> void setArgs(cl_kernel k, const Args &...args) {
    cl_uint index = 0;
    (setArgAt(k, index++, args), ...);
  }
  template <typename T> std::vector<T> read(cl_mem mem, size_t count, size_t offset = 0) {
    std::vector<T> values(count);
    EXPECT_CL(clEnqueueReadBuffer(queue_, mem, CL_TRUE, offset * sizeof(T), count * sizeof(T), values.data(), 0,
                                  nullptr, nullptr));
    return values;
  }

  Context context_;
  Queue queue_;

private:
  template <typename T> void setArgAt(cl_kernel k, cl_uint index, const T &value) {
    EXPECT_CL(clSetKernelArg(k, index, sizeof(T), &value)) << " argument " << index;
  }
};

// Instantiates a DeviceTest-derived suite once per device under test.
#define CLTEST_INSTANTIATE(Suite)                                                                                      \
  INSTANTIATE_TEST_SUITE_P(Devices, Suite, testing::ValuesIn(::cltest::devicesUnderTest()), ::cltest::deviceParamName)
// Instantiates it once more, as "Spirv/<Suite>": its OpenCL C programs are
// built as SPIR-V programs (DeviceTest::build).
#define CLTEST_INSTANTIATE_SPIRV(Suite)                                                                                \
  INSTANTIATE_TEST_SUITE_P(Spirv, Suite, testing::ValuesIn(::cltest::devicesUnderTest()), ::cltest::deviceParamName)

} // namespace cltest

// gtest looks printers up through the pointee's namespace (the global one for
// _cl_device_id), so a failing parameterised test names its device instead of
// printing an address.
inline void PrintTo(cl_device_id device, std::ostream *os) { *os << ::cltest::deviceString(device, CL_DEVICE_NAME); }
