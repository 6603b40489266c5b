// Reading a SPIR-V module word by word: the few opcodes Polymux looks at
// before translation, the module in host byte order, and a walk over its
// instructions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace compiler::il::spirv_words {

inline constexpr uint32_t kMagic = 0x07230203;
inline constexpr size_t kHeaderWords = 5;

enum Opcode : uint16_t {
  OpTypeBool = 20,
  OpTypeInt = 21,
  OpTypeFloat = 22,
  OpConstantFalse = 41,
  OpConstant = 43,
  OpConstantNull = 46,
  OpSpecConstantTrue = 48,
  OpSpecConstantFalse = 49,
  OpSpecConstant = 50,
  OpDecorate = 71,
};

inline constexpr uint32_t kDecorationSpecId = 1;

inline uint32_t instructionWord(uint16_t opcode, uint32_t count) { return count << 16 | opcode; }

/// `il` as words in host byte order, with whether they were swapped;
/// std::nullopt unless it is a whole number of words, at least the header,
/// starting with the magic number in either order.
std::optional<std::vector<uint32_t>> hostOrderWords(std::span<const std::byte> il, bool &swapped);

/// Calls `visit(opcode, instruction)` for each instruction after the
/// header, `instruction` being its words (the first holds count and
/// opcode). Returns false, having stopped, at an instruction that is empty
/// or runs past the end.
template <typename Visit> bool forEachInstruction(std::span<const uint32_t> words, Visit visit) {
  for (size_t at = kHeaderWords; at < words.size();) {
    uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size())
      return false;
    visit(static_cast<uint16_t>(words[at] & 0xffff), words.subspan(at, count));
    at += count;
  }
  return true;
}

} // namespace compiler::il::spirv_words
