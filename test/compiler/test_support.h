// Shared helpers for the compiler tests.
#pragma once

#include "compiler/cpu_pipeline.h"
#include "compiler/frontend.h"
#include "compiler/target.h"
#include "executable.h"
#include "mux/device_info.h"
#include "mux/status.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <string>

namespace compiler::test {

inline mux::DeviceInfo hostDeviceInfo() {
  mux::DeviceInfo info;
  info.name = "test host";
  info.targetName = "host";
  info.maxWorkGroupSize = 1024;
  info.subGroupSizes = {8};
  info.maxNumSubGroups = 128;
  info.fp64 = true;
  info.int64 = true;
  info.extensions = {"cl_khr_fp64", "cl_khr_byte_addressable_store", "cl_khr_global_int32_base_atomics"};
  return info;
}

inline std::unique_ptr<Target> hostCompiler() { return host::createHostCompiler(hostDeviceInfo()); }

inline FrontendConfig hostFrontendConfig() {
  FrontendConfig config;
  config.triple = llvm::sys::getProcessTriple();
  config.extensions = {"cl_khr_fp64", "__opencl_c_fp64", "__opencl_c_int64", "cl_khr_int64_base_atomics"};
  return config;
}

/// Compiles OpenCL C for the host triple with `features` (extensions and
/// OpenCL C features) on top of the host's, failing the test on errors.
inline std::unique_ptr<llvm::Module> compileForHostWith(llvm::LLVMContext &context, std::string_view source,
                                                        std::string_view options,
                                                        std::initializer_list<const char *> features) {
  auto parsed = parseBuildOptions(options, OptionsUse::Build);
  EXPECT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  FrontendConfig config = hostFrontendConfig();
  config.extensions.insert(config.extensions.end(), features.begin(), features.end());
  std::string log;
  auto module = compileOpenCLC(context, source, *parsed, {}, config, log);
  if (!module) {
    ADD_FAILURE() << llvm::toString(module.takeError()) << "\n" << log;
    return nullptr;
  }
  return std::move(*module);
}

/// Compiles OpenCL C for the host triple, failing the test on errors.
inline std::unique_ptr<llvm::Module> compileForHost(llvm::LLVMContext &context, std::string_view source,
                                                    std::string_view options = "") {
  return compileForHostWith(context, source, options, {});
}

/// Compiles OpenCL C 3.0 with the collective and sub-group features on.
inline std::unique_ptr<llvm::Module> compileWithGroupFunctions(llvm::LLVMContext &context, std::string_view source) {
  return compileForHostWith(context, source, "-cl-std=CL3.0",
                            {"cl_khr_subgroups", "__opencl_c_subgroups", "__opencl_c_work_group_collective_functions"});
}

inline std::string printModule(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  module.print(stream, nullptr);
  return text;
}

/// The message of an error (consumed), or "" for success.
inline std::string errorText(llvm::Error error) {
  std::string text;
  llvm::handleAllErrors(std::move(error), [&](const llvm::ErrorInfoBase &e) { text = e.message(); });
  return text;
}

/// Runs LLVM's FileCheck with `checks` (a check file's text) on `input`.
/// Returns FileCheck's output on failure, "" on success.
inline std::string runFileCheck(const std::string &input, const std::string &checks) {
#ifdef POLYMUX_FILECHECK
  llvm::SmallString<128> inputPath, checkPath, outputPath;
  llvm::sys::fs::createTemporaryFile("polymux-filecheck-input", "ll", inputPath);
  llvm::sys::fs::createTemporaryFile("polymux-filecheck-checks", "txt", checkPath);
  llvm::sys::fs::createTemporaryFile("polymux-filecheck-output", "txt", outputPath);
  {
    std::error_code ec;
    llvm::raw_fd_ostream(inputPath, ec) << input;
    llvm::raw_fd_ostream(checkPath, ec) << checks;
  }
  llvm::StringRef program = POLYMUX_FILECHECK;
  llvm::StringRef args[] = {program, checkPath, "--input-file", inputPath};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(outputPath), llvm::StringRef(outputPath)};
  int status = llvm::sys::ExecuteAndWait(program, args, std::nullopt, redirects);
  std::string output;
  if (status != 0) {
    auto buffer = llvm::MemoryBuffer::getFile(outputPath);
    output = "FileCheck failed (" + std::to_string(status) + "):\n" +
             (buffer ? (*buffer)->getBuffer().str() : std::string("(no output)")) + "\ninput:\n" + input;
  }
  llvm::sys::fs::remove(inputPath);
  llvm::sys::fs::remove(checkPath);
  llvm::sys::fs::remove(outputPath);
  return output;
#else
  return "FileCheck not found at configure time";
#endif
}

/// A kernel the host compiler built and the host JIT loaded.
struct LoadedKernel {
  std::unique_ptr<mux::Executable> executable;
  std::unique_ptr<mux::Kernel> kernel;
};

/// Builds `source` with the host compiler and loads kernel `kernelName`;
/// records a test failure and leaves `kernel` null when a step fails.
inline LoadedKernel loadHostKernel(const char *source, const char *kernelName, const char *options = "") {
  LoadedKernel loaded;
  auto compiler = hostCompiler();
  std::string log;
  auto module = compiler->build(source, options, log);
  if (!module) {
    ADD_FAILURE() << errorText(module.takeError()) << log;
    return loaded;
  }
  auto binary = (*module)->binary();
  EXPECT_TRUE(static_cast<bool>(binary));
  auto executable = host::loadExecutable(*binary, hostDeviceInfo());
  if (!executable) {
    ADD_FAILURE() << errorText(executable.takeError());
    return loaded;
  }
  loaded.executable = std::move(*executable);
  auto kernel = loaded.executable->createKernel(kernelName);
  if (!kernel) {
    ADD_FAILURE() << errorText(kernel.takeError());
    return loaded;
  }
  loaded.kernel = std::move(*kernel);
  return loaded;
}

} // namespace compiler::test
