// Loads and stores of __global memory after scalarisation: adjacent,
// aligned 32-bit ones become vector accesses of up to four elements
// (LLVM's LoadStoreVectorizer under bufferVectorRules), the rest stay scalar.
#include "spirv_test_support.h"

#include <regex>
#include <set>

namespace compiler::spirv::test {
namespace {

std::string disassemble(const std::vector<uint32_t> &words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::string text;
  EXPECT_TRUE(tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES));
  return text;
}

/// The disassembly of `source` built for the lavapipe-like target.
std::string builtText(const std::string &source) { return disassemble(buildOk(source).binary.spirv); }

size_t count(const std::string &text, const std::string &pattern) {
  std::regex expression(pattern);
  return std::distance(std::sregex_iterator(text.begin(), text.end(), expression), std::sregex_iterator());
}

/// How many OpStores store a value of SPIR-V type `type` (e.g. "v2float"):
/// stores of other types (the access checks' report) do not count.
size_t storesOf(const std::string &text, const std::string &type) {
  std::set<std::string> values;
  std::regex definition("(%\\w+) = Op\\w+ %" + type + " ");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), definition); it != std::sregex_iterator(); ++it)
    values.insert((*it)[1]);
  std::regex store(R"(OpStore %\w+ (%\w+))");
  size_t count = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), store); it != std::sregex_iterator(); ++it)
    count += values.count((*it)[1]);
  return count;
}

TEST(SpirvGlobalVectorAccesses, Float16LoadsAndStoresAreFourVec4Accesses) {
  const std::string text = builtText(R"(
    kernel void twice(global const float16 *in, global float16 *out) {
      size_t i = get_global_id(0);
      out[i] = in[i] * 2.0f;
    })");
  EXPECT_EQ(count(text, R"(OpLoad %v4float %\w+ Aligned (16|32|64))"), 4u) << text;
  EXPECT_EQ(count(text, R"(OpStore %\w+ %\w+ Aligned (16|32|64))"), 4u) << text;
  EXPECT_EQ(count(text, R"(OpLoad %float )"), 0u) << text;
}

TEST(SpirvGlobalVectorAccesses, Float2IsOneVec2Access) {
  const std::string text = builtText(R"(
    kernel void swap(global float2 *data) {
      size_t i = get_global_id(0);
      data[i] = data[i].yx;
    })");
  EXPECT_EQ(count(text, R"(OpLoad %v2float %\w+ Aligned 8)"), 1u) << text;
  EXPECT_EQ(storesOf(text, "v2float"), 1u) << text;
  EXPECT_EQ(storesOf(text, "float"), 0u) << text;
}

TEST(SpirvGlobalVectorAccesses, AdjacentFloatsAlignedOnlyToFourStayScalar) {
  // Four neighbours from an odd index: a vec4 there would break Vulkan's
  // alignment rule for buffer device addresses.
  const std::string text = builtText(R"(
    kernel void sum4(global const float *in, global float *out) {
      size_t i = get_global_id(0);
      out[i] = in[4 * i + 1] + in[4 * i + 2] + in[4 * i + 3] + in[4 * i + 4];
    })");
  EXPECT_EQ(count(text, R"(OpLoad %v\dfloat)"), 0u) << text;
  EXPECT_EQ(count(text, R"(OpLoad %float %\w+ Aligned 4)"), 4u) << text;
}

TEST(SpirvGlobalVectorAccesses, CharAndShortVectorsStayScalar) {
  const std::string text = builtText(R"(
    kernel void copy(global const uchar4 *a, global uchar4 *b, global const short8 *c, global short8 *d) {
      size_t i = get_global_id(0);
      b[i] = a[i];
      d[i] = c[i];
    })");
  EXPECT_EQ(count(text, R"(OpLoad %v\d(uchar|ushort|short|char))"), 0u) << text;
}

} // namespace
} // namespace compiler::spirv::test
