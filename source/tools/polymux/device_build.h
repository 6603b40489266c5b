// One device's build of a program from OpenCL C or SPIR-V, through the
// device's own compiler (compiler::Target::build or buildIL, as
// clBuildProgram), keeping what the compiler showed of its last stages for
// --emit.
#pragma once

#include "compiler/target.h"
#include "mux/device.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace polymux::tool {

struct DeviceBuild {
  /// The executable module; null when the build failed.
  std::unique_ptr<compiler::Module> module;
  /// Clang's diagnostics and the compiler's messages (the build log).
  std::string log;
  /// Why the build failed, when the log does not already say it.
  std::string error;
  double seconds = 0;

  /// The final LLVM IR, as text (empty: the compiler did not show it).
  std::string ir;
  /// The code the last step made from it (compiler::BuildObserver): an ELF
  /// object, a linked ELF program or SPIR-V words.
  std::vector<std::byte> code;
  /// POLYMUX_DUMP's extension for `code`: "o", "elf" or "spv"; empty when
  /// the compiler showed no code.
  std::string codeKind;

  bool ok() const { return module != nullptr; }
};

/// Builds `source` (OpenCL C, or the bytes of a SPIR-V module) with
/// `options` for `device`; with `keepStages`, also keeps the final IR and
/// code.
DeviceBuild buildForDevice(mux::Device &device, std::string_view source, std::string_view options, bool keepStages);

/// Prints each distinct build log of `builds` (one per device of `ids`) once
/// on standard error, as diagnostics of `sourcePath`, naming the devices it
/// came from when there are several.
void printBuildLogs(const std::vector<std::string> &ids, const std::vector<DeviceBuild> &builds,
                    const std::string &sourcePath);

} // namespace polymux::tool
