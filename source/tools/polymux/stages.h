// What `polymux compile --emit=KIND` writes: a stage of one device's build
// (the final LLVM IR, the machine code as assembly, SPIR-V, the ELF file),
// or why the device's target has no such stage.
#pragma once

#include "device_build.h"

#include "llvm/Support/Error.h"

#include <string>
#include <string_view>

namespace polymux::tool {

enum class EmitKind {
  IR,       ///< ll: the optimised LLVM IR the target's last step takes
  Assembly, ///< asm: the machine code of an ELF object or program, disassembled
  Spirv,    ///< spirv: the SPIR-V module (text, or the binary module in a file)
  Elf,      ///< elf: the relocatable object or linked program
};

/// Parses "ll", "asm", "spirv" or "elf".
bool parseEmitKind(std::string_view text, EmitKind &kind);

/// The comment leader of a textual stage (for headers between devices).
std::string_view commentLeader(EmitKind kind);

struct Stage {
  std::string bytes;
  /// When the target has no such stage, why, to follow "the <name> target"
  /// ("has no SPIR-V: ...").
  std::string absent;
  bool binary = false;
};

/// Stage `kind` of a successful or failed `build` (a failed build may still
/// have its IR: the last step refused it). `toFile`: a file gets SPIR-V as the binary module
/// (for spirv-dis, spirv-val), a stream as text.
llvm::Expected<Stage> stageOf(const DeviceBuild &build, EmitKind kind, bool toFile);

} // namespace polymux::tool
