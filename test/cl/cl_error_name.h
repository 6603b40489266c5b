// OpenCL error codes by name, shared by the test suites (test/cl,
// test/stress); free of any test framework.
#pragma once

#include <CL/cl.h>

namespace cltest {

/// "CL_INVALID_VALUE" for -30; "unknown OpenCL error" for codes it does not know.
const char *errorName(cl_int code);

} // namespace cltest
