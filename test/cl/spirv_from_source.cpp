#include "spirv_from_source.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace cltest {

std::vector<unsigned char> spirvFromOpenCLC(std::string_view source, std::string_view std) {
  char directory[] = "/tmp/polymux-spirv-XXXXXX";
  if (!mkdtemp(directory)) {
    ADD_FAILURE() << "no temporary directory";
    return {};
  }
  const std::string input = std::string(directory) + "/k.cl", output = std::string(directory) + "/k.spv",
                    log = std::string(directory) + "/log";
  std::ofstream(input) << source;
  const std::string command = std::string(POLYMUX_TEST_CLANG) + " --target=spirv64 -cl-std=" + std::string(std) +
                              " -Xclang -finclude-default-header -c " + input + " -o " + output + " 2> " + log;
  const int status = std::system(command.c_str());
  std::ifstream module(output, std::ios::binary);
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(module)), std::istreambuf_iterator<char>());
  if (status != 0 || bytes.empty()) {
    std::stringstream diagnostics;
    diagnostics << std::ifstream(log).rdbuf();
    ADD_FAILURE() << "Clang made no SPIR-V (" << command << "):\n" << diagnostics.str();
    bytes.clear();
  }
  for (const std::string &file : {input, output, log})
    std::remove(file.c_str());
  rmdir(directory);
  return bytes;
}

} // namespace cltest
