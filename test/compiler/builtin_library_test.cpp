// Linking the builtins library into programs: only what a program calls,
// internal and tagged, with the calling convention the kernels use.
#include "compiler/builtin_library.h"
#include "test_support.h"

#include "compiler/kernel_metadata.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"

#include <gtest/gtest.h>

// The host library, embedded by polymux_add_builtin_library(host ...).
extern "C" __attribute__((visibility("hidden"))) const char polymux_builtins_host_begin[];
extern "C" __attribute__((visibility("hidden"))) const char polymux_builtins_host_end[];

namespace compiler::test {
namespace {

std::span<const std::byte> hostLibrary() {
  return std::as_bytes(std::span(polymux_builtins_host_begin, polymux_builtins_host_end));
}

TEST(BuiltinLibrary, EmbeddedLibraryIsBitcodeForTheHostTriple) {
  llvm::LLVMContext context;
  std::span<const std::byte> bytes = hostLibrary();
  ASSERT_GT(bytes.size(), 4u);
  llvm::MemoryBufferRef buffer(llvm::StringRef(reinterpret_cast<const char *>(bytes.data()), bytes.size()), "lib");
  auto module = llvm::parseBitcodeFile(buffer, context);
  ASSERT_TRUE(static_cast<bool>(module)) << llvm::toString(module.takeError());
  EXPECT_EQ(llvm::Triple((*module)->getTargetTriple()).getArch(),
            llvm::Triple(llvm::sys::getProcessTriple()).getArch());
  // One definition per overload: prefetch for a scalar and a vector type.
  EXPECT_NE((*module)->getFunction("_Z8prefetchPU8CLglobalKcm"), nullptr);
  EXPECT_NE((*module)->getFunction("_Z8prefetchPU8CLglobalKDv16_dm"), nullptr);
}

TEST(BuiltinLibrary, LinksOnlyWhatTheProgramCallsAsInternalTaggedFunctions) {
  llvm::LLVMContext context;
  auto module = compileForHost(context, R"(
void helper(__global float4 *p) { prefetch(p, 2); }
__kernel void k(__global float4 *p, __global int *q) { helper(p); prefetch(q, 1); })");
  ASSERT_TRUE(module);
  ASSERT_EQ(errorText(linkBuiltinLibrary(*module, hostLibrary())), "");

  for (const char *name : {"_Z8prefetchPU8CLglobalKDv4_fm", "_Z8prefetchPU8CLglobalKim"}) {
    llvm::Function *function = module->getFunction(name);
    ASSERT_NE(function, nullptr) << name;
    EXPECT_FALSE(function->isDeclaration()) << name;
    EXPECT_TRUE(function->hasInternalLinkage()) << name;
    EXPECT_TRUE(function->hasFnAttribute(kBuiltinLibraryAttribute)) << name;
  }
  // Overloads nobody calls stay out of the program.
  EXPECT_EQ(module->getFunction("_Z8prefetchPU8CLglobalKcm"), nullptr);
  EXPECT_EQ(module->getFunction("_Z8prefetchPU8CLglobalKDv16_dm"), nullptr);
  // The program's own functions are not mistaken for library ones.
  llvm::Function *helper = module->getFunction("helper");
  ASSERT_NE(helper, nullptr);
  EXPECT_FALSE(helper->hasFnAttribute(kBuiltinLibraryAttribute));
}

TEST(BuiltinLibrary, VectorArgumentsUseTheKernelsCallingConvention) {
  // A float16 is passed the same way by the kernel and by the library
  // (both compiled for the triple's baseline CPU): after linking the call
  // matches the definition's type, so it can be inlined.
  llvm::LLVMContext context;
  auto module = compileForHost(context, R"(
__kernel void k(__global float16 *p) { prefetch(p, 1); })");
  ASSERT_TRUE(module);
  ASSERT_EQ(errorText(linkBuiltinLibrary(*module, hostLibrary())), "");
  llvm::Function *prefetch = module->getFunction("_Z8prefetchPU8CLglobalKDv16_fm");
  ASSERT_NE(prefetch, nullptr);
  for (llvm::User *user : prefetch->users())
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(user))
      EXPECT_EQ(call->getFunctionType(), prefetch->getFunctionType());
}

TEST(BuiltinLibrary, WideVectorCallsBuildCleanlyUnderWerror) {
  // The baseline-CPU vector convention must not show up as -Wpsabi
  // warnings in the program's log (fatal under -Werror).
  auto compiler = hostCompiler();
  std::string log;
  auto module =
      compiler->build("__kernel void k(__global float16 *o) { o[0] = sin(o[1]) + exp(o[2]); }", "-Werror", log);
  EXPECT_TRUE(static_cast<bool>(module)) << (module ? "" : errorText(module.takeError())) << log;
  EXPECT_EQ(log.find("warning"), std::string::npos) << log;
}

TEST(BuiltinLibrary, EmptyLibraryLinksNothingAndCorruptOneFails) {
  llvm::LLVMContext context;
  auto module = compileForHost(context, "__kernel void k(__global int *p) { prefetch(p, 1); }");
  ASSERT_TRUE(module);
  EXPECT_EQ(errorText(linkBuiltinLibrary(*module, {})), "");
  EXPECT_TRUE(module->getFunction("_Z8prefetchPU8CLglobalKim")->isDeclaration());

  const char garbage[] = "this is not bitcode";
  std::string message = errorText(linkBuiltinLibrary(*module, std::as_bytes(std::span(garbage))));
  EXPECT_NE(message.find("builtins library cannot be read"), std::string::npos) << message;
}

TEST(BuiltinLibrary, BuiltinsTheLibraryLacksAreStillNamedInTheBuildLog) {
  llvm::LLVMContext context;
  auto module = compileForHost(context, R"(
int not_a_builtin(int);
__kernel void k(__global int *p) { prefetch(p, 1); p[0] = not_a_builtin(p[1]); })");
  ASSERT_TRUE(module);
  CpuBinary binary;
  std::string message = errorText(lowerKernelsForCpu(*module, kernelInfos(*module), binary, hostLibrary()));
  EXPECT_NE(message.find("not_a_builtin"), std::string::npos) << message;
  EXPECT_EQ(message.find("prefetch"), std::string::npos) << message;
}

} // namespace
} // namespace compiler::test
