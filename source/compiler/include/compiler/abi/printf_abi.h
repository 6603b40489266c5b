// The printf ABI shared by the compiler (LowerPrintfPass) and the runtimes of
// CPU-like targets: the launch's printf buffer and how records are laid out
// in it. The runtime allocates the buffer, zeroes `used`, sets `capacity`,
// hands it to the kernel through WorkGroupInfo::printfBuffer, and decodes it
// with decodePrintfBuffer (compiler/printf_decoder.h) when the launch ends.
#pragma once

#include <cstdint>

namespace compiler::abi {

struct PrintfBufferHeader {
  /// Bytes of record space after the header.
  uint64_t capacity;
  /// Bytes of record space claimed so far; kernels claim with an atomic add
  /// and write nothing when the claim would pass `capacity`.
  uint64_t used;
};

} // namespace compiler::abi
