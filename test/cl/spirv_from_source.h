// OpenCL C made SPIR-V at test run time, by the Clang of the LLVM Polymux
// links (its SPIR-V back end, as test/kernels_il is made at build time):
// for suites that run the same kernels as OpenCL C and as SPIR-V programs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cltest {

/// The SPIR-V module of `source` for OpenCL C `std` (e.g. "CL1.2"); empty,
/// with a test failure holding Clang's diagnostics, when it does not compile.
std::vector<unsigned char> spirvFromOpenCLC(std::string_view source, std::string_view std);

} // namespace cltest
