// The program machinery every compiler::Target built on the OpenCL C front
// end shares: compile (source -> bitcode), link (bitcode modules -> library
// or executable, link-time math options), build, (de)serialization with the
// target's identity, build logs, kernel metadata. A target supplies only its
// "finalize" step (a linked llvm::Module -> its binary) and a check of a
// binary read back from a program binary or the cache.
#pragma once

#include "compiler/frontend.h"
#include "compiler/module_format.h"
#include "compiler/target.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace compiler {

struct ProgramTargetConfig {
  /// Target::identity(): the compiler, the device and everything else the
  /// binaries depend on.
  std::string identity;
  /// The target's name in diagnostics (POLYMUX_LOG): "host", "vulkan", ...
  std::string name;
  FrontendConfig frontend;
  /// SPIR-V programs are read (compiler/il/spirv_frontend.h) when the
  /// translator is installed; set by targets where they are tested.
  bool readsSpirv = false;
  /// Lowers a linked module into the target binary. `data` already holds
  /// the module's kernels, options and -cl-opt-disable. Its errors fail the
  /// build and go to the log.
  std::function<llvm::Expected<std::vector<std::byte>>(std::unique_ptr<llvm::Module> module, const ModuleData &data)>
      finalize;
  /// Checks a target binary read back by Target::deserialize.
  std::function<llvm::Error(std::span<const std::byte> binary)> checkBinary;
  /// Bytes of program-scope variables the binary allocates
  /// (Module::globalVariableTotalSize); 0 on a malformed binary.
  std::function<uint64_t(std::span<const std::byte> binary)> globalVariableSize;
};

std::unique_ptr<Target> createProgramTarget(ProgramTargetConfig config);

/// Sets `config`'s checkBinary and globalVariableSize from a decoder of the
/// target's container: `decode(bytes)` returns an llvm::Expected of a struct
/// with a `globalVariableSize` member.
template <typename Decode> void setBinaryDecoder(ProgramTargetConfig &config, Decode decode) {
  config.checkBinary = [decode](std::span<const std::byte> bytes) -> llvm::Error {
    auto binary = decode(bytes);
    return binary ? llvm::Error::success() : binary.takeError();
  };
  config.globalVariableSize = [decode](std::span<const std::byte> bytes) -> uint64_t {
    auto binary = decode(bytes);
    if (!binary) {
      llvm::consumeError(binary.takeError());
      return 0;
    }
    return binary->globalVariableSize;
  };
}

/// POLYMUX_DUMP=<directory>: keeps the final IR of a build as `.ll` and its
/// binary as `.<extension>` there, for debugging; and hands both to the
/// calling thread's BuildObserver, if any. Does nothing otherwise.
void dumpBuild(const llvm::Module &module, std::span<const std::byte> binary, llvm::StringRef extension);

/// Sees what dumpBuild sees: the final IR of each build and its code (the
/// object, linked program or SPIR-V; empty when the last step refused the
/// IR), with the extension POLYMUX_DUMP would give the code ("o", "elf",
/// "spv"). For tools that show a target's stages (`polymux compile --emit`).
using BuildObserver =
    std::function<void(const llvm::Module &module, std::span<const std::byte> code, llvm::StringRef extension)>;

/// Installs `observer` for the builds that run on this thread while the
/// object lives (builds are observed from the thread that calls
/// compiler::Target, though they run on a thread of their own).
class ScopedBuildObserver {
public:
  explicit ScopedBuildObserver(BuildObserver observer);
  ~ScopedBuildObserver();
  ScopedBuildObserver(const ScopedBuildObserver &) = delete;
  ScopedBuildObserver &operator=(const ScopedBuildObserver &) = delete;

private:
  BuildObserver observer_;
  const BuildObserver *previous_;
};

/// Hex xxh3 hash of `bytes`, for identities.
std::string identityHash(llvm::StringRef bytes);

} // namespace compiler
