// The OpenCL C front end: Clang 22 in-process, source -> llvm::Module.
#pragma once

#include "compiler/build_options.h"
#include "compiler/target.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace compiler {

/// What the front end needs to know about the device it compiles for.
struct FrontendConfig {
  /// Kernels are compiled for the triple's baseline CPU, as the builtins
  /// library is: the calling convention for vectors depends on CPU features
  /// (AVX passes a float8 in a register), and both sides must agree. The
  /// device's own CPU only matters to code generation (CodegenConfig).
  std::string triple;
  /// Extensions (cl_khr_fp64, ...) and OpenCL C 3.0 feature macros
  /// (__opencl_c_fp64, ...) the device supports; everything else is disabled.
  std::vector<std::string> extensions;
  /// Highest OpenCL C version the device accepts (100 * major + 10 * minor).
  unsigned maxClStd = 300;
  /// The device's OpenCL version (100 * major + 10 * minor): the value of
  /// __OPENCL_VERSION__.
  unsigned openclVersion = 300;
  /// The ABI (`-target-abi`, e.g. "lp64d"); empty for the triple's default.
  std::string abi;
  /// Target features the calling convention depends on ("+d" for lp64d),
  /// the same the builtins library was compiled with; none for x86-64,
  /// whose baseline is what both sides use.
  std::vector<std::string> features;
  /// Position-independent code (a JIT loads it anywhere) or not (a program
  /// linked at fixed addresses).
  bool pic = true;
};

/// Compiles `source` with `options` to an llvm::Module in `context`. Clang's
/// diagnostics are appended to `log` verbatim. Fails with Status::Failure when
/// the source does not compile. Kernel argument metadata (names, type names)
/// is always emitted, and so are the kernels' argument type entities
/// (arg_entity_metadata.h). Thread-safe.
llvm::Expected<std::unique_ptr<llvm::Module>> compileOpenCLC(llvm::LLVMContext &context, std::string_view source,
                                                             const BuildOptions &options,
                                                             std::span<const Header> headers,
                                                             const FrontendConfig &config, std::string &log);

/// `source` as compileOpenCLC's preprocessor sees it with the same arguments
/// (-E output): includes, #embed data, -D/-I options, the device's macros and
/// the embedded headers resolved; comments dropped; line markers kept, so
/// line numbers survive. Fails when the source does not preprocess.
/// Thread-safe.
llvm::Expected<std::string> preprocessOpenCLC(std::string_view source, const BuildOptions &options,
                                              std::span<const Header> headers, const FrontendConfig &config);

/// The `-cl-ext=` value that enables exactly `extensions`.
std::string clExtOption(std::span<const std::string> extensions);

} // namespace compiler
