// The link step of targets whose programs are static ELF executables laid
// out by a linker script (riscv_sim): lld, in-process.
#pragma once

#include "llvm/Support/Error.h"

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace compiler {

/// Links relocatable ELF `objects` into one static executable with lld,
/// placed by `linkerScript`. Only what the `roots` symbols (the kernel entry
/// points) reach is kept. Fails with Status::Failure and lld's messages
/// (an undefined symbol, a section that does not fit its memory region).
/// Thread-safe: lld runs one link at a time.
llvm::Expected<std::vector<std::byte>> linkStaticElf(std::span<const std::span<const std::byte>> objects,
                                                     std::string_view linkerScript,
                                                     std::span<const std::string> roots);

} // namespace compiler
