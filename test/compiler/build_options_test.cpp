#include "compiler/build_options.h"

#include "test_support.h"

namespace compiler::test {
namespace {

TEST(BuildOptions, DefaultsToOpenCLC12) {
  auto options = parseBuildOptions("", OptionsUse::Build);
  ASSERT_TRUE(static_cast<bool>(options));
  EXPECT_EQ(options->clStd, 120u);
  EXPECT_FALSE(options->clStdGiven);
}

TEST(BuildOptions, ParsesEveryNamedCompileOption) {
  auto options = parseBuildOptions(
      "-D A -DB=2 -I /tmp/inc -I/usr/include -cl-std=CL3.0 -cl-opt-disable -cl-mad-enable -cl-no-signed-zeros "
      "-cl-unsafe-math-optimizations -cl-finite-math-only -cl-fast-relaxed-math -cl-denorms-are-zero "
      "-cl-single-precision-constant -cl-kernel-arg-info -w -Werror -g -cl-uniform-work-group-size "
      "-cl-no-subgroup-ifp",
      OptionsUse::Compile);
  ASSERT_TRUE(static_cast<bool>(options)) << errorText(options.takeError());
  EXPECT_EQ(options->defines, (std::vector<std::string>{"A", "B=2"}));
  EXPECT_EQ(options->includeDirs, (std::vector<std::string>{"/tmp/inc", "/usr/include"}));
  EXPECT_EQ(options->clStd, 300u);
  EXPECT_TRUE(options->optDisable && options->madEnable && options->noSignedZeros && options->unsafeMath &&
              options->finiteMathOnly && options->fastRelaxedMath && options->denormsAreZero &&
              options->singlePrecisionConstant && options->kernelArgInfo && options->noWarnings &&
              options->warningsAsErrors && options->debugInfo && options->uniformWorkGroupSize &&
              options->noSubgroupIfp);
}

TEST(BuildOptions, AcceptsEveryClStd) {
  for (auto [text, version] :
       {std::pair{"CL1.0", 100u}, {"CL1.1", 110u}, {"CL1.2", 120u}, {"CL2.0", 200u}, {"CL3.0", 300u}}) {
    auto options = parseBuildOptions(std::string("-cl-std=") + text, OptionsUse::Build);
    ASSERT_TRUE(static_cast<bool>(options)) << text;
    EXPECT_EQ(options->clStd, version);
  }
}

TEST(BuildOptions, QuotedDefinesKeepSpaces) {
  auto options = parseBuildOptions(R"(-D "MSG=a b" -D'X=1 + 2')", OptionsUse::Build);
  ASSERT_TRUE(static_cast<bool>(options));
  EXPECT_EQ(options->defines, (std::vector<std::string>{"MSG=a b", "X=1 + 2"}));
}

void expectInvalid(std::string_view text, OptionsUse use) {
  auto options = parseBuildOptions(text, use);
  ASSERT_FALSE(static_cast<bool>(options)) << text;
  std::string message;
  mux::Status status = mux::Status::Success;
  llvm::handleAllErrors(options.takeError(), [&](const mux::StatusError &e) {
    status = e.status();
    message = e.message();
  });
  EXPECT_EQ(status, mux::Status::InvalidArgument) << text;
  EXPECT_EQ(message.rfind("invalid build option", 0), 0u) << message;
}

TEST(BuildOptions, RejectsUnknownAndMalformedOptions) {
  expectInvalid("-cl-no-such-option", OptionsUse::Build);
  expectInvalid("-O3", OptionsUse::Compile);
  expectInvalid("-cl-std=CL4.0", OptionsUse::Build);
  expectInvalid("-cl-std=CLC++", OptionsUse::Build);
  expectInvalid("-D", OptionsUse::Build);
  expectInvalid("-D -w", OptionsUse::Build);
  expectInvalid("-I", OptionsUse::Compile);
  expectInvalid("-D=1", OptionsUse::Compile);
  expectInvalid("-D \"unterminated", OptionsUse::Compile);
  expectInvalid("-create-library", OptionsUse::Build);
}

TEST(BuildOptions, LinkAcceptsOnlyLinkerOptions) {
  auto options = parseBuildOptions("-create-library -enable-link-options -cl-fast-relaxed-math", OptionsUse::Link);
  ASSERT_TRUE(static_cast<bool>(options));
  EXPECT_TRUE(options->createLibrary && options->enableLinkOptions && options->fastRelaxedMath);
  expectInvalid("-D X", OptionsUse::Link);
  expectInvalid("-cl-std=CL1.2", OptionsUse::Link);
  expectInvalid("-cl-opt-disable", OptionsUse::Link);
}

} // namespace
} // namespace compiler::test
