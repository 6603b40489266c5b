#include "stages.h"

#include "elf_disassembly.h"

#if POLYMUX_TOOL_SPIRV
#include "compiler/spirv/spirv_text.h"
#endif

#include <cstring>
#include <vector>

namespace polymux::tool {
namespace {

/// What a target's final code is, from POLYMUX_DUMP's extension for it.
std::string describeCode(const std::string &kind) {
  if (kind == "o")
    return "a relocatable ELF object";
  if (kind == "elf")
    return "a linked ELF program";
  if (kind == "spv")
    return "SPIR-V, which the Vulkan driver compiles further out of Polymux's sight";
  return "'" + kind + "' code";
}

bool isElf(const std::string &kind) { return kind == "o" || kind == "elf"; }

llvm::Expected<std::string> spirvText(const std::vector<std::byte> &code) {
#if POLYMUX_TOOL_SPIRV
  std::vector<uint32_t> words(code.size() / sizeof(uint32_t));
  std::memcpy(words.data(), code.data(), words.size() * sizeof(uint32_t));
  return compiler::spirv::disassembleSpirv(words);
#else
  (void)code;
  return llvm::createStringError("this build has no SPIR-V disassembler (SPIRV-Tools): write the module to a file "
                                 "with -o");
#endif
}

} // namespace

bool parseEmitKind(std::string_view text, EmitKind &kind) {
  if (text == "ll")
    kind = EmitKind::IR;
  else if (text == "asm")
    kind = EmitKind::Assembly;
  else if (text == "spirv")
    kind = EmitKind::Spirv;
  else if (text == "elf")
    kind = EmitKind::Elf;
  else
    return false;
  return true;
}

std::string_view commentLeader(EmitKind kind) { return kind == EmitKind::Assembly ? "#" : ";"; }

llvm::Expected<Stage> stageOf(const DeviceBuild &build, EmitKind kind, bool toFile) {
  Stage stage;
  if (build.ir.empty()) {
    stage.absent = "shows no stages: its compiler does not report its IR and code to tools";
    return stage;
  }
  if (kind == EmitKind::IR) {
    stage.bytes = build.ir;
    return stage;
  }
  if (build.code.empty()) {
    stage.absent = "made no code from the IR: the build failed in its last step (--emit=ll shows the IR)";
    return stage;
  }
  const std::string &codeKind = build.codeKind;
  if (kind == EmitKind::Spirv) {
    if (codeKind != "spv") {
      stage.absent = "has no SPIR-V: its compiler takes LLVM IR straight to machine code, " + describeCode(codeKind) +
                     " (--emit=ll, --emit=asm)";
    } else if (toFile) {
      stage.bytes.assign(reinterpret_cast<const char *>(build.code.data()), build.code.size());
      stage.binary = true;
    } else {
      auto text = spirvText(build.code);
      if (!text)
        return text.takeError();
      stage.bytes = std::move(*text);
    }
    return stage;
  }
  if (!isElf(codeKind)) {
    stage.absent =
        (kind == EmitKind::Assembly ? "has no assembly: its final code is " : "has no ELF: its final code is ") +
        describeCode(codeKind) + (kind == EmitKind::Assembly ? " (--emit=ll shows the IR before it)" : "");
    return stage;
  }
  if (kind == EmitKind::Elf) {
    stage.bytes.assign(reinterpret_cast<const char *>(build.code.data()), build.code.size());
    stage.binary = true;
    return stage;
  }
  auto text = disassembleElf(build.code);
  if (!text)
    return text.takeError();
  stage.bytes = std::move(*text);
  return stage;
}

} // namespace polymux::tool
