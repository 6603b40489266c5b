// The platform and devices under test and string-valued info queries,
// shared by the test suites (test/cl, test/stress); free of any test
// framework.
#pragma once

#include <CL/cl.h>

#include <string>
#include <string_view>
#include <vector>

namespace cltest {

// $POLYMUX_TEST_PLATFORM, or "Polymux".
std::string platformNameUnderTest();
// The platform whose CL_PLATFORM_NAME is platformNameUnderTest(), or null.
cl_platform_id platformUnderTest();
// Every device of that platform (empty when the platform is missing).
const std::vector<cl_device_id> &devicesUnderTest();

std::string platformString(cl_platform_id platform, cl_platform_info param);
std::string deviceString(cl_device_id device, cl_device_info param);
std::string programBuildLog(cl_program program, cl_device_id device);

// Splits on any of `separators`, dropping empty pieces.
std::vector<std::string> split(std::string_view text, std::string_view separators);
bool deviceHasExtension(cl_device_id device, std::string_view name);

} // namespace cltest
