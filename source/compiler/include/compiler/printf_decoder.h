// Turns the records a launch left in its printf buffer back into text.
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace compiler {

/// Formats every record of `buffer` (a PrintfBufferHeader and its record
/// space, compiler/abi/printf_abi.h) with the format table `table`
/// (takePrintfTable() / CpuBinary::printfTable), in buffer order, and returns
/// the text. Records that do not match the table are skipped.
std::string decodePrintfBuffer(std::span<const std::byte> table, const void *buffer);

} // namespace compiler
