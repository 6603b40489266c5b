// The machine code of an ELF file as assembly text, with LLVM's
// disassemblers: what `polymux compile --emit=asm` shows of a CPU-style
// target's object or linked program.
#pragma once

#include "llvm/Support/Error.h"

#include <cstddef>
#include <span>
#include <string>

namespace polymux::tool {

/// Every executable section of the ELF file `bytes`, instruction by
/// instruction, labelled with its symbols and, in a relocatable object,
/// annotated with the relocations the linker will resolve. Fails on bytes
/// that are not an object file LLVM reads, or whose architecture this LLVM
/// cannot disassemble.
llvm::Expected<std::string> disassembleElf(std::span<const std::byte> bytes);

} // namespace polymux::tool
